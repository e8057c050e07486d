// For the fuzzer's tests, a planted bug: every item's attachments force-unwrapped. The API lets a host send an
// item with no attachments key at all (openradar 19425971, lionheart/openradar-mirror#11232, hosts sending less
// than expected); an extension that assumes `attachments` is always there crashes on the first such item, here
// when a share holds one beside items that do have attachments (its activation rule needs one).
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class UnwrapsAttachments: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        var types: [String] = []
        for case let item as NSExtensionItem in context.inputItems {
            for provider in item.attachments! {
                types += provider.registeredTypeIdentifiers
            }
        }
        let result = NSExtensionItem()
        result.attachments = [NSItemProvider(item: types.joined(separator: "\n") as NSString, typeIdentifier: "public.plain-text")]
        context.completeRequest(returningItems: [result], completionHandler: nil)
    }
}

ExtensionProcess.run(UnwrapsAttachments.init)
