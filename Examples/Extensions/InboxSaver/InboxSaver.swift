// What ImageSaver and FileSaver share: a share extension whose principal takes the shared attachments of the
// types it accepts (up to 10) into the app group's inbox through ShareIntake, as an iOS share extension does.
public import Foundation
public import OpenItemProvider
import ShareInbox
import ShareIntake
public import SharingShim

open class InboxSaver: NSObject, NSExtensionRequestHandling {
    /// The app group the extension shares with its app; the host assigns its container.
    public static let appGroup = "group.org.opensharing.examples"

    private let acceptedTypes: [UTType]
    private let previewSizes: [Int]

    public init(acceptedTypes: [UTType], previewSizes: [Int]) {
        self.acceptedTypes = acceptedTypes
        self.previewSizes = previewSizes
    }

    public func beginRequest(with context: NSExtensionContext) {
        let policy = IntakePolicy(acceptedTypes: acceptedTypes, maximumCount: 10, previewSizes: previewSizes)
        Task { await InboxSaver.save(context, policy: policy) }
    }

    /// Ends the request: completed once every attachment is in the inbox, or cancelled with why not.
    static func save(_ context: NSExtensionContext, policy: IntakePolicy) async {
        let inbox: ShareInbox
        let intake: ShareIntake
        do {
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
                throw NSError(domain: NSCocoaErrorDomain, code: NSFileNoSuchFileError,
                              userInfo: [NSLocalizedDescriptionKey: "The host gave no container for \(appGroup)."])
            }
            inbox = try ShareInbox(at: container.appendingPathComponent("Inbox"))
            intake = try ShareIntake(policy: policy)
        } catch {
            return context.cancelRequest(withError: error)
        }
        _ = try? await intake.receive(from: context, into: inbox)
    }
}
