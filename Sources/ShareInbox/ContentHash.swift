import CBLAKE3
#if canImport(CryptoKit)
import CryptoKit
#else
import COpenSSL
#endif
package import Foundation
package import SharingSystem

/// A payload's hash, naming its algorithm: `blake3:…` as the inbox writes it, `sha256:…` as older inboxes
/// wrote it. Two hashes are the same only with the same algorithm.
///
/// The inbox skips an attachment whose hash equals another's, so the hash must be one a sender cannot
/// collide: BLAKE3 is as collision-resistant as SHA-256 and, with SIMD across chunks, several times faster
/// on CPUs without SHA instructions, where SHA-256 (about 270 MB/s) made a receive hash-bound.
public struct ContentHash: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Algorithm: String, Sendable, Codable, CaseIterable {
        case blake3, sha256
    }

    public var algorithm: Algorithm
    /// The 32-byte digest in lowercase hexadecimal.
    public var hexadecimal: String

    public init(_ algorithm: Algorithm, hexadecimal: String) {
        self.algorithm = algorithm
        self.hexadecimal = hexadecimal
    }

    /// What new payloads are hashed with.
    public static let preferredAlgorithm = Algorithm.blake3

    /// `ALGORITHM:HEX`.
    public var description: String { "\(algorithm.rawValue):\(hexadecimal)" }

    /// Reads `ALGORITHM:HEX`; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let algorithm = Algorithm(rawValue: String(parts[0])), parts[1].utf8.count == 64,
              parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        self.init(algorithm, hexadecimal: String(parts[1]))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let hash = ContentHash(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a hash as ALGORITHM:HEX (blake3 or sha256): \(text)")
        }
        self = hash
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A hash fed in pieces, by one thread at a time (the copy engine's reader, then its caller).
// @unchecked: its mutable state is only touched under its lock.
package final class ContentHasher: @unchecked Sendable {
    let algorithm: ContentHash.Algorithm
    private let lock = NSLock()
    private var blake3 = osb3_hasher()
    #if canImport(CryptoKit)
    private var sha256 = SHA256()
    #else
    private var sha256 = SHA256_CTX()
    #endif

    package init(_ algorithm: ContentHash.Algorithm = ContentHash.preferredAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .blake3: osb3_init(&blake3)
        case .sha256:
            #if !canImport(CryptoKit)
            SHA256_Init(&sha256)
            #endif
        }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        switch algorithm {
        case .blake3: osb3_update(&blake3, bytes.baseAddress, bytes.count)
        case .sha256:
            #if canImport(CryptoKit)
            sha256.update(bufferPointer: bytes)
            #else
            SHA256_Update(&sha256, bytes.baseAddress, bytes.count)
            #endif
        }
    }

    package func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    package func finalize() -> ContentHash {
        lock.lock()
        defer { lock.unlock() }
        var digest = [UInt8](repeating: 0, count: 32)
        switch algorithm {
        case .blake3: osb3_finalize(&blake3, &digest)
        case .sha256:
            #if canImport(CryptoKit)
            digest = Array(sha256.finalize())
            #else
            var context = sha256
            SHA256_Final(&digest, &context)
            #endif
        }
        let digits = Array("0123456789abcdef".utf8)
        return ContentHash(algorithm, hexadecimal: String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self))
    }
}

extension ContentHash {
    /// Bytes read per call when hashing a file: large enough to keep the hash fed, small against any budget.
    static let readSize = 1 << 20

    /// The hash of a regular file's bytes; links are not followed.
    static func of(fileAt url: URL, _ algorithm: Algorithm = preferredAlgorithm) throws(SystemError) -> ContentHash {
        let hasher = ContentHasher(algorithm)
        try OpenFile.reading(url, followingLinks: false).forEachChunk(size: readSize) {
            hasher.update($0)
            return true
        }
        return hasher.finalize()
    }

    /// The hash of a directory tree, the same on every machine: of one record per entry in byte order of the
    /// paths, each `KIND NUL PATH NUL DETAIL NUL` with PATH relative to the root — `d` for a directory (no
    /// detail), `f` for a regular file (its size, a space, its hash in hexadecimal), `l` for a link (its
    /// target; never followed).
    package static func of(treeAt root: URL, _ algorithm: Algorithm = preferredAlgorithm) throws(SystemError) -> ContentHash {
        let hasher = ContentHasher(algorithm)
        for entry in try TreeCopier.walk(root) {
            switch entry.kind {
            case .directory:
                hasher.update("d\0\(entry.path)\0\0")
            case .file(let size):
                hasher.update("f\0\(entry.path)\0\(size) \(try of(fileAt: root.appending(path: entry.path), algorithm).hexadecimal)\0")
            case .link(let target):
                hasher.update("l\0\(entry.path)\0\(target)\0")
            case .other:
                continue
            }
        }
        return hasher.finalize()
    }
}
