// For the fuzzer's tests, a planted bug: an upload's multipart header built from the attachment's suggested name
// and force-encoded as ASCII, which a name outside ASCII does not survive (SenseNet/sn-client#1597: an upload
// whose file name holds non-ASCII characters, whose header the client could not build).
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class HeadsMultipartName: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        var body = Data()
        for provider in providers {
            let name = provider.suggestedName ?? "upload"
            body += "--boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\n\r\n".data(using: .ascii)!
        }
        let result = NSExtensionItem()
        result.attachments = [NSItemProvider(item: body as NSData, typeIdentifier: "public.data")]
        context.completeRequest(returningItems: [result], completionHandler: nil)
    }
}

ExtensionProcess.run(HeadsMultipartName.init)
