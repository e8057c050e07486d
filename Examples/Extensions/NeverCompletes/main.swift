// For tests: an extension that takes the request and never ends it.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class NeverCompletes: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {}
}

ExtensionProcess.run(NeverCompletes.init)
