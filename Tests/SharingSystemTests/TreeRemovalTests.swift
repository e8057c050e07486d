import Foundation
@testable import SharingSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Removing a directory someone else is still changing: a process that outlived its extension may swap a
/// directory of the container for a link to elsewhere while the host removes the container.
@Suite("Removing a tree under attack")
struct TreeRemovalTests {
    @Test("a directory swapped for a link to another directory mid-removal: nothing outside the tree is removed")
    func swappedForALink() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "opensharing-removal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let outside = base.appending(path: "outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        // The files outside have the names of the files inside: a removal that resolves paths again takes them.
        let names = (0..<400).map { "f\($0)" }
        for name in names { try Data().write(to: outside.appending(path: name)) }
        for round in 0..<20 {
            let tree = base.appending(path: "tree-\(round)")
            let victim = tree.appending(path: "victim")
            try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
            for name in names { try Data().write(to: victim.appending(path: name)) }
            let swapping = Swapper(victim: victim.path, outside: outside.path)
            swapping.start()
            try? FileSystem.removeTree(tree)
            swapping.stop()
            let left = try FileManager.default.contentsOfDirectory(atPath: outside.path).count
            #expect(left == names.count, "round \(round): \(names.count - left) files outside the tree were removed")
            if left != names.count { return }
        }
    }
}

/// Swaps a directory for a link and back, as fast as it can, on a thread of its own, until stopped.
private final class Swapper: @unchecked Sendable {
    let victim: String
    let outside: String
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(victim: String, outside: String) {
        self.victim = victim
        self.outside = outside
    }

    func start() {
        Thread { [self] in
            let real = victim + ".real"
            while lock.withLock({ running }) {
                guard rename(victim, real) == 0 else { continue }
                symlink(outside, victim)
                unlink(victim)
                rename(real, victim)
            }
            done.signal()
        }.start()
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}

/// Walking and removing large trees: each directory read once through.
@Suite("Large trees")
struct LargeTreeTests {
    /// Makes `count` empty files in `directory` (and `nested` levels of one subdirectory each, a file at each).
    func populate(_ directory: URL, count: Int, nested: Int = 0) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for number in 0..<count {
            let descriptor = open(directory.appending(path: "f\(number)").path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        var level = directory
        for depth in 0..<nested {
            level = level.appending(path: "d")
            try FileManager.default.createDirectory(at: level, withIntermediateDirectories: true)
            try Data("level \(depth)".utf8).write(to: level.appending(path: "file"))
        }
    }

    @Test("a directory of more names than one batch of the removal reads is removed whole, with what is nested in it")
    func removeManyFiles() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "opensharing-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try populate(base.appending(path: "tree"), count: FileSystem.removalBatch + 1000, nested: 40)
        try FileSystem.removeTree(base.appending(path: "tree"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
    }

    @Test("the disk meter counts a file once: not again through a hard link, nor in a second place it is linked into")
    func meterCountsFilesOnce() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "opensharing-meter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let first = base.appending(path: "first"), second = base.appending(path: "second")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let empty = FileSystem.diskUsage(of: [first, second], entryLimit: 100)
        try Data(repeating: 1, count: 1 << 20).write(to: first.appending(path: "big"))
        let alone = FileSystem.diskUsage(of: [first, second], entryLimit: 100)
        #expect(alone[0].bytes - empty[0].bytes >= 1 << 20)
        // A second name in the same tree, and one in the other: as a file moved from a place already walked
        // to one walked later looks to a walk.
        try FileManager.default.linkItem(at: first.appending(path: "big"), to: first.appending(path: "again"))
        try FileManager.default.linkItem(at: first.appending(path: "big"), to: second.appending(path: "moved"))
        let linked = FileSystem.diskUsage(of: [first, second], entryLimit: 100)
        #expect(linked[0].bytes == alone[0].bytes)
        #expect(linked[1].bytes == empty[1].bytes)
    }

    @Test("the disk meter says when it stopped at its entry or depth limit, and counts whole below them")
    func meterLimits() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "opensharing-meter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try populate(base, count: 50, nested: 10)
        let whole = FileSystem.diskUsage(of: [base], entryLimit: 1000, depthLimit: 64)[0]
        #expect(!whole.reachedLimit && whole.bytes > 0)
        #expect(FileSystem.diskUsage(of: [base], entryLimit: 20, depthLimit: 64)[0].reachedLimit)
        #expect(FileSystem.diskUsage(of: [base], entryLimit: 1000, depthLimit: 5)[0].reachedLimit)
        #expect(FileSystem.regularFiles(beneath: base, entryLimit: 1000).count == 60)
        #expect(FileSystem.regularFiles(beneath: base, entryLimit: 1000).contains("d/d/file"))
    }
}
