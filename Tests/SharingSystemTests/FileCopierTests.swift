import Foundation
import PropertyBased
@testable import SharingSystem
import PackageSupport
import SystemPackage
import Testing

@Suite("The copy engine")
final class FileCopierTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func randomFile(_ name: String, bytes: Int) throws -> (URL, Data) {
        // Pseudo-random bytes (a xorshift stream): no two chunks alike, fast even in a debug build.
        var data = Data(count: bytes)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        data.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 8) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                withUnsafeBytes(of: state) { word in
                    for i in 0..<min(8, buffer.count - offset) { buffer[offset + i] = word[i] }
                }
            }
        }
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return (url, data)
    }

    @Test("the kernel path and the buffered path copy the same bytes, and progress ends at the size", arguments: [false, true])
    func copies(buffered: Bool) throws {
        let (source, data) = try randomFile("source.bin", bytes: 20 << 20 | 12345)
        let destination = directory.appendingPathComponent("copy-\(buffered).bin")
        var reported: [Int64] = []
        let result = try FileCopier.copyFile(from: source, to: destination, forceBuffered: buffered) { bytes in
            reported.append(bytes)
            return true
        }
        #expect(result.bytes == Int64(data.count))
        #expect(buffered ? result.method == .readWrite : result.method != .readWrite)
        #expect(try Data(contentsOf: destination) == data)
        #expect(reported.last == Int64(data.count))
        #expect(zip(reported, reported.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("an empty file copies")
    func empty() throws {
        let (source, _) = try randomFile("empty", bytes: 0)
        let result = try FileCopier.copyFile(from: source, to: directory.appendingPathComponent("empty-copy"))
        #expect(result.bytes == 0)
    }

    @Test("an existing destination is never overwritten")
    func exclusive() throws {
        let (source, _) = try randomFile("a", bytes: 10)
        let (existing, old) = try randomFile("b", bytes: 5)
        #expect(throws: SystemError(.create, .system(.fileExists), path: existing.path)) { try FileCopier.copyFile(from: source, to: existing) }
        #expect(try Data(contentsOf: existing) == old)
    }

    @Test("a FIFO is refused at once, not waited on; so is a directory")
    func notRegular() throws {
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: SystemError(.read, .wrongKind("not a regular file"), path: fifo.path)) {
            try FileCopier.copyFile(from: fifo, to: directory.appendingPathComponent("f2"))
        }
        #expect(throws: SystemError(.read, .wrongKind("not a regular file"), path: directory.path)) {
            try FileCopier.copyFile(from: directory, to: directory.appendingPathComponent("d2"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("f2").path))
    }

    @Test("cancelling removes the partial copy")
    func cancel() throws {
        let (source, _) = try randomFile("big", bytes: 24 << 20)
        let destination = directory.appendingPathComponent("partial")
        do {
            try FileCopier.copyFile(from: source, to: destination) { $0 < 8 << 20 }
            Issue.record("not cancelled")
        } catch {
            #expect(error.code == .cancelled)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    enum SourceChange: String, CaseIterable, CustomTestStringConvertible {
        case overwritten, appended, truncated
        var testDescription: String { rawValue }
    }

    @Test("a source written to while it is copied is refused by code, and no copy is left", arguments: SourceChange.allCases, [false, true])
    func sourceChangedDuringCopy(change: SourceChange, buffered: Bool) throws {
        let (source, _) = try randomFile("changing", bytes: 24 << 20)
        // Past the file system's clock tick, so that a write during the copy has a later change time.
        Thread.sleep(forTimeInterval: 0.05)
        let destination = directory.appendingPathComponent("copy-of-changing")
        var changed = false
        #expect(throws: SystemError(.copy, .changed("the file changed while it was copied"), path: source.path, destination: destination.path)) {
            try FileCopier.copyFile(from: source, to: destination, forceBuffered: buffered) { _ in
                if !changed {
                    changed = true
                    let writer = try! FileHandle(forWritingTo: source)
                    switch change {
                    case .overwritten: try! writer.write(contentsOf: Data([0x55]))
                    case .appended: try! writer.seekToEnd(); try! writer.write(contentsOf: Data([0x55]))
                    case .truncated: try! writer.truncate(atOffset: 20 << 20)
                    }
                    try! writer.close()
                }
                return true
            }
        }
        #expect(changed)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("reading, renaming, unlinking or changing the permissions of a source while it is copied is no change")
    func sourceTouchedDuringCopy() throws {
        let (source, data) = try randomFile("touched", bytes: 24 << 20)
        Thread.sleep(forTimeInterval: 0.05)
        let renamed = directory.appendingPathComponent("touched-renamed")
        let destination = directory.appendingPathComponent("copy-of-touched")
        let input = try OpenFile.reading(source)
        var calls = 0
        try FileCopier.copy(from: input, to: destination) { _ in
            calls += 1
            switch calls {
            case 1:
                _ = try? Data(contentsOf: source)
                try! FileManager.default.moveItem(at: source, to: renamed)
            case 2:
                try! FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: renamed.path)
                try! FileManager.default.removeItem(at: renamed)
            default: break
            }
            return true
        }
        #expect(calls >= 2)
        #expect(try Data(contentsOf: destination) == data)
    }

    @Test("a symbolic link is followed only when asked")
    func links() throws {
        let (source, _) = try randomFile("target", bytes: 3)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        #expect(throws: SystemError(.open, .system(.tooManySymbolicLinkLevels), path: link.path)) {
            try FileCopier.copyFile(from: link, to: directory.appendingPathComponent("l1"), followingLinks: false)
        }
        #expect(try FileCopier.copyFile(from: link, to: directory.appendingPathComponent("l2")).bytes == 3)
    }

    @Test("a missing source names the path and the reason")
    func missing() {
        do {
            try FileCopier.copyFile(from: URL(filePath: "/nonexistent/x"), to: directory.appendingPathComponent("m"))
            Issue.record("copied from nothing")
        } catch {
            #expect(error.code == .system(.noSuchFileOrDirectory))
            #expect(error.description == "opening /nonexistent/x failed: No such file or directory")
        }
    }

    /// Bytes that differ at every offset, so that a piece seen twice or skipped shows.
    func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) })
    }

    @Test("an observed copy hands over every byte written, once and in order, whatever the size against the copy's chunks", arguments: [
        0, 1, FileCopier.chunkSize - 1, FileCopier.chunkSize, FileCopier.chunkSize + 1, 3 * FileCopier.chunkSize + 4097,
    ])
    func observedCopy(_ size: Int) throws {
        let source = directory.appendingPathComponent("source-\(size)")
        try pattern(size).write(to: source)
        let destination = directory.appendingPathComponent("copy-\(size)")
        let seen = Locked(Data())
        var reported: Int64 = 0
        let result = try FileCopier.copy(from: OpenFile.reading(source), to: destination, durable: true, progress: { copied in
            reported = copied
            return true
        }, observe: { bytes in seen.withLock { $0.append(contentsOf: bytes) } })
        #expect(result.bytes == Int64(size) && reported == Int64(size))
        #expect(seen.withLock { $0 } == pattern(size))
        #expect(try Data(contentsOf: destination) == pattern(size))
    }

    @Test("cancelling an observed copy removes the copy and ends the reading")
    func cancelledObservedCopy() throws {
        let source = directory.appendingPathComponent("big")
        try pattern(3 * FileCopier.chunkSize).write(to: source)
        let destination = directory.appendingPathComponent("cancelled")
        #expect(throws: SystemError(.copy, .cancelled, path: source.path, destination: destination.path)) {
            try FileCopier.copy(from: OpenFile.reading(source), to: destination, progress: { $0 < Int64(FileCopier.chunkSize) }, observe: { _ in })
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}

