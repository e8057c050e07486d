public import Foundation
package import PropertyLists
import SharingSystem

/// An app extension's Info.plist, read into the `NSExtension` keys that decide what the extension is and
/// when the system offers it.
///
/// Reading is tolerant: a value of the wrong type reads as absent here, and `ManifestLinter` reports it.
public struct ExtensionManifest: Sendable {
    /// The file it was read from, when it was.
    public let path: String?
    /// The whole property list, with positions, for the linter.
    package let root: PropertyListNode
    /// The document's bytes, to place characters of a predicate string at their line and column.
    let source: Data

    /// Reads an Info.plist (XML or binary), or the Info.plist of an `.appex` or other bundle directory.
    ///
    /// - Throws: `ManifestError` when there is no property list, or it does not read.
    public static func read(contentsOf url: URL) throws(ManifestError) -> ExtensionManifest {
        var file = url
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.relativePath, isDirectory: &isDirectory), isDirectory.boolValue {
            let candidates = [url.appendingPathComponent("Info.plist"), url.appendingPathComponent("Contents/Info.plist")]
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw ManifestError(.noInfoPlist, path: url.relativePath, message: "a bundle without Info.plist or Contents/Info.plist")
            }
            file = found
        }
        let data: Data
        do {
            data = try OpenFile.reading(file).readAll(limit: maximumSize)
        } catch {
            if case .limitExceeded = error.code {
                throw ManifestError(.unreadable, path: file.relativePath, message: "larger than \(maximumSize >> 20) MiB: not an Info.plist")
            }
            if case .system(let number) = error.code {
                throw ManifestError(.unreadable, path: file.relativePath, message: "cannot read the file: \(number)")
            }
            throw ManifestError(.unreadable, path: file.relativePath, message: "cannot read the file: \(error)")
        }
        return try ExtensionManifest(data: data, path: file.relativePath)
    }

    /// The most bytes read from a file; real Info.plists are a few kilobytes.
    static let maximumSize = 8 << 20

    /// Reads an Info.plist's bytes.
    public init(data: Data, path: String? = nil) throws(ManifestError) {
        do {
            root = try PropertyList.read(data)
        } catch {
            throw ManifestError(.notAPropertyList, path: path, message: "not a property list: \(error.message)", line: error.location?.line, column: error.location?.column)
        }
        self.path = path
        self.source = data
    }

    var topLevel: PropertyListDictionary? { root.dictionary }
    var extensionDictionary: PropertyListDictionary? { topLevel?["NSExtension"]?.dictionary }
    var attributes: PropertyListDictionary? { extensionDictionary?["NSExtensionAttributes"]?.dictionary }

    public var bundleIdentifier: String? { topLevel?["CFBundleIdentifier"]?.string }
    /// `CFBundleExecutable`: the program's name in the bundle.
    public var executableName: String? { topLevel?["CFBundleExecutable"]?.string }
    public var displayName: String? { topLevel?["CFBundleDisplayName"]?.string ?? topLevel?["CFBundleName"]?.string }

    /// `NSExtensionPointIdentifier`.
    public var extensionPointIdentifier: String? { extensionDictionary?["NSExtensionPointIdentifier"]?.string }

    /// The extension point, when OpenSharing knows it.
    public var extensionPoint: ExtensionPoint? { extensionPointIdentifier.flatMap(ExtensionPoint.named) }

    public var principalClass: String? { extensionDictionary?["NSExtensionPrincipalClass"]?.string }
    public var mainStoryboard: String? { extensionDictionary?["NSExtensionMainStoryboard"]?.string }
    public var javaScriptPreprocessingFile: String? { attributes?["NSExtensionJavaScriptPreprocessingFile"]?.string }

    /// The platform the Info.plist is for, from the keys only one platform uses; `nil` when it does not say.
    public var platform: ManifestPlatform? {
        guard let top = topLevel else { return nil }
        if top["LSMinimumSystemVersion"] != nil { return .macOS }
        if ["MinimumOSVersion", "UIDeviceFamily", "UIRequiredDeviceCapabilities", "LSRequiresIPhoneOS"].contains(where: { top[$0] != nil }) {
            return .iOS
        }
        return nil
    }

    /// `NSExtensionActivationRule`, as a predicate string or a dictionary of counts.
    public var activationRule: ActivationRule? {
        guard let node = attributes?["NSExtensionActivationRule"] else { return nil }
        if let predicate = node.string { return .predicate(predicate) }
        guard let rule = node.dictionary else { return nil }
        func count(_ key: String) -> Int? { rule[key].flatMap(Self.integer) }
        return .dictionary(ActivationDictionary(
            attachmentsMaxCount: count("NSExtensionActivationSupportsAttachmentsWithMaxCount"),
            attachmentsMinCount: count("NSExtensionActivationSupportsAttachmentsWithMinCount"),
            fileMaxCount: count("NSExtensionActivationSupportsFileWithMaxCount"),
            imageMaxCount: count("NSExtensionActivationSupportsImageWithMaxCount"),
            movieMaxCount: count("NSExtensionActivationSupportsMovieWithMaxCount"),
            supportsText: rule["NSExtensionActivationSupportsText"].flatMap(Self.integer).map { $0 != 0 } ?? false,
            webURLMaxCount: count("NSExtensionActivationSupportsWebURLWithMaxCount"),
            webPageMaxCount: count("NSExtensionActivationSupportsWebPageWithMaxCount"),
            // Apple's reference places the version in NSExtensionAttributes; shipping extensions put it in the
            // rule. Either is read, the rule's first.
            version: count("NSExtensionActivationDictionaryVersion") ?? attributes?["NSExtensionActivationDictionaryVersion"].flatMap(Self.integer) ?? 1,
            usesStrictMatching: rule["NSExtensionActivationUsesStrictMatching"].flatMap(Self.integer).map { $0 != 0 }))
    }

    /// The type identifiers the Info.plist itself declares (exported or imported).
    public var declaredTypeIdentifiers: Set<String> {
        var identifiers: Set<String> = []
        for key in ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"] {
            for declaration in topLevel?[key]?.array ?? [] {
                if let identifier = declaration.dictionary?["UTTypeIdentifier"]?.string { identifiers.insert(identifier.lowercased()) }
            }
        }
        return identifiers
    }

    /// A number the way Core Foundation reads one for these keys: an integer, a boolean (YES is 1), or a
    /// string of digits.
    static func integer(_ node: PropertyListNode) -> Int? {
        switch node.value {
        case .integer(let value): Int(exactly: value)
        case .boolean(let value): value ? 1 : 0
        case .string(let value): Int(value.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}

/// Why an Info.plist could not be read.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Sendable, Equatable {
        /// A bundle directory without an Info.plist.
        case noInfoPlist
        /// The file cannot be read, or is too large to be one.
        case unreadable
        /// The bytes are not a property list.
        case notAPropertyList
    }

    public var code: Code
    public var path: String?
    public var message: String
    public var line: Int?
    public var column: Int?

    public init(_ code: Code, path: String?, message: String, line: Int? = nil, column: Int? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        [path, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":") + ": " + message
    }
}
