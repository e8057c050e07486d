// A share extension for images (up to 10): each goes into the app group's inbox, with a 300-pixel preview.
import ExtensionRuntime
import InboxSaver
import SharingShim

final class ImageSaver: InboxSaver {
    init() { super.init(acceptedTypes: [.image], previewSizes: [300]) }
}

ExtensionProcess.run(ImageSaver.init)