@Suite("Tree copies")
struct TreeCopierTests {
    @Test("links that stay inside are kept; links out, absolute links and FIFOs are left out and reported")
    func links() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data("f".utf8).write(to: tree.appendingPathComponent("a/b/file"))
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("a/up").path, withDestinationPath: "../a/b/file")
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("a/out").path, withDestinationPath: "../../outside")
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("abs").path, withDestinationPath: "/etc/passwd")
        #expect(mkfifo(tree.appendingPathComponent("pipe").path, 0o600) == 0)
        let copy = root.appendingPathComponent("copy")
        let result = try TreeCopier.copyTree(from: tree, to: copy)
        #expect(result.files == 2 && result.directories == 3 && result.bytes == 1)
        #expect(Set(result.skipped.map(\.path)) == ["a/out", "abs", "pipe"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: copy.appendingPathComponent("a/up").path) == "../a/b/file")
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("abs").path))
    }

    @Test("link targets stay inside however links resolve: '..' only at the start, no higher than the root", arguments: [
        ("x", "a/link", true), ("../x", "a/link", true), ("../../x", "a/link", false), ("/x", "link", false),
        ("./b/c", "link", true), ("..", "link", false), ("b/../../x", "link", false), ("../a/./b", "a/link", true),
        // With `dot -> .` beside it, `dot/dot/../x` is lexically inside but resolves outside the tree.
        ("dot/dot/../x", "link", false), ("b/../c", "link", false),
    ])
    func containment(_ target: String, _ link: String, _ inside: Bool) {
        #expect(TreeCopier.staysInside(target: target, linkPath: link) == inside)
    }

    @Test("a tree deeper than the limit is refused, and nothing of it is left")
    func depth() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-deep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let deep = (0...TreeCopier.maximumDepth + 1).map { _ in "d" }.joined(separator: "/")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tree/" + deep), withIntermediateDirectories: true)
        let copy = root.appendingPathComponent("copy")
        do {
            _ = try TreeCopier.copyTree(from: root.appendingPathComponent("tree"), to: copy)
            Issue.record("copied a tree deeper than the limit")
        } catch {
            #expect(error.code == .limitExceeded("nested deeper than \(TreeCopier.maximumDepth) directories"))
        }
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }
}
