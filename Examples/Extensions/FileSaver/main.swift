// A share extension for any files, of any size (up to 10): each streams into the app group's inbox.
import ExtensionRuntime
import InboxSaver
import SharingShim

final class FileSaver: InboxSaver {
    init() { super.init(acceptedTypes: [.item], previewSizes: []) }
}

ExtensionProcess.run(FileSaver.init)
