#if canImport(Darwin)
package import UniformTypeIdentifiers
#else
package import OpenUniformTypeIdentifiers
#endif

/// What a file's first bytes say it is: the one table of signatures, read by the intake to check a host's
/// claim and by thumbnails to choose a decoder.
package enum FileSignature: Sendable, CaseIterable {
    case jpeg, png, gif, webP, tiff, bigTIFF, bmp, heic, heif, avif
    case quickTimeMovie, mpeg4Movie, mpeg4Audio, mpegVideo, avi, waveAudio, aiffAudio, mp3
    case pdf, zip, binaryPropertyList, rtf

    /// The most bytes any signature needs.
    package static let length = 16

    /// The signature the bytes begin with; the table is tried most specific first.
    package static func identify(_ bytes: some Collection<UInt8>) -> FileSignature? {
        let prefix = Array(bytes.prefix(length))
        return allCases.first { $0.matches(prefix) }
    }

    /// The type a file with this signature is.
    package var type: UTType {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .webP: .webP
        case .tiff, .bigTIFF: .tiff
        case .bmp: .bmp
        case .heic: .heic
        case .heif: .heif
        // Not in macOS 13's table of system types; later systems declare it so.
        case .avif: UTType(importedAs: "public.avif", conformingTo: .image)
        case .quickTimeMovie: .quickTimeMovie
        case .mpeg4Movie: .mpeg4Movie
        case .mpeg4Audio: .mpeg4Audio
        case .mpegVideo: .mpeg
        case .avi: .avi
        case .waveAudio: .wav
        case .aiffAudio: .aiff
        case .mp3: .mp3
        case .pdf: .pdf
        case .zip: .zip
        case .binaryPropertyList: .binaryPropertyList
        case .rtf: .rtf
        }
    }

    /// The type's identifier, for modules that do not deal in types.
    package var typeIdentifier: String { type.identifier }

    private func matches(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .jpeg: bytes.starts(with: [0xFF, 0xD8, 0xFF])
        case .png: bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .gif: bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
        case .webP: Self.riff(bytes, "WEBP")
        case .tiff: bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        case .bigTIFF: bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        case .bmp: bytes.count >= 14 && bytes.starts(with: Array("BM".utf8))
        case .heic: Self.brand(bytes, in: ["heic", "heix", "heim", "heis", "hevc", "hevx"])
        case .heif: Self.brand(bytes, in: ["mif1", "msf1"])
        case .avif: Self.brand(bytes, in: ["avif", "avis"])
        case .quickTimeMovie:
            Self.brand(bytes, in: ["qt  "])
                || bytes.count >= 8 && bytes[0] == 0 && ["moov", "mdat", "wide", "free"].contains(String(decoding: bytes[4..<8], as: UTF8.self))
        case .mpeg4Movie: Self.brand(bytes, in: ["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash", "3gp4", "3gp5"])
        case .mpeg4Audio: Self.brand(bytes, in: ["M4A ", "M4B ", "M4P "])
        // An MPEG program stream's pack header, or a video stream's sequence header.
        case .mpegVideo: bytes.starts(with: [0x00, 0x00, 0x01, 0xBA]) || bytes.starts(with: [0x00, 0x00, 0x01, 0xB3])
        case .avi: Self.riff(bytes, "AVI ")
        case .waveAudio: Self.riff(bytes, "WAVE")
        case .aiffAudio: bytes.count >= 12 && bytes.starts(with: Array("FORM".utf8)) && ["AIFF", "AIFC"].contains(String(decoding: bytes[8..<12], as: UTF8.self))
        // An ID3 tag, or a Layer III frame header: the sync word, a version that is not the reserved one, and
        // a bit rate and sample rate that are neither free nor reserved (a UTF-16 byte order mark is none).
        case .mp3:
            bytes.starts(with: Array("ID3".utf8))
                || bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0 && bytes[1] & 0x18 != 0x08 && bytes[1] & 0x06 == 0x02
                && ![0x00, 0xF0].contains(bytes[2] & 0xF0) && bytes[2] & 0x0C != 0x0C
        case .pdf: bytes.starts(with: Array("%PDF-".utf8))
        case .zip: bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
        case .binaryPropertyList: bytes.starts(with: Array("bplist00".utf8))
        case .rtf: bytes.starts(with: Array("{\\rtf".utf8))
        }
    }

    /// A RIFF file of this form (`WAVE`, `AVI `, `WEBP`).
    private static func riff(_ bytes: [UInt8], _ form: String) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array(form.utf8)
    }

    /// An ISO base-media file (MP4, QuickTime, HEIF) whose `ftyp` box names one of these major brands.
    private static func brand(_ bytes: [UInt8], in brands: [String]) -> Bool {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        return brands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
    }
}
