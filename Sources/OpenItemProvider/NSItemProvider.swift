public import Foundation
public import OpenUniformTypeIdentifiers
import SharingSystem

/// A promise of one item, offered in several representations in order of fidelity, and loaded later,
/// asynchronously, as data, as a copy of a file, or as a file opened in place.
///
/// Stands in for Foundation's `NSItemProvider`, with its semantics: any way of providing bridges to any
/// way of consuming (see `NSItemProvider+Loading.swift` for the matrix), temporary files live until the
/// completion handler returns, every load returns a cancellable `Progress`.
///
/// OpenSharing makes explicit what Apple's system decides for you: who registered the representations
/// (`origin`) and who loads them (`consumer`), for visibility; and when a file may be opened in place
/// (`openInPlaceEligibility`).
open class NSItemProvider: NSObject, NSCopying {
    /// Where a representation's bytes come from.
    // @unchecked: it holds registered objects and loaders Apple's API does not mark Sendable, only read under the provider's lock.
    enum Source: @unchecked Sendable {
        case data(DataLoader)
        case file(openInPlace: Bool, FileLoader)
        /// An object registered with `registerObject(_:visibility:)`; it writes its own data.
        case object(any NSItemProviderWriting)
        /// A class registered with `registerObject(ofClass:visibility:loadHandler:)`; the handler makes the object.
        case objectClass(ObjectLoader)
        /// An item registered with the legacy `registerItem(forTypeIdentifier:loadHandler:)`.
        case item(LoadHandler)
    }

    typealias DataLoader = @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    typealias FileLoader = @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    typealias ObjectLoader = @Sendable (@escaping @Sendable ((any NSItemProviderWriting)?, (any Error)?) -> Void) -> Progress?

    // @unchecked: it holds a Source (above).
    struct Representation: @unchecked Sendable {
        var typeIdentifier: String
        var type: UTType
        var visibility: NSItemProviderRepresentationVisibility
        var source: Source

        var isOpenInPlace: Bool {
            if case .file(true, _) = source { return true }
            return false
        }
    }

    // @unchecked: it holds Representations (above) and a preview handler, only touched under the provider's lock.
    private struct State: @unchecked Sendable {
        var representations: [Representation] = []
        var suggestedName: String?
        var previewImageHandler: LoadHandler?
        var origin = Party.currentProcess
        var consumer = Party.currentProcess
        var openInPlaceEligibility: @Sendable (URL) -> Bool = NSItemProvider.defaultOpenInPlaceEligibility
        var temporaryDirectory: URL?
        var loadersReturnAtOnce = false
        var readsItemFiles = true
        var work: WorkInProgress?
    }

