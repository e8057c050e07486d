import ExtensionRuntime
import SharingShim

ExtensionProcess.run(UploadViewController.init)
