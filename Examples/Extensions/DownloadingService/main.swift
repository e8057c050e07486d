import ExtensionRuntime
import SharingShim

ExtensionProcess.run(NotificationService.init)
