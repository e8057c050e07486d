// For the fuzzer's tests, a planted bug: an image's legacy load force-cast to a URL. Photos hands a file URL,
// but a screenshot's editor and other hosts hand the image itself or its data, and the cast stops the extension
// (Expensify/react-native-share-menu#76: "Unexpectedly found nil while implicitly unwrapping an Optional value"
// when sharing a screenshot, where NSURL could not be loaded for public.image).
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class CastsImageToURL: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first(where: { $0.hasItemConformingToTypeIdentifier("public.image") }) else {
            return context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                            userInfo: [NSLocalizedDescriptionKey: "No image to name."]))
        }
        provider.loadItem(forTypeIdentifier: "public.image", options: nil) { item, _ in
            let url = item as Any as! URL
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: url.lastPathComponent as NSString, typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

ExtensionProcess.run(CastsImageToURL.init)
