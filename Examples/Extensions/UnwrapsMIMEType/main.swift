// For the fuzzer's tests, a planted bug: the MIME type of each attachment's type force-unwrapped for an upload's
// Content-Type. A dynamic type (a file of an extension the system does not know) and a vague one (public.image,
// public.data) have none (monal-im/Monal#1481: no MIME type for .mkv or .patch files, and the upload crashed).
import ExtensionRuntime
import Foundation
import OpenItemProvider
import OpenUniformTypeIdentifiers

final class UnwrapsMIMEType: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        var headers: [String] = []
        for provider in providers {
            guard let type = provider.registeredTypeIdentifiers.first, let uniformType = UTType(type) else { continue }
            headers.append("Content-Type: \(uniformType.preferredMIMEType!)")
        }
        let result = NSExtensionItem()
        result.attachments = [NSItemProvider(item: headers.joined(separator: "\n") as NSString, typeIdentifier: "public.plain-text")]
        context.completeRequest(returningItems: [result], completionHandler: nil)
    }
}

ExtensionProcess.run(UnwrapsMIMEType.init)
