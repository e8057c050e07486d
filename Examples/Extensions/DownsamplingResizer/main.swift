// A share extension that resizes the photo it is given to 2,000 pixels for upload, through ImageIO's thumbnail: the photo is never decoded whole
// (PhotoResizing). It returns the JPEG it would upload.
import ExtensionRuntime
import PhotoResizing
import SharingShim

final class DownsamplingResizer: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first(where: { $0.hasItemConformingToTypeIdentifier(UTType.image.identifier) }) else {
            return context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                            userInfo: [NSLocalizedDescriptionKey: "No photo to resize."]))
        }
        _ = provider.loadFileRepresentation(forTypeIdentifier: UTType.image.identifier) { url, error in
            guard let url, let resized = PhotoResizing.downsampled(photoAt: url, longestSide: 2000) else {
                return context.cancelRequest(withError: error ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError))
            }
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: resized as NSData, typeIdentifier: UTType.jpeg.identifier)]
            context.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

ExtensionProcess.run(DownsamplingResizer.init)
