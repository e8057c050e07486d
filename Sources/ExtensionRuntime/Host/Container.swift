import Foundation
import SharingSystem

/// An extension's container: the directory it lives and writes in (its HOME and TMPDIR), with the log of its
/// standard output and error beside, and the host's own directory for what it hands the extension (copies of
/// directories it shares), which the extension cannot write. Both are removed when the run ends, by
/// descriptor, never following a link, and both are named for the host, so that the next host removes those
/// of one that was killed.
struct Container {
    /// `PID-NAME-XXXXXX`, PID the host's.
    let url: URL
    /// The host's directory of load copies, outside the container.
    let store: TemporaryDirectory

    var temporary: URL { url.appendingPathComponent("tmp") }
    var log: URL { url.appendingPathComponent("log") }

    /// Where this user's extensions' containers are: one directory per user, so that two users' hosts on one
    /// machine (two CI jobs) neither share nor sweep each other's.
    static let root = FileManager.default.temporaryDirectory.appending(component: "opensharing-extensions-\(Processes.user)")

    /// Makes a container for `bundle`. The containers of hosts that died before they could remove theirs are
    /// removed too, once per process, on a thread of the platform layer's while the run goes on: never before a
    /// run can start (`waitForTidying()` at its end).
    init(for bundle: String) throws(SystemError) {
        _ = Self.tidying
        try FileSystem.createDirectories(Self.root)
        // Made by this user, or refused: another user's directory (or a link) there would hold, or see, its containers.
        guard let root = try FileSystem.status(Self.root, followingLinks: false), root.kind == .directory, root.owner == Processes.user else {
            throw SystemError(.createDirectory, .wrongKind("not a directory of this user's"), path: Self.root.path)
        }
        url = try FileSystem.createUniqueDirectory(in: Self.root, prefix: "\(Processes.current)-\(bundle)-")
        do {
            try FileSystem.createDirectory(url.appendingPathComponent("tmp"))
            // Beside the containers, named for this host, so that a killed host's is swept with its container.
            store = try TemporaryDirectory(in: Self.root, prefix: "\(Processes.current)-store-")
        } catch {
            try? FileSystem.removeTree(url)
            throw error
        }
    }

    /// Removes the container and the store, with everything in them.
    func remove() {
        try? FileSystem.removeTree(url)
        store.remove()
    }

    /// The removal of dead hosts' containers, started when the first container is made.
    private static let tidying: DispatchGroup = {
        let group = DispatchGroup()
        group.enter()
        BlockingThreads.submit {
            removeContainersOfDeadHosts()
            group.leave()
        }
        return group
    }()

    /// Waits for the removal of dead hosts' containers this process started, if it did: a run that ends returns
    /// with it done, so that a host that runs one extension and exits leaves none behind either.
    static func waitForTidying() {
        tidying.wait()
    }

    /// Removes the containers of hosts that died before they could: a host killed mid-request leaves its
    /// extension's container behind, and the next host tidies.
    static func removeContainersOfDeadHosts() {
        for name in (try? FileSystem.contentsOfDirectory(root)) ?? [] {
            guard let host = name.split(separator: "-").first.flatMap({ Int32($0) }), host > 0, !Processes.exists(host) else { continue }
            try? FileSystem.removeTree(root.appending(component: name))
        }
    }
}
