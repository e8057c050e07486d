import ExtensionRuntime
import SharingShim

ExtensionProcess.run(ImportViewController.init)
