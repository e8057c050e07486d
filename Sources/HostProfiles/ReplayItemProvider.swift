public import Foundation
#if os(macOS)
import AppKit
#endif
import PackageSupport
public import SharingShim

/// An item provider built from a fixture's attachment: every representation registered as the fixture
/// says, and every fault reproduced — in its loaders (failures, slowness, never calling back) and in the
/// overridden loads (failures only for some types asked, `loadItem` answers that real hosts give).
// @unchecked: an NSItemProvider (Sendable as Apple's is); its own state is immutable.
public final class ReplayItemProvider: NSItemProvider, @unchecked Sendable {
    /// The attachment this provider replays, payload paths as the fixture wrote them.
    public let attachment: ShareFixture.Attachment
    /// Where relative payload paths start.
    public let baseDirectory: URL

    /// Builds the provider; `path` is the attachment's JSON path, for errors.
    init(attachment: ShareFixture.Attachment, baseDirectory: URL, path: String) throws(ShareFixtureError) {
        self.attachment = attachment
        self.baseDirectory = baseDirectory
        super.init()
        suggestedName = attachment.suggestedName
        for (index, representation) in attachment.representations.enumerated() {
            try register(representation, path: "\(path).representations[\(index)]")
        }
        if let preview = attachment.preview {
            let object = UncheckedBox(try Self.object(for: preview, baseDirectory: baseDirectory, path: "\(path).preview"))
            previewImageHandler = { completion, _, _ in completion?(object.value, nil) }
        }
    }

    // MARK: Registration

    private func register(_ representation: ShareFixture.Representation, path: String) throws(ShareFixtureError) {
        let visibility: NSItemProviderRepresentationVisibility = switch representation.visibility ?? .all {
        case .all: .all
        case .team: .team
        case .group: .group
        case .ownProcess: .ownProcess
        }
        let fault = Self.loaderFault(representation.fault)
        switch representation.provide {
        case .data:
            let bytes = try Self.bytes(for: representation.payload, baseDirectory: baseDirectory, path: "\(path).payload")
            registerDataRepresentation(forTypeIdentifier: representation.type, visibility: visibility) { completion in
                fault.run(completion: { error in completion(nil, error) }) {
                    do { completion(try bytes(), nil) } catch { completion(nil, error) }
                }
            }
        case .file, .openInPlace, .directory:
            let url = try Self.file(for: representation, baseDirectory: baseDirectory, path: "\(path).payload")
            registerFileRepresentation(forTypeIdentifier: representation.type, fileOptions: representation.provide == .openInPlace ? .openInPlace : [],
                                       visibility: visibility) { completion in
                fault.run(completion: { error in completion(nil, false, error) }) { completion(url, false, nil) }
            }
        case .object:
            let object = try Self.object(for: representation.payload, baseDirectory: baseDirectory, path: "\(path).payload")
            guard let writer = object as? any NSItemProviderWriting else {
                throw ShareFixtureError(.invalidPayload, path: "\(path).payload", message: "this payload makes no object an item provider can register")
            }
            let objectClass = type(of: writer)
            guard objectClass.writableTypeIdentifiersForItemProvider.contains(representation.type) else {
                throw ShareFixtureError(.invalidPayload, path: "\(path).type", message: "\(objectClass) registers \(objectClass.writableTypeIdentifiersForItemProvider.joined(separator: ", ")), not \(representation.type)")
            }
            let boxed = UncheckedBox(writer)
            registerObject(ofClass: objectClass, visibility: visibility) { completion in
                fault.run(completion: { error in completion(nil, error) }) { completion(boxed.value, nil) }
            }
        case .item:
            let object = UncheckedBox(try Self.object(for: representation.payload, baseDirectory: baseDirectory, path: "\(path).payload"))
            registerItem(forTypeIdentifier: representation.type) { completion, _, _ in
                let completion = UncheckedBox(completion)
                _ = fault.run(completion: { error in completion.value?(nil, error) }) { completion.value?(object.value, nil) }
            }
        }
    }

    /// The faults a loader reproduces by itself: failing every load, being slow, never calling back.
    private struct LoaderFault: Sendable {
        var error: NSError?
        var delay: Double?
        var never = false

