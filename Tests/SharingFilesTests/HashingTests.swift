import Foundation
@testable import SharingFiles
import Testing

@Suite("SHA-256")
final class HashingTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Bytes that differ at every offset, so that a piece hashed twice or skipped changes the digest.
    func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) }
    }

    @Test("the known answers of FIPS 180-2")
    func knownAnswers() throws {
        func digest(_ text: String) -> String {
            var hasher = SHA256Hasher()
            hasher.update(text)
            return hasher.finalize()
        }
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(try SHA256Hasher.hash(fileAt: file("abc", Array("abc".utf8)).path) == digest("abc"))
    }

    @Test("copying while hashing gives the copy's digest, whatever the size against the copy's chunks", arguments: [
        0, 1, FileCopier.chunkSize - 1, FileCopier.chunkSize, FileCopier.chunkSize + 1, 3 * FileCopier.chunkSize + 4097,
    ])
    func copyHashing(_ size: Int) throws {
        let source = try file("source-\(size)", pattern(size))
        let destination = directory.appendingPathComponent("copy-\(size)").path
        var reported: Int64 = 0
        let (result, digest) = try FileCopier.copyFileHashing(from: source.path, to: destination, durable: true) { copied in
            reported = copied
            return true
        }
        #expect(result.bytes == Int64(size) && reported == Int64(size))
        #expect(digest == (try SHA256Hasher.hash(fileAt: source.path)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(pattern(size)))
    }

    @Test("cancelling a hashing copy removes the copy and ends the hashing")
    func cancelledCopy() throws {
        let source = try file("big", pattern(3 * FileCopier.chunkSize))
        let destination = directory.appendingPathComponent("cancelled").path
        #expect(throws: FileSystemError.self) {
            try FileCopier.copyFileHashing(from: source.path, to: destination) { $0 < Int64(FileCopier.chunkSize) }
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test("a tree's digest: the same for the same tree wherever it is, different for any change")
    func trees() throws {
        func tree(_ name: String, extra: Bool = false, link: String = "a.txt") throws -> String {
            let root = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: root.appendingPathComponent("a.txt"))
            try Data("b".utf8).write(to: root.appendingPathComponent("sub/b.txt"))
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: link)
            if extra { try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true) }
            return try SHA256Hasher.hash(treeAt: root.path)
        }
        let first = try tree("one")
        #expect(try tree("two") == first)
        #expect(try tree("three", extra: true) != first)
        #expect(try tree("four", link: "sub/b.txt") != first)
    }
}
