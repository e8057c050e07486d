#if canImport(CryptoKit)
import CryptoKit
#else
import COpenSSL
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256, fed in pieces: CryptoKit on Apple platforms, OpenSSL's libcrypto elsewhere (both use the CPU's
/// SHA instructions where it has them).
package struct SHA256Hasher: ~Copyable {
    #if canImport(CryptoKit)
    private var hash = SHA256()
    #else
    private var context = SHA256_CTX()
    #endif

    package init() {
        #if !canImport(CryptoKit)
        SHA256_Init(&context)
        #endif
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hash.update(bufferPointer: bytes)
        #else
        SHA256_Update(&context, bytes.baseAddress, bytes.count)
        #endif
    }

    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest, as 64 lowercase hexadecimal digits.
    package consuming func finalize() -> String {
        #if canImport(CryptoKit)
        let bytes = Array(hash.finalize())
        #else
        var bytes = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&bytes, &context)
        #endif
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}

extension SHA256Hasher {
    /// Bytes read per call when hashing a file: large enough to keep the hash fed, small against any budget.
    package static let readSize = 1 << 20

    /// The SHA-256 of a regular file's bytes, read in `readSize` pieces.
    ///
    /// - Parameter progress: called with the bytes hashed so far; returning `false` cancels.
    package static func hash(fileAt path: String, progress: (Int64) -> Bool = { _ in true }) throws(FileSystemError) -> String {
        let descriptor = try Syscall.openFile(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        defer { Syscall.closeFile(descriptor) }
        guard Syscall.isRegularFile(try Syscall.status(of: descriptor, path: path)) else {
            throw FileSystemError(.wrongKind, operation: "hash", path: path, detail: "not a regular file")
        }
        var hasher = SHA256Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 64)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = read(descriptor, buffer.baseAddress, readSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.system(errno), operation: "read", path: path)
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            total += Int64(count)
            if !progress(total) { throw FileSystemError(.cancelled, operation: "hash", path: path) }
        }
        return hasher.finalize()
    }

    /// The SHA-256 of a directory tree, the same on every machine: of one record per entry in byte order
    /// of the paths, each `KIND NUL PATH NUL DETAIL NUL` with PATH relative to the root — `d` for a
    /// directory (no detail), `f` for a regular file (its size, a space, its SHA-256), `l` for a link (its
    /// target; never followed).
    package static func hash(treeAt root: String) throws(FileSystemError) -> String {
        var records: [(path: String, record: String)] = []
        func walk(_ relative: String, depth: Int) throws(FileSystemError) {
            guard depth <= TreeCopier.maximumDepth else {
                throw FileSystemError(.limitExceeded, operation: "hash", path: root, detail: "nested deeper than \(TreeCopier.maximumDepth) directories")
            }
            for name in try Syscall.contentsOfDirectory(relative.isEmpty ? root : root + "/" + relative) {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = root + "/" + path
                guard let status = try Syscall.linkStatus(full) else { continue }
                if Syscall.isDirectory(status) {
                    records.append((path, "d\0\(path)\0\0"))
                    try walk(path, depth: depth + 1)
                } else if Syscall.isRegularFile(status) {
                    records.append((path, "f\0\(path)\0\(status.st_size) \(try hash(fileAt: full))\0"))
                } else if Syscall.isSymbolicLink(status) {
                    records.append((path, "l\0\(path)\0\(try Syscall.readSymbolicLink(full))\0"))
                }
            }
        }
        try walk("", depth: 0)
        var hasher = SHA256Hasher()
        for (_, record) in records.sorted(by: { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }) {
            hasher.update(record)
        }
        return hasher.finalize()
    }
}
