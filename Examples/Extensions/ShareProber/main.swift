// An action extension that shows what a share gives an extension: every representation of every attachment
// loaded as data, as a file and as an item (HostProfiles' ShareProbe), returned as JSON text and as a property
// list. Run it with `sharing run` to see what crosses from a host; the tests compare it with what the same
// share gives in one process.
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenItemProvider

final class ShareProber: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        Task {
            let probe = await ShareProbe.probe(items)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let json = String(decoding: try encoder.encode(probe), as: UTF8.self)
                let result = NSExtensionItem()
                result.attachments = [
                    NSItemProvider(item: json as NSString, typeIdentifier: "public.json"),
                    NSItemProvider(item: NSDictionary(dictionary: ["items": probe.items.count, "probe": json]), typeIdentifier: "com.apple.property-list"),
                ]
                context.completeRequest(returningItems: [result], completionHandler: nil)
            } catch {
                context.cancelRequest(withError: error)
            }
        }
    }
}

ExtensionProcess.run(ShareProber.init)
