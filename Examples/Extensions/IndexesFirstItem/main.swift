// For the fuzzer's tests, a planted bug: `inputItems[0]` read without a look at the count. Its activation rule is
// Xcode's template's TRUEPREDICATE (3 of the 35 extensions in OpenSharing's corpus ship it), which offers the
// extension for a request with no items at all; the API allows one (openradar 19425971,
// lionheart/openradar-mirror#11232), and indexing it stops the extension.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class IndexesFirstItem: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let item = context.inputItems[0] as? NSExtensionItem
        let title = item?.attributedContentText?.string ?? item?.attributedTitle?.string ?? "Untitled"
        let result = NSExtensionItem()
        result.attachments = [NSItemProvider(item: title as NSString, typeIdentifier: "public.plain-text")]
        context.completeRequest(returningItems: [result], completionHandler: nil)
    }
}

ExtensionProcess.run(IndexesFirstItem.init)
