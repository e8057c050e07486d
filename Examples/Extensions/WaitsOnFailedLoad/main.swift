// For the fuzzer's tests, a planted bug: a load that fails returns without ending the request, so the sheet
// waits until the system gives up on it (KRA2008/crosscam#92: a share extension left "permanently spinning"
// when its load of a picture did not come back).
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class WaitsOnFailedLoad: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first, let type = provider.registeredTypeIdentifiers.first else {
            return context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                            userInfo: [NSLocalizedDescriptionKey: "Nothing to save."]))
        }
        provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
            guard let data else { return }
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: "\(data.count) bytes" as NSString, typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

ExtensionProcess.run(WaitsOnFailedLoad.init)