    // An NSLock (a pthread mutex), which the thread sanitizer understands; it does not see Synchronization's
    // futex-based Mutex on Linux.
    private let lock = NSLock()
    private var unsafeState = State()

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { body(&unsafeState) }
    }

    /// Creates a provider with no representations.
    public override init() {
        super.init()
    }

    /// A provider with the same representations, name, parties and handlers.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSItemProvider()
        let snapshot = withState { $0 }
        copy.withState { $0 = snapshot }
        return copy
    }

    // MARK: Registered representations

    /// Adds a representation; one already registered under the same identifier is replaced where it stands.
    func register(typeIdentifier: String, visibility: NSItemProviderRepresentationVisibility, source: Source) {
        let type = UTType(typeIdentifier) ?? UTType(importedAs: typeIdentifier)
        let representation = Representation(typeIdentifier: typeIdentifier, type: type, visibility: visibility, source: source)
        withState { state in
            if let index = state.representations.firstIndex(where: { $0.type == type }) {
                state.representations[index] = representation
            } else {
                state.representations.append(representation)
            }
        }
    }

    /// The representations the consumer may see, in fidelity order.
    var visibleRepresentations: [Representation] {
        withState { state in
            state.representations.filter { Self.isVisible($0.visibility, origin: state.origin, consumer: state.consumer) }
        }
    }

    /// The first visible representation whose type conforms to `type`, optionally only open-in-place ones.
    func representation(conformingTo type: UTType, openInPlaceOnly: Bool = false) -> Representation? {
        visibleRepresentations.first { $0.type.conforms(to: type) && (!openInPlaceOnly || $0.isOpenInPlace) }
    }

    /// The identifiers of the visible representations, in fidelity order.
    ///
    /// Stands in for `NSItemProvider.registeredTypeIdentifiers`.
    open var registeredTypeIdentifiers: [String] {
        visibleRepresentations.map(\.typeIdentifier)
    }

    /// The identifiers of the visible representations that can be consumed with these options
    /// (`.openInPlace`: only files registered as openable in place).
    ///
    /// Stands in for `NSItemProvider.registeredTypeIdentifiers(fileOptions:)`.
    open func registeredTypeIdentifiers(fileOptions: NSItemProviderFileOptions = []) -> [String] {
        visibleRepresentations.filter { !fileOptions.contains(.openInPlace) || $0.isOpenInPlace }.map(\.typeIdentifier)
    }

    /// Whether a visible representation conforms to the type.
    ///
    /// Stands in for `NSItemProvider.hasItemConformingToTypeIdentifier(_:)`.
    open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        representation(conformingTo: Self.type(for: typeIdentifier)) != nil
    }

    /// Whether a visible representation conforms to the type and can be consumed with these options.
    ///
    /// Stands in for `NSItemProvider.hasRepresentationConforming(toTypeIdentifier:fileOptions:)`.
    open func hasRepresentationConforming(toTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = []) -> Bool {
        representation(conformingTo: Self.type(for: typeIdentifier), openInPlaceOnly: fileOptions.contains(.openInPlace)) != nil
    }

    /// The types of the visible representations, in fidelity order.
    ///
    /// Stands in for `NSItemProvider.registeredContentTypes`.
    public var registeredContentTypes: [UTType] {
        visibleRepresentations.map(\.type)
    }

    /// The types of the visible representations registered as openable in place.
    ///
    /// Stands in for `NSItemProvider.registeredContentTypesForOpenInPlace`.
    public var registeredContentTypesForOpenInPlace: [UTType] {
        visibleRepresentations.filter(\.isOpenInPlace).map(\.type)
    }

    /// The types of the visible representations that conform to `contentType`, in fidelity order.
    ///
    /// Stands in for `NSItemProvider.registeredContentTypes(conformingTo:)`.
    public func registeredContentTypes(conformingTo contentType: UTType) -> [UTType] {
        registeredContentTypes.filter { $0.conforms(to: contentType) }
    }

    /// A name for the item, used for the files a load makes (sanitized first: it is the sender's).
    ///
    /// Stands in for `NSItemProvider.suggestedName`.
    open var suggestedName: String? {
        get { withState { $0.suggestedName } }
        set { withState { $0.suggestedName = newValue } }
    }

    /// Produces a preview image on request, for `loadPreviewImage(options:completionHandler:)`.
    ///
    /// Stands in for `NSItemProvider.previewImageHandler`.
    open var previewImageHandler: LoadHandler? {
        get { withState { $0.previewImageHandler } }
        set { withState { $0.previewImageHandler = newValue } }
    }

    static func type(for identifier: String) -> UTType {
        UTType(identifier) ?? UTType(importedAs: identifier)
    }

    /// "public.png, public.url" — what the consumer can see, for error messages.
    var availableTypesDescription: String {
        let identifiers = registeredTypeIdentifiers
        return identifiers.isEmpty ? "no representations" : identifiers.joined(separator: ", ")
    }

    // MARK: The overridable API
    //
    // Apple's methods are overridable; on Linux only methods in the class body are, so here they are,
    // each forwarding to its implementation in the file of its concern.

    /// Offers a representation as data, produced by `loadHandler` when a consumer asks for it.
    ///
    /// The handler calls its completion once, with the data or an error, from any thread, and may return
    /// a `Progress` that a consumer's cancellation reaches. Stands in for
    /// `NSItemProvider.registerDataRepresentation(forTypeIdentifier:visibility:loadHandler:)`.
    @preconcurrency open func registerDataRepresentation(
        forTypeIdentifier typeIdentifier: String, visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        registerDataRepresentationImplementation(forTypeIdentifier: typeIdentifier, visibility: visibility, loadHandler: loadHandler)
    }

    /// Offers a representation as a file, produced by `loadHandler`: its URL, whether it needs coordination
    /// (not used here), or an error. The file need only exist until the completion returns.
    ///
    /// Stands in for `NSItemProvider.registerFileRepresentation(forTypeIdentifier:fileOptions:visibility:loadHandler:)`.
    @preconcurrency open func registerFileRepresentation(
        forTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = [],
        visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        registerFileRepresentationImplementation(forTypeIdentifier: typeIdentifier, fileOptions: fileOptions,
                                                 visibility: visibility, loadHandler: loadHandler)
    }

    /// Offers an object in every type it can write, highest fidelity first; each type's visibility is the
    /// one the object gives, narrowed by `visibility`.
    ///
    /// Stands in for `NSItemProvider.registerObject(_:visibility:)`.
    open func registerObject(_ object: any NSItemProviderWriting, visibility: NSItemProviderRepresentationVisibility) {
        registerObjectImplementation(object, visibility: visibility)
    }

    /// Offers the types a class can write, the object made later by `loadHandler`.
    ///
    /// Stands in for `NSItemProvider.registerObject(ofClass:visibility:loadHandler:)`.
    @preconcurrency open func registerObject(
        ofClass aClass: any NSItemProviderWriting.Type, visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable ((any NSItemProviderWriting)?, (any Error)?) -> Void) -> Progress?
    ) {
        registerObjectImplementation(ofClass: aClass, visibility: visibility, loadHandler: loadHandler)
    }

    /// Offers an item under a type identifier, produced by `loadHandler` when a consumer asks.
    ///
    /// Stands in for `NSItemProvider.registerItem(forTypeIdentifier:loadHandler:)`.
    @preconcurrency open func registerItem(forTypeIdentifier typeIdentifier: String, loadHandler: @escaping NSItemProvider.LoadHandler) {
        registerItemImplementation(forTypeIdentifier: typeIdentifier, loadHandler: loadHandler)
    }

    /// Loads the first visible representation conforming to the type, as data.
    ///
    /// Stands in for `NSItemProvider.loadDataRepresentation(forTypeIdentifier:completionHandler:)`.
    @discardableResult
    @preconcurrency open func loadDataRepresentation(forTypeIdentifier typeIdentifier: String,
                                     completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        loadDataRepresentationImplementation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    /// Loads the first visible representation conforming to the type as a file of the consumer's own,
    /// removed when `completionHandler` returns.
    ///
    /// Stands in for `NSItemProvider.loadFileRepresentation(forTypeIdentifier:completionHandler:)`.
    @discardableResult
    @preconcurrency open func loadFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                     completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void) -> Progress {
        loadFileRepresentationImplementation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    /// Loads the first visible representation conforming to the type as a file, opened in place when it
    /// was registered so and is eligible (`openInPlaceEligibility`), else as a copy.
    ///
    /// Stands in for `NSItemProvider.loadInPlaceFileRepresentation(forTypeIdentifier:completionHandler:)`.
    @discardableResult
    @preconcurrency open func loadInPlaceFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                            completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        loadInPlaceFileRepresentationImplementation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    /// Whether a visible representation conforms to a type the class can read.
    ///
    /// Stands in for `NSItemProvider.canLoadObject(ofClass:)`.
    open func canLoadObject(ofClass aClass: any NSItemProviderReading.Type) -> Bool {
        canLoadObjectImplementation(ofClass: aClass)
    }

    /// Loads the highest-fidelity representation the class can read, as data, and makes an instance from it.
    ///
    /// Stands in for `NSItemProvider.loadObject(ofClass:completionHandler:)`.
    @discardableResult
    @preconcurrency open func loadObject(ofClass aClass: any NSItemProviderReading.Type,
                         completionHandler: @escaping @Sendable ((any NSItemProviderReading)?, (any Error)?) -> Void) -> Progress {
        loadObjectImplementation(ofClass: aClass, completionHandler: completionHandler)
    }

    /// Loads the item of the first visible representation conforming to the type, as registered: a legacy
    /// item as it is; data as `NSData`; a file as the `NSURL` its loader gives (valid until the handler
    /// returns); an object as itself.
    ///
    /// Stands in for `NSItemProvider.loadItem(forTypeIdentifier:options:completionHandler:)`.
    @preconcurrency open func loadItem(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
                       completionHandler: (@Sendable ((any NSSecureCoding)?, (any Error)?) -> Void)? = nil) {
        loadItemImplementation(forTypeIdentifier: typeIdentifier, options: options, completionHandler: completionHandler)
    }

    /// Asks `previewImageHandler` for a preview image; without one, an item-unavailable error.
    ///
    /// Stands in for `NSItemProvider.loadPreviewImage(options:completionHandler:)`.
    @preconcurrency open func loadPreviewImage(options: [AnyHashable: Any]! = [:],
                                               completionHandler: (@Sendable ((any NSSecureCoding)?, (any Error)?) -> Void)!) {
        loadPreviewImageImplementation(options: options, completionHandler: completionHandler)
    }

    // MARK: Parties and policy (OpenSharing)

    /// A process on one side of a provider, for representation visibility.
    ///
    /// An OpenSharing addition: on Apple platforms the system knows who registered and who loads.
    public struct Party: Sendable, Hashable {
        /// The process.
        public var processIdentifier: Int32
        /// The development team of the process's app, if known (`.team` visibility).
        public var teamIdentifier: String?
        /// The app groups the process's app belongs to (`.group` visibility).
        public var applicationGroups: Set<String>

        public init(processIdentifier: Int32, teamIdentifier: String? = nil, applicationGroups: Set<String> = []) {
            self.processIdentifier = processIdentifier
            self.teamIdentifier = teamIdentifier
            self.applicationGroups = applicationGroups
        }

        /// This process, with no team and no groups.
        public static var currentProcess: Party {
            Party(processIdentifier: ProcessInfo.processInfo.processIdentifier)
        }
    }

    /// Who registered the representations. Defaults to this process.
    public var origin: Party {
        get { withState { $0.origin } }
        set { withState { $0.origin = newValue } }
    }

    /// Who loads the representations: what it may see follows from the visibility each was registered
    /// with. Defaults to this process, which sees everything; a host handing items to an extension sets
    /// the extension here.
    public var consumer: Party {
        get { withState { $0.consumer } }
        set { withState { $0.consumer = newValue } }
    }

    /// Decides whether a file registered as openable in place may be handed over where it is; otherwise
    /// the consumer gets a copy and `openInPlace == false`, as on Apple platforms (where only iCloud and
    /// File Provider files qualify). Defaults to `defaultOpenInPlaceEligibility`.
    public var openInPlaceEligibility: @Sendable (URL) -> Bool {
        get { withState { $0.openInPlaceEligibility } }
        set { withState { $0.openInPlaceEligibility = newValue } }
    }

    /// Where loads put the files they make for the consumer (each in a directory of its own, removed when
    /// the completion handler returns); `nil`, the default, is the system's temporary directory. A consumer
    /// that keeps the files puts them on the file system they will end up on, so keeping one is a rename.
    public var temporaryDirectory: URL? {
        get { withState { $0.temporaryDirectory } }
        set { withState { $0.temporaryDirectory = newValue } }
    }

    /// Whether every loader registered here only asks another process and returns, its answer coming later on
    /// another thread (a provider mirroring another process's): loads then start on the caller's thread,
    /// without the hop to a background thread that a loader which may block needs.
    package var loadersReturnAtOnce: Bool {
        get { withState { $0.loadersReturnAtOnce } }
        set { withState { $0.loadersReturnAtOnce = newValue } }
    }

    /// Whether a legacy item that is a file URL is read as that file when loaded as data or a file; `false` for
    /// items another process returned, whose file URLs name its files, which this process must not read.
    package var readsItemFiles: Bool {
        get { withState { $0.readsItemFiles } }
        set { withState { $0.readsItemFiles = newValue } }
    }

    /// The request whose input this provider is: its loads are that request's work in progress.
    package var work: WorkInProgress? {
        get { withState { $0.work } }
        set { withState { $0.work = newValue } }
    }

    /// Runs `start`, which calls a registered loader: on a background thread, as Apple's loaders run, unless
    /// the loaders return at once.
    func startLoad(_ start: @escaping @Sendable () -> Void) {
        if loadersReturnAtOnce { start() } else { BlockingThreads.submit(start) }
    }

    /// A regular file the consumer can read may be opened in place.
    public static let defaultOpenInPlaceEligibility: @Sendable (URL) -> Bool = { url in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue && FileManager.default.isReadableFile(atPath: url.path)
    }

    static func isVisible(_ visibility: NSItemProviderRepresentationVisibility, origin: Party, consumer: Party) -> Bool {
        if origin.processIdentifier == consumer.processIdentifier { return true }
        switch visibility {
        case .all: return true
        case .team: return origin.teamIdentifier != nil && origin.teamIdentifier == consumer.teamIdentifier
        case .group: return !origin.applicationGroups.isDisjoint(with: consumer.applicationGroups)
        case .ownProcess: return false
        }
    }
}

// @unchecked: Apple's SDK declares NSItemProvider Sendable; its state is under a lock.
extension NSItemProvider: @unchecked Sendable {}