        func run(completion fail: @escaping @Sendable (NSError) -> Void, _ deliver: @escaping @Sendable () -> Void) -> Progress? {
            if never { return SynchronizedProgress(totalUnitCount: 1) }
            let act: @Sendable () -> Void = { if let error { fail(error) } else { deliver() } }
            if let delay {
                DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: act)
            } else {
                act()
            }
            return nil
        }
    }

    private static func loaderFault(_ fault: ShareFixture.Fault?) -> LoaderFault {
        switch fault {
        case .fails(let domain, let code, let message, nil):
            LoaderFault(error: NSError(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: message]))
        case .slow(let seconds): LoaderFault(delay: seconds)
        case .neverCompletes: LoaderFault(never: true)
        default: LoaderFault()
        }
    }

    // MARK: Payloads

    private static func resolve(_ path: String, baseDirectory: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)).standardizedFileURL
    }

    /// The bytes of a data representation, read when a consumer loads it.
    private static func bytes(for payload: ShareFixture.Payload, baseDirectory: URL, path: String) throws(ShareFixtureError) -> @Sendable () throws -> Data {
        switch payload {
        case .text(let text): return { Data(text.utf8) }
        case .base64(let data): return { data }
        case .url(let string): return { Data(string.utf8) }
        case .plist(let value):
            do {
                let data = try value.binaryPropertyList()
                return { data }
            } catch {
                throw ShareFixtureError(.invalidPayload, path: "\(path).plist", message: "not a property list: \(error)")
            }
        case .file(let file), .image(let file):
            let url = try existingFile(file, baseDirectory: baseDirectory, path: path, directory: false)
            return { try Data(contentsOf: url) }
        }
    }

    private static func file(for representation: ShareFixture.Representation, baseDirectory: URL, path: String) throws(ShareFixtureError) -> URL {
        guard let file = representation.payload.path else {
            throw ShareFixtureError(.invalidPayload, path: path, message: "a \(representation.provide.rawValue) representation takes a file payload")
        }
        return try existingFile(file, baseDirectory: baseDirectory, path: path, directory: representation.provide == .directory)
    }

    private static func existingFile(_ file: String, baseDirectory: URL, path: String, directory: Bool) throws(ShareFixtureError) -> URL {
        let url = resolve(file, baseDirectory: baseDirectory)
        if let refusal = ShareFixture.refusal(of: url) { throw ShareFixtureError(.notShared, path: path, message: refusal) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ShareFixtureError(.noSuchFile, path: path, message: "no such file: \(url.path)")
        }
        if isDirectory.boolValue != directory {
            throw ShareFixtureError(.noSuchFile, path: path, message: directory ? "\(url.path) is not a directory" : "\(url.path) is a directory (use \"provide\": \"directory\")")
        }
        return url
    }

    /// The object a payload stands for, as a host registers it: `NSString`, `NSURL`, `NSData`, a property
    /// list, an image.
    static func object(for payload: ShareFixture.Payload, baseDirectory: URL, path: String) throws(ShareFixtureError) -> any NSSecureCoding {
        switch payload {
        case .text(let text): return NSString(string: text)
        case .base64(let data): return NSData(data: data)
        case .url(let string):
            guard let url = NSURL(string: string) else { throw ShareFixtureError(.invalidPayload, path: "\(path).url", message: "not a URL") }
            return url
        case .plist(let value):
            guard let object = value.foundationObject as? any NSSecureCoding else {
                throw ShareFixtureError(.invalidPayload, path: "\(path).plist", message: "not a property-list object")
            }
            return object
        case .file(let file):
            let url = resolve(file, baseDirectory: baseDirectory)
            return url as NSURL
        case .image(let file):
            let url = try existingFile(file, baseDirectory: baseDirectory, path: "\(path).image", directory: false)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw ShareFixtureError(.noSuchFile, path: "\(path).image", message: "cannot read \(url.path): \(error.localizedDescription)")
            }
            // An image object, as UIKit's UIImage is registered by apps such as the screenshot editor.
            guard let image = HostImage(data: data) else {
                throw ShareFixtureError(.invalidPayload, path: "\(path).image", message: "\(url.path) is not an image")
            }
            return image
        }
    }

    // MARK: Faults that depend on what is asked

    /// The fault of the representation that serves a request for `typeIdentifier`, if it has one.
    private func fault(servingTypeIdentifier typeIdentifier: String) -> ShareFixture.Fault? {
        let asked = UTType(typeIdentifier) ?? UTType(importedAs: typeIdentifier)
        guard let serving = registeredTypeIdentifiers.first(where: { (UTType($0) ?? UTType(importedAs: $0)).conforms(to: asked) }) else {
            return nil
        }
        return attachment.representations.first { $0.type.lowercased() == serving.lowercased() }?.fault
    }

    /// The error for a request the fixture says fails only when asked for that type.
    private func selectiveFailure(_ typeIdentifier: String) -> NSError? {
        guard case .fails(let domain, let code, let message, let asked?)? = fault(servingTypeIdentifier: typeIdentifier),
              asked.contains(where: { $0.lowercased() == typeIdentifier.lowercased() })
        else { return nil }
        return NSError(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    private func failed(_ error: NSError, _ deliver: @escaping @Sendable () -> Void) -> Progress {
        DispatchQueue.global().async(execute: deliver)
        let progress = SynchronizedProgress(totalUnitCount: 1)
        progress.completedUnitCount = 1
        return progress
    }

    public override func loadDataRepresentation(forTypeIdentifier typeIdentifier: String,
                                                completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        if let error = selectiveFailure(typeIdentifier) { return failed(error) { completionHandler(nil, error) } }
        return super.loadDataRepresentation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    public override func loadFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                                completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void) -> Progress {
        if let error = selectiveFailure(typeIdentifier) { return failed(error) { completionHandler(nil, error) } }
        return super.loadFileRepresentation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    public override func loadInPlaceFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                                       completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        if let error = selectiveFailure(typeIdentifier) { return failed(error) { completionHandler(nil, false, error) } }
        return super.loadInPlaceFileRepresentation(forTypeIdentifier: typeIdentifier, completionHandler: completionHandler)
    }

    public override func loadItem(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
                                  completionHandler: (@Sendable ((any NSSecureCoding)?, (any Error)?) -> Void)? = nil) {
        if let error = selectiveFailure(typeIdentifier) {
            _ = failed(error) { completionHandler?(nil, error) }
            return
        }
        switch fault(servingTypeIdentifier: typeIdentifier) {
        case .unreadableURL(let path)?:
            let url = URL(fileURLWithPath: path) as NSURL
            DispatchQueue.global().async { completionHandler?(url, nil) }
        case .unexpectedClass(let payload)?:
            let object = UncheckedBox(try? Self.object(for: payload, baseDirectory: baseDirectory, path: "$"))
            DispatchQueue.global().async { completionHandler?(object.value, nil) }
        default:
            super.loadItem(forTypeIdentifier: typeIdentifier, options: options, completionHandler: completionHandler)
        }
    }
}

#if os(macOS)
/// The image class hosts share on the Mac.
typealias HostImage = NSImage
#else
/// The image class hosts share: UIKit's, or OpenSharing's stand-in for it.
typealias HostImage = UIImage
#endif

