// An action extension: returns the shared text uppercased, as an item the host can load.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class UppercaseAction: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first(where: { $0.hasItemConformingToTypeIdentifier("public.plain-text") }) else {
            return context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                            userInfo: [NSLocalizedDescriptionKey: "No text to uppercase."]))
        }
        provider.loadItem(forTypeIdentifier: "public.plain-text", options: nil) { item, error in
            guard let text = item as Any as? String else {
                return context.cancelRequest(withError: error ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError))
            }
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: text.uppercased() as NSString, typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

ExtensionProcess.run(UppercaseAction.init)
