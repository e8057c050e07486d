import CBLAKE3
import Foundation
@testable import ShareInbox
import Testing

@Suite("Content hashes", .serialized)
final class ContentHashTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The input of BLAKE3's published vectors: 0, 1, …, 250, 0, 1, … .
    static func vectorInput(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    static func blake3(_ bytes: [UInt8], pieces: [Int] = []) -> String {
        let hasher = ContentHasher(.blake3)
        var offset = 0
        bytes.withUnsafeBytes { all in
            for piece in pieces + [bytes.count] where offset < bytes.count {
                let end = min(bytes.count, offset + max(piece, 1))
                hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return hasher.finalize().hexadecimal
    }

    /// BLAKE3's published test vectors (the first 32 bytes of each `hash`), from test_vectors/test_vectors.json
    /// of https://github.com/BLAKE3-team/BLAKE3 (CC0-1.0 / Apache-2.0), commit 2f6f56f.
    static let vectors: [(Int, String)] = [
        (0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
        (1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"),
        (1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"),
        (1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"),
        (1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"),
        (2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"),
        (2049, "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030"),
        (3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2"),
        (3073, "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd3"),
        (4096, "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969"),
        (4097, "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995"),
        (5120, "9cadc15fed8b5d854562b26a9536d9707cadeda9b143978f319ab34230535833"),
        (5121, "628bd2cb2004694adaab7bbd778a25df25c47b9d4155a55f8fbd79f2fe154cff"),
        (6144, "3e2e5b74e048f3add6d21faab3f83aa44d3b2278afb83b80b3c35164ebeca205"),
        (6145, "f1323a8631446cc50536a9f705ee5cb619424d46887f3c376c695b70e0f0507f"),
        (7168, "61da957ec2499a95d6b8023e2b0e604ec7f6b50e80a9678b89d2628e99ada77a"),
        (7169, "a003fc7a51754a9b3c7fae0367ab3d782dccf28855a03d435f8cfe74605e7817"),
        (8192, "aae792484c8efe4f19e2ca7d371d8c467ffb10748d8a5a1ae579948f718a2a63"),
        (8193, "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b"),
        (16384, "f875d6646de28985646f34ee13be9a576fd515f76b5b0a26bb324735041ddde4"),
        (31744, "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47"),
        (102400, "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"),
    ]

    @Test("BLAKE3: the published test vectors, whole and fed in pieces, by every kernel this CPU runs")
    func publishedVectors() {
        defer { osb3_use_kernel(nil) }
        for kernel in [nil, "avx2", "portable"] {
            osb3_use_kernel(kernel)
            for (length, expected) in Self.vectors {
                let input = Self.vectorInput(length)
                #expect(Self.blake3(input) == expected, "\(length) bytes, \(String(cString: osb3_implementation()))")
                #expect(Self.blake3(input, pieces: [1, 63, 64, 65, 1023, 1024, 1025]) == expected, "\(length) bytes in pieces")
            }
        }
    }

    @Test("BLAKE3 agrees with an independent implementation (the blake3 package on PyPI) over random sizes and random pieces")
    func independentImplementation() throws {
        var generator = SystemRandomNumberGenerator()
        var cases: [(bytes: [UInt8], pieces: [Int])] = []
        for _ in 0..<16 {
            // Sizes around chunk and subtree boundaries matter most; over 512 KB reaches the widest subtrees.
            let size = [Int.random(in: 0...3000, using: &generator), Int.random(in: 0...(1200 << 10), using: &generator),
                        1024 * Int.random(in: 1...600, using: &generator) + Int.random(in: -1...1, using: &generator)].randomElement()!
            var bytes = [UInt8](repeating: 0, count: max(0, size))
            bytes.withUnsafeMutableBytes { buffer in
                for offset in stride(from: 0, to: buffer.count, by: 8) {
                    withUnsafeBytes(of: generator.next()) { word in
                        for index in 0..<min(8, buffer.count - offset) { buffer[offset + index] = word[index] }
                    }
                }
            }
            let pieces = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 1...(300 << 10), using: &generator) }
            cases.append((bytes, pieces))
        }
        let files = try cases.enumerated().map { index, item in
            let url = directory.appendingPathComponent("random-\(index)")
            try Data(item.bytes).write(to: url)
            return url.path
        }
        let reference = try python(["-c", "import sys, blake3\nfor p in sys.argv[1:]: print(blake3.blake3(open(p, 'rb').read()).hexdigest())"] + files)
        #expect(reference.count == cases.count)
        for (index, item) in cases.enumerated() where index < reference.count {
            #expect(Self.blake3(item.bytes, pieces: item.pieces) == reference[index], "\(item.bytes.count) bytes in pieces \(item.pieces)")
        }
    }

    /// Runs python3 with these arguments; its standard output's lines.
    func python(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 and its blake3 package are needed (make deps installs them)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("SHA-256: the known answers of FIPS 180-2")
    func sha256() throws {
        func digest(_ text: String) -> String {
            let hasher = ContentHasher(.sha256)
            hasher.update(text)
            return hasher.finalize().hexadecimal
        }
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let file = directory.appendingPathComponent("abc")
        try Data("abc".utf8).write(to: file)
        #expect(try ContentHash.of(fileAt: file, .sha256) == ContentHash(.sha256, hexadecimal: digest("abc")))
        #expect(try ContentHash.of(fileAt: file) == ContentHash(.blake3, hexadecimal: "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"))
    }

    @Test("a hash names its algorithm: written and read as ALGORITHM:HEX, anything else refused")
    func naming() {
        let hash = ContentHash(.blake3, hexadecimal: String(repeating: "ab", count: 32))
        #expect(hash.description == "blake3:" + String(repeating: "ab", count: 32))
        #expect(ContentHash(hash.description) == hash)
        #expect(ContentHash("sha256:" + String(repeating: "0", count: 64))?.algorithm == .sha256)
        for bad in ["md5:" + String(repeating: "0", count: 32), "blake3:xyz", "blake3:" + String(repeating: "A", count: 64), String(repeating: "0", count: 64), ""] {
            #expect(ContentHash(bad) == nil, "\(bad)")
        }
        #expect(hash != ContentHash(.sha256, hexadecimal: hash.hexadecimal))
    }

    @Test("a tree's hash: the same for the same tree wherever it is, different for any change, by either algorithm")
    func trees() throws {
        func tree(_ name: String, extra: Bool = false, link: String = "a.txt", _ algorithm: ContentHash.Algorithm = .blake3) throws -> ContentHash {
            let root = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: root.appendingPathComponent("a.txt"))
            try Data("b".utf8).write(to: root.appendingPathComponent("sub/b.txt"))
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: link)
            if extra { try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true) }
            return try ContentHash.of(treeAt: root, algorithm)
        }
        let first = try tree("one")
        #expect(try tree("two") == first)
        #expect(try tree("three", extra: true) != first)
        #expect(try tree("four", link: "sub/b.txt") != first)
        #expect(try tree("five", .sha256).algorithm == .sha256)
    }
}
