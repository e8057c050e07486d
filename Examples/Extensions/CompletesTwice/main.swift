// For tests: an action extension that ends its request twice, a mistake shipped extensions make. It starts a
// load of each text attachment and completes the request in the load's handler, and also completes it at the
// end of `beginRequest` "in case there was nothing to load", with an item saying so — which runs first, while the
// loads are in flight. The loads still reach it (a load on its way is delivered), and the second completion is
// the one iOS ignores. Either way it returns an item: what it gets wrong is the second ending, nothing else.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class CompletesTwiceAction: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        for provider in providers where provider.hasItemConformingToTypeIdentifier("public.plain-text") {
            provider.loadItem(forTypeIdentifier: "public.plain-text", options: nil) { item, _ in
                let result = NSExtensionItem()
                result.attachments = [NSItemProvider(item: (item as Any as? String ?? "") as NSString, typeIdentifier: "public.plain-text")]
                context.completeRequest(returningItems: [result], completionHandler: nil)
            }
        }
        let nothing = NSExtensionItem()
        nothing.attributedContentText = NSAttributedString(string: "nothing to load")
        context.completeRequest(returningItems: [nothing], completionHandler: nil)
    }
}

ExtensionProcess.run(CompletesTwiceAction.init)
