public import Foundation
import PackageSupport
import SharingSystem

/// The first-generation API, which real extension code still calls. In Swift it hands over whatever
/// object was registered — a URL, data, a string — without coercing it to what the caller hoped for.
extension NSItemProvider {
    /// Receives a legacy item or an error. Stands in for `NSItemProvider.CompletionHandler`, and is, like
    /// Apple's, not `@Sendable`: a closure of this type written in a main-actor view controller may call the
    /// controller's methods, as extension code does.
    public typealias CompletionHandler = ((any NSSecureCoding)?, (any Error)?) -> Void

    /// What the loading methods take: the handler is called on the provider's threads.
    typealias ItemHandler = @Sendable ((any NSSecureCoding)?, (any Error)?) -> Void

    /// Produces a legacy item on request: call the completion handler once; the class and options are
    /// those of the request. Stands in for `NSItemProvider.LoadHandler`.
    public typealias LoadHandler = @Sendable (NSItemProvider.CompletionHandler?, AnyClass?, [AnyHashable: Any]?) -> Void

    /// Creates a provider of one item under one type identifier; with either `nil`, an empty provider.
    ///
    /// Stands in for `NSItemProvider.init(item:typeIdentifier:)`.
    public convenience init(item: (any NSSecureCoding)?, typeIdentifier: String?) {
        self.init()
        if let item, let typeIdentifier {
            let box = UncheckedBox(item)
            registerItem(forTypeIdentifier: typeIdentifier) { completion, _, _ in completion?(box.value, nil) }
        }
    }

    /// Creates a provider of a file, its type from its extension; `nil` when the URL is not a file that exists.
    ///
    /// Stands in for `NSItemProvider.init?(contentsOf:)`.
    public convenience init?(contentsOf fileURL: URL!) {
        guard let fileURL, fileURL.isFileURL, FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        self.init(contentsOf: fileURL, contentType: nil)
    }

    func registerItemImplementation(forTypeIdentifier typeIdentifier: String, loadHandler: @escaping NSItemProvider.LoadHandler) {
        register(typeIdentifier: typeIdentifier, visibility: .all, source: .item(loadHandler))
    }

    func loadItemImplementation(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
                       completionHandler: ItemHandler? = nil) {
        let type = Self.type(for: typeIdentifier)
        let once = Once(completionHandler, work: work)
        guard let representation = representation(conformingTo: type) else {
            let error = Self.error(.itemUnavailableError, "No item conforms to \(typeIdentifier); the item provider has \(availableTypesDescription).")
            BlockingThreads.submit { once.call(nil, error) }
            return
        }
        let options = UncheckedBox(options)
        startLoad {
            switch representation.source {
            case .item(let handler):
                handler({ item, error in once.call(item, error) }, nil, options.value)
            case .data(let loader):
                _ = loader { data, error in once.call(data.map { NSData(data: $0) }, error) }
            case .file(_, let loader):
                _ = loader { url, _, error in once.call(url.map { $0 as NSURL }, error) }
            case .object(let object):
                Self.deliverItem(of: object, typeIdentifier: representation.typeIdentifier, to: once)
            case .objectClass(let loader):
                _ = loader { object, error in
                    guard let object else { return once.call(nil, error) }
                    Self.deliverItem(of: object, typeIdentifier: representation.typeIdentifier, to: once)
                }
            }
        }
    }

    /// An object that is itself an item is handed over; another gives its data.
    private static func deliverItem(of object: any NSItemProviderWriting, typeIdentifier: String, to once: Once) {
        if let item = object as? any NSSecureCoding { return once.call(item, nil) }
        _ = object.loadData(withTypeIdentifier: typeIdentifier) { data, error in once.call(data.map { NSData(data: $0) }, error) }
    }

    func loadPreviewImageImplementation(options: [AnyHashable: Any]! = [:], completionHandler: ItemHandler!) {
        let once = Once(completionHandler, work: work)
        guard let handler = previewImageHandler else {
            BlockingThreads.submit {
                once.call(nil, Self.error(.itemUnavailableError, "The item provider has no preview image handler."))
            }
            return
        }
        let options = UncheckedBox(options)
        BlockingThreads.submit {
            handler({ item, error in once.call(item, error) }, nil, options.value)
        }
    }

    /// Async form of `loadItem(forTypeIdentifier:options:completionHandler:)`, as Swift imports it.
    public func loadItem(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil) async throws -> any NSSecureCoding {
        let options = UncheckedBox(options)
        let box: UncheckedBox<any NSSecureCoding> = try await withCheckedThrowingContinuation { continuation in
            loadItem(forTypeIdentifier: typeIdentifier, options: options.value) { item, error in
                Self.resume(continuation, item, error)
            }
        }
        return box.value
    }

    /// Async form of `loadPreviewImage(options:completionHandler:)`, as Swift imports it.
    public func loadPreviewImage(options: [AnyHashable: Any]! = [:]) async throws -> any NSSecureCoding {
        let options = UncheckedBox(options)
        let box: UncheckedBox<any NSSecureCoding> = try await withCheckedThrowingContinuation { continuation in
            loadPreviewImage(options: options.value) { item, error in
                Self.resume(continuation, item, error)
            }
        }
        return box.value
    }

    private static func resume(_ continuation: CheckedContinuation<UncheckedBox<any NSSecureCoding>, any Error>,
                               _ item: (any NSSecureCoding)?, _ error: (any Error)?) {
        if let item {
            continuation.resume(returning: UncheckedBox(item))
        } else {
            continuation.resume(throwing: error ?? Self.error(.unknownError, "The load gave neither an item nor an error."))
        }
    }
}

/// A completion handler that runs at most once, whatever a misbehaving loader does: the first answer wins.
struct Once: Sendable {
    /// A legacy item and an error, as a loader hands them over.
    private let answer: ReplyBox<UncheckedBox<(item: (any NSSecureCoding)?, error: (any Error)?)>>

    /// The request's work from now until `handler` has returned.
    init(_ handler: NSItemProvider.ItemHandler?, work: WorkInProgress?) {
        work?.begin()
        answer = ReplyBox { answer in
            handler?(answer.value.item, answer.value.error)
            work?.end()
        }
    }

    func call(_ item: (any NSSecureCoding)?, _ error: (any Error)?) {
        answer.resolve(UncheckedBox((item, error)))
    }
}
