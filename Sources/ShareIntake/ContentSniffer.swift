import Foundation
import SharingFiles
import SharingShim

/// What a file's first bytes say it is, from one table of signatures.
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

    /// The table, most specific first. Each entry names a type and tests the first bytes.
    static let signatures: [(type: UTType, matches: @Sendable ([UInt8]) -> Bool)] = [
        (.jpeg, { $0.starts(with: [0xFF, 0xD8, 0xFF]) }),
        (.png, { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }),
        (.gif, { $0.starts(with: Array("GIF87a".utf8)) || $0.starts(with: Array("GIF89a".utf8)) }),
        (.webP, { $0.count >= 12 && $0.starts(with: Array("RIFF".utf8)) && Array($0[8..<12]) == Array("WEBP".utf8) }),
        (.tiff, { $0.starts(with: [0x49, 0x49, 0x2A, 0x00]) || $0.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) }),
        (.bmp, { $0.starts(with: Array("BM".utf8)) && $0.count >= 14 }),
        (.heic, { isoBrand($0, ["heic", "heix", "heim", "heis", "hevc", "hevx"]) }),
        (.heif, { isoBrand($0, ["mif1", "msf1"]) }),
        (.quickTimeMovie, { isoBrand($0, ["qt  "]) || (($0.count >= 8) && ["moov", "mdat", "wide", "free"].contains(String(decoding: $0[4..<8], as: UTF8.self)) && $0[0] == 0) }),
        (.mpeg4Movie, { isoBrand($0, ["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash", "3gp4", "3gp5"]) }),
        (.pdf, { $0.starts(with: Array("%PDF-".utf8)) }),
        (.zip, { $0.starts(with: [0x50, 0x4B, 0x03, 0x04]) || $0.starts(with: [0x50, 0x4B, 0x05, 0x06]) }),
        (.binaryPropertyList, { $0.starts(with: Array("bplist00".utf8)) }),
        (.rtf, { $0.starts(with: Array("{\\rtf".utf8)) }),
    ]

    /// An ISO base-media file (MP4, QuickTime, HEIF) whose `ftyp` box names one of these major brands.
    private static func isoBrand(_ bytes: [UInt8], _ brands: [String]) -> Bool {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        return brands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
    }

    /// Sniffs the first bytes of a regular file.
    static func sniff(fileAt path: String) throws(FileSystemError) -> Finding {
        sniff(try FileReader.readPrefix(path, count: headerSize))
    }

    static func sniff(_ bytes: [UInt8]) -> Finding {
        if bytes.isEmpty { return .empty }
        if let signature = signatures.first(where: { $0.matches(bytes) }) { return .format(signature.type) }
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
        let recognizable = signatures.contains { declared.conforms(to: $0.type) }
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
