// A share extension for images (up to 10): each goes into the app group's inbox, with a 300-pixel preview.
import ExtensionRuntime
import Foundation
import OpenItemProvider
import ShareInbox
import ShareIntake
import SharingShim

final class ImageSaver: NSObject, NSExtensionRequestHandling {
    /// The app group the extension shares with its app; the host assigns its container.
    static let appGroup = "group.org.opensharing.examples"

    func beginRequest(with context: NSExtensionContext) {
        Task { await ImageSaver.save(context) }
    }

    /// Ends the request: completed once every attachment is in the inbox, or cancelled with why not.
    static func save(_ context: NSExtensionContext) async {
        let inbox: ShareInbox
        let intake: ShareIntake
        do {
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
                throw NSError(domain: NSCocoaErrorDomain, code: NSFileNoSuchFileError,
                              userInfo: [NSLocalizedDescriptionKey: "The host gave no container for \(appGroup)."])
            }
            inbox = try ShareInbox(at: container.appendingPathComponent("Inbox"))
            intake = try ShareIntake(policy: IntakePolicy(acceptedTypes: [.image], maximumCount: 10, previewSizes: [300]))
        } catch {
            return context.cancelRequest(withError: error)
        }
        _ = try? await intake.receive(from: context, into: inbox)
    }
}
