import Foundation
@testable import ShareInbox
import Testing

@Suite("Content hashes")
final class ContentHashTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("SHA-256: the known answers of FIPS 180-2, fed whole and from a file")
    func knownAnswers() throws {
        func digest(_ text: String) -> String {
            var hasher = SHA256Hasher()
            hasher.update(text)
            return hasher.finalize()
        }
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let file = directory.appendingPathComponent("abc")
        try Data("abc".utf8).write(to: file)
        #expect(try ContentHash.hash(fileAt: file) == digest("abc"))
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
            return try ContentHash.hash(treeAt: root)
        }
        let first = try tree("one")
        #expect(try tree("two") == first)
        #expect(try tree("three", extra: true) != first)
        #expect(try tree("four", link: "sub/b.txt") != first)
    }
}
