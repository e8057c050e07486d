#if canImport(CryptoKit)
import CryptoKit
#else
import COpenSSL
#endif
import Foundation
import SharingSystem

/// SHA-256, fed in pieces: CryptoKit on Apple platforms, OpenSSL's libcrypto elsewhere.
struct SHA256Hasher: ~Copyable {
    #if canImport(CryptoKit)
    private var hash = SHA256()
    #else
    private var context = SHA256_CTX()
    #endif

    init() {
        #if !canImport(CryptoKit)
        SHA256_Init(&context)
        #endif
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hash.update(bufferPointer: bytes)
        #else
        SHA256_Update(&context, bytes.baseAddress, bytes.count)
        #endif
    }

    mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest, as 64 lowercase hexadecimal digits.
    consuming func finalize() -> String {
        #if canImport(CryptoKit)
        let bytes = Array(hash.finalize())
        #else
        var bytes = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&bytes, &context)
        #endif
        return hexadecimal(bytes)
    }
}

/// Bytes as lowercase hexadecimal digits.
func hexadecimal(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
}

/// A hasher that several threads may feed in turn (the copy engine's reader, then the caller).
final class SharedHasher: @unchecked Sendable {
    private let lock = NSLock()
    private var hasher: SHA256Hasher? = SHA256Hasher()

    func update(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock { hasher?.update(bytes) }
    }

    /// The digest; call once, after the last update.
    func finalize() -> String {
        lock.withLock { hasher.take()!.finalize() }
    }
}

enum ContentHash {
    /// Bytes read per call when hashing a file: large enough to keep the hash fed, small against any budget.
    static let readSize = 1 << 20

    /// The SHA-256 of a regular file's bytes; links are not followed.
    static func hash(fileAt url: URL) throws(SystemError) -> String {
        var hasher = SHA256Hasher()
        try OpenFile.reading(url, followingLinks: false).forEachChunk(size: readSize) {
            hasher.update($0)
            return true
        }
        return hasher.finalize()
    }

    /// The SHA-256 of a directory tree, the same on every machine: of one record per entry in byte order
    /// of the paths, each `KIND NUL PATH NUL DETAIL NUL` with PATH relative to the root — `d` for a
    /// directory (no detail), `f` for a regular file (its size, a space, its SHA-256), `l` for a link (its
    /// target; never followed).
    static func hash(treeAt root: URL) throws(SystemError) -> String {
        var hasher = SHA256Hasher()
        for entry in try TreeCopier.walk(root) {
            switch entry.kind {
            case .directory:
                hasher.update("d\0\(entry.path)\0\0")
            case .file(let size):
                hasher.update("f\0\(entry.path)\0\(size) \(try hash(fileAt: root.appending(path: entry.path)))\0")
            case .link(let target):
                hasher.update("l\0\(entry.path)\0\(target)\0")
            case .other:
                continue
            }
        }
        return hasher.finalize()
    }
}
