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
