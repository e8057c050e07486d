import ExtensionRuntime
import SharingShim

ExtensionProcess.run(ShareViewController.init)
