// For the fuzzer's tests, a planted bug: the request ended once for each attachment it handles, so a share holding
// both a URL and text (Firefox's, Safari's with its page's script) ends it twice (element-hq/element-ios#2224:
// completeRequestReturningItems called once per item type when an app shares an image, text and a URL).
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class CompletesPerAttachment: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        var handled = false
        for provider in providers {
            for type in ["public.url", "public.plain-text"] where provider.hasItemConformingToTypeIdentifier(type) {
                handled = true
                provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                    let result = NSExtensionItem()
                    result.attachments = [NSItemProvider(item: "\(type): \(String(describing: item))" as NSString, typeIdentifier: "public.plain-text")]
                    context.completeRequest(returningItems: [result], completionHandler: nil)
                }
                break
            }
        }
        if !handled {
            context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                     userInfo: [NSLocalizedDescriptionKey: "No link or text to save."]))
        }
    }
}

ExtensionProcess.run(CompletesPerAttachment.init)
