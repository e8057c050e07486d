public import Foundation
import OpenUniformTypeIdentifiers

// The conformances CoreTransferable ships for Foundation's types. Apple documents the types these travel as only
// by example (text as plain text, data as data, a URL as a URL); the choices here are listed in
// docs/item-providers.md.

extension String: Transferable {
    /// UTF-8 plain text out; in from any plain text, read as UTF-8.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .utf8PlainText) { Data($0.utf8) } importing: { try decodedText($0) }
        DataRepresentation(importedContentType: .plainText) { try decodedText($0) }
    }

    private static func decodedText(_ data: Data) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            throw CocoaError(.fileReadInapplicableStringEncoding, userInfo: [
                NSLocalizedDescriptionKey: "the text is not UTF-8 (\(data.count) bytes); send it as UTF-8 plain text",
            ])
        }
        return text
    }
}

extension Data: Transferable {
    /// The bytes as they are, as `public.data`.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .data) { $0 } importing: { $0 }
    }
}

extension URL: Transferable {
    /// The URL's absolute string, as `public.url`.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .url) { Data($0.absoluteString.utf8) } importing: { data in
            guard let text = String(data: data, encoding: .utf8), let url = URL(string: text) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [
                    NSLocalizedDescriptionKey: "the data is not a URL (\(data.count) bytes of public.url)",
                ])
            }
            return url
        }
    }
}
