import ContentTypes
import SharingShim

/// What a file's first bytes say it is, by the one table of signatures (`FileSignature`), or that it is text.
///
/// A host's declared type is a claim: Messages declares `public.image` for a JPEG, a broken host declares
/// `public.jpeg` for a PDF. The intake checks the claim against the bytes, and delivers what the bytes are.
enum ContentSniffer {
    /// What sniffing found.
    enum Finding: Equatable {
        /// A format the table knows.
        case format(UTType)
        /// Text: valid UTF-8 (or UTF-16 with a byte-order mark) without NUL bytes, as far as read.
        case text
        /// No bytes at all.
        case empty
        /// Bytes the table does not know.
        case unknown
    }

    /// Bytes read from the start of a file: enough for every signature and for a fair look at text.
    static let headerSize = 4096

    static func sniff(_ bytes: [UInt8]) -> Finding {
        if bytes.isEmpty { return .empty }
        if let signature = FileSignature.identify(bytes) { return .format(signature.type) }
        return isText(bytes) ? .text : .unknown
    }

    /// UTF-16 with a byte-order mark, or UTF-8 without NULs; a character cut off at the end of what was
    /// read does not count against it.
    private static func isText(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        guard !bytes.contains(0) else { return false }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                consumed += UTF8.width(scalar)
                if scalar.value < 0x20 && !["\t", "\n", "\r", "\u{0C}"].contains(scalar) { return false }
            case .emptyInput:
                return true
            case .error:
                // Only a truncated sequence in the last three bytes is allowed.
                return bytes.count - consumed <= 3 && bytes.count == headerSize
            }
        }
    }

    /// Whether the bytes can be what was declared: what the intake should deliver the file as, or why not.
    enum Verdict: Equatable {
        /// The bytes agree with the declared type; deliver as this type (more precise when sniffing was).
        case agrees(UTType)
        /// The bytes are something else.
        case disagrees(found: UTType?, reason: String)
    }

    static func verdict(declared: UTType, finding: Finding) -> Verdict {
        // A declared type the table could recognize, or one of its subtypes, must show its signature.
        let recognizable = FileSignature.allCases.contains { declared.conforms(to: $0.type) }
        switch finding {
        case .format(let found):
            if found.conforms(to: declared) { return .agrees(found) }
            if declared.conforms(to: found) { return .agrees(declared) }
            // A container format is also data of a more general declared type (a plist declared as public.data).
            return .disagrees(found: found, reason: "declared \(declared.identifier), but the bytes are \(found.identifier)")
        case .text:
            if declared.conforms(to: .text) { return .agrees(declared) }
            if !recognizable && !declared.conforms(to: .image) && !declared.conforms(to: .audiovisualContent) {
                return .agrees(declared)
            }
            return .disagrees(found: .plainText, reason: "declared \(declared.identifier), but the bytes are text")
        case .empty:
            if declared.conforms(to: .text) || !recognizable && !declared.conforms(to: .image) && !declared.conforms(to: .audiovisualContent) {
                return .agrees(declared)
            }
            return .disagrees(found: nil, reason: "declared \(declared.identifier), but the file is empty")
        case .unknown:
            if recognizable || declared.conforms(to: .text) {
                return .disagrees(found: nil, reason: "declared \(declared.identifier), but the bytes are not \(declared.identifier)")
            }
            return .agrees(declared)
        }
    }
}
