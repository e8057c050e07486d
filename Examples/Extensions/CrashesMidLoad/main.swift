// For tests: an extension that asks the host for its first attachment's data and crashes while the load is
// in flight, with a fatal error, as Swift code stops on a device: its message and backtrace are its last words.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class CrashesMidLoad: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first, let type = provider.registeredTypeIdentifiers.first else {
            return context.completeRequest(returningItems: nil)
        }
        provider.loadDataRepresentation(forTypeIdentifier: type) { _, _ in }
        fatalError("crashed with a load of \(type) in flight")
    }
}

ExtensionProcess.run(CrashesMidLoad.init)
