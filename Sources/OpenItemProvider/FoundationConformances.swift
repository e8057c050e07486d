public import Foundation
import PropertyLists

// The Foundation classes Apple makes item-provider objects, with the types Apple gives them, so that
// `loadObject(ofClass: String.self)` and `NSItemProvider(object: url as NSURL)` work as on Apple platforms.

extension NSString: NSItemProviderReading, NSItemProviderWriting {
    /// UTF-8 plain text.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.utf8-plain-text"] }

    /// Any plain text: UTF-8, or UTF-16 for the UTF-16 types.
    public static var readableTypeIdentifiersForItemProvider: [String] { ["public.plain-text"] }

    @preconcurrency public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        completionHandler(Data((self as String).utf8), nil)
        return nil
    }

    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        let utf16 = typeIdentifier.lowercased().hasPrefix("public.utf16")
        guard let text = utf16 ? decodeUTF16(data) : String(validating: data, as: UTF8.self) else {
            throw NSItemProvider.error(.unexpectedValueClassError, "The \(typeIdentifier) data is not \(utf16 ? "UTF-16" : "UTF-8") text.")
        }
        return unsafeDowncast(NSString(string: text), to: self)
    }

    private static func decodeUTF16(_ data: Data) -> String? {
        guard data.count % 2 == 0 else { return nil }
        let bytes = [UInt8](data)
        // A byte-order mark says which; without one, big-endian (public.utf16-external-plain-text's rule).
        let littleEndian = bytes.starts(with: [0xFF, 0xFE])
        let start = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) ? 2 : 0
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = start
        while i + 1 < bytes.count {
            units.append(littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        return String(validating: units, as: UTF16.self)
    }
}

extension NSURL: NSItemProviderReading, NSItemProviderWriting {
    /// A URL, a file URL for files, and the URL as plain text.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.url", "public.utf8-plain-text"] }

    public var writableTypeIdentifiersForItemProvider: [String] {
        isFileURL ? ["public.file-url", "public.url", "public.utf8-plain-text"] : Self.writableTypeIdentifiersForItemProvider
    }

    /// Any URL.
    public static var readableTypeIdentifiersForItemProvider: [String] { ["public.url"] }

    /// The URL's absolute string in UTF-8 (its `dataRepresentation`), for every type.
    @preconcurrency public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        completionHandler(Data(absoluteString.utf8), nil)
        return nil
    }

    /// A URL from its UTF-8 text or from a property list wrapping it (a string, or an array whose first
    /// element is the string, as some hosts send `public.url`).
    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        var text = String(validating: data, as: UTF8.self)
        if let node = try? PropertyList.read(data) {
            text = node.string ?? node.array?.first?.string
        }
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
              let url = NSURL(string: text), url.scheme != nil
        else {
            throw NSItemProvider.error(.unexpectedValueClassError, "The \(typeIdentifier) data holds no URL.")
        }
        return unsafeDowncast(url, to: self)
    }
}

extension NSAttributedString: NSItemProviderReading, NSItemProviderWriting {
    /// Plain text: RTF needs a writer Foundation has no portable form of (docs/remaining-apple-api.md).
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.utf8-plain-text"] }

    /// Any plain text.
    public static var readableTypeIdentifiersForItemProvider: [String] { ["public.plain-text"] }

    @preconcurrency public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        completionHandler(Data(string.utf8), nil)
        return nil
    }

    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        let text = try NSString.object(withItemProviderData: data, typeIdentifier: typeIdentifier) as String
        return unsafeDowncast(NSAttributedString(string: text), to: self)
    }
}
