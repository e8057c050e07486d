public import Foundation
import SharingFiles

/// The handoff between a share extension and its app: a directory in their shared container, used the way
/// maildir uses one, so that any number of writers and a reader need no lock.
///
/// - Writers build an item under `tmp/`, make it durable (every file and directory flushed), then rename it
///   into `new/`: an item appears whole or not at all, whenever the writer dies.
/// - The reader lists `new/` and claims an item by renaming it into `cur/`; of several claimers exactly one
///   wins. It acknowledges the item when done, which removes it. A claim not acknowledged within
///   `claimLease` (its claimer crashed) goes back to `new/` when garbage is next collected.
/// - `collectGarbage()` also removes what writers left in `tmp/` when they died.
///
/// Identifiers sort by the time a delivery began: `TIME.PID.RANDOM`, the time in milliseconds and the
/// writer's process. One process's identifiers strictly increase, even within a millisecond.
public struct ShareInbox: Sendable {
    /// The inbox directory.
    public let url: URL
    /// How long a claim holds before its item may be claimed again.
    public let claimLease: Duration
    /// How old an unfinished delivery in `tmp/` must be to be collected while its writer still runs.
    public let staleAfter: Duration

    var root: String { url.path }
    var tmp: String { root + "/tmp" }
    var new: String { root + "/new" }
    var cur: String { root + "/cur" }

    /// Opens the inbox at `url`, creating it and its `tmp/`, `new/` and `cur/` directories if needed.
    public init(at url: URL, claimLease: Duration = .seconds(600), staleAfter: Duration = .seconds(86_400)) throws(InboxError) {
        self.url = url.standardizedFileURL
        self.claimLease = claimLease
        self.staleAfter = staleAfter
        do {
            try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
        } catch {
            throw InboxError("cannot create the inbox: \(error.localizedDescription)", path: self.url.path)
        }
        for directory in [tmp, new, cur] {
            try InboxError.wrap {
                // Several writers may open a new inbox at once: whoever makes a directory first, it is there.
                do {
                    try Syscall.makeDirectory(directory, mode: 0o700)
                } catch let error as FileSystemError where error.errno == EEXIST {}
                guard let status = try Syscall.linkStatus(directory), Syscall.isDirectory(status) else {
                    throw FileSystemError(.wrongKind, operation: "open the inbox at", path: directory, detail: "not a directory")
                }
            }
        }
    }

    // MARK: Writing

    /// Starts an item under `tmp/`; fill its `payloadDirectory` (and previews directory), then `deliver`.
    public func beginDelivery() throws(InboxError) -> InboxDelivery {
        try InboxDelivery(inbox: self, id: Self.makeIdentifier())
    }

    private static let lastMilliseconds = NSLock()
    private nonisolated(unsafe) static var lastIssued: UInt64 = 0

    static func makeIdentifier() -> String {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        // A burst of deliveries borrows the next milliseconds rather than tie, so the order stays the order begun.
        let milliseconds = lastMilliseconds.withLock {
            lastIssued = max(now, lastIssued + 1)
            return lastIssued
        }
        return String(format: "%013llx.%d.%08x", milliseconds, getpid(), UInt32.random(in: .min ... .max))
    }

    /// Whether a string is an identifier this inbox makes, and so safe as a name in its directories.
    public static func isIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 13, parts[2].count == 8, !parts[1].isEmpty, parts[1].count <= 10 else { return false }
        return parts[0].allSatisfy(\.isHexDigit) && parts[1].allSatisfy(\.isWholeNumber) && parts[2].allSatisfy(\.isHexDigit)
            && parts[0].allSatisfy(\.isASCII) && parts[1].allSatisfy(\.isASCII) && parts[2].allSatisfy(\.isASCII)
    }

    // MARK: Reading

    /// The delivered items not yet claimed, oldest first.
    public func pending() throws(InboxError) -> [InboxItem] {
        try items(in: new, state: .pending)
    }

    /// The items claimed and not yet acknowledged, oldest first.
    public func claimed() throws(InboxError) -> [InboxItem] {
        try items(in: cur, state: .claimed)
    }

    private func items(in directory: String, state: InboxItem.State) throws(InboxError) -> [InboxItem] {
        let names = try InboxError.wrap { try Syscall.contentsOfDirectory(directory) }
        // An item whose manifest cannot be read was not made by an inbox (deliveries are atomic): skip it.
        return names.filter(Self.isIdentifier).compactMap { try? InboxItem(directory: directory + "/" + $0, state: state) }
    }

    /// Claims an item: it moves to `cur/`, and no one else can claim it until acknowledged or its lease
    /// ends. `nil` when it is not pending (another reader won it, or it is gone).
    public func claim(id: String) throws(InboxError) -> InboxItem? {
        guard Self.isIdentifier(id) else { throw InboxError("not an inbox item identifier: \(id)", path: nil) }
        let claimed = cur + "/" + id
        do {
            try Syscall.renameNoReplace(new + "/" + id, to: claimed)
        } catch where error.errno == ENOENT || error.errno == EEXIST {
            return nil
        } catch {
            throw InboxError(error)
        }
        // The claim's time is the directory's modification time, which the lease is counted from.
        try InboxError.wrap { try Syscall.touch(claimed) }
        return try InboxError.wrap { () throws -> InboxItem in
            do {
                return try InboxItem(directory: claimed, state: .claimed)
            } catch {
                throw FileSystemError(.wrongKind, operation: "read the manifest of", path: claimed, detail: "\(error)")
            }
        }
    }

    /// Claims the oldest pending item this reader can win; `nil` when none is left.
    public func claimNext() throws(InboxError) -> InboxItem? {
        for item in try pending() {
            if let claimed = try claim(id: item.id) { return claimed }
        }
        return nil
    }

    /// Removes a claimed item, done with. It leaves `cur/` in one rename, so it is never seen half removed.
    public func acknowledge(_ item: InboxItem) throws(InboxError) {
        guard Self.isIdentifier(item.id) else { throw InboxError("not an inbox item identifier: \(item.id)", path: nil) }
        let doomed = tmp + "/" + item.id + ".acknowledged"
        do {
            try Syscall.renameNoReplace(cur + "/" + item.id, to: doomed)
        } catch where error.errno == ENOENT {
            throw InboxError("\(item.id) is not claimed (its lease may have ended, and another reader claimed it)", path: cur + "/" + item.id)
        } catch {
            throw InboxError(error)
        }
        try InboxError.wrap {
            try Syscall.flushDirectory(cur)
            try Syscall.removeTree(doomed)
        }
    }

    /// What `collectGarbage` did.
    public struct GarbageReport: Sendable, Equatable, Codable {
        /// Claims whose lease ended, returned to `new/`.
        public var returned: [String] = []
        /// Leftovers removed from `tmp/`: deliveries whose writer died, and acknowledged items.
        public var removed: [String] = []
    }

    /// Returns expired claims to `new/`, and removes from `tmp/` deliveries whose writer is gone (or that are
    /// older than `staleAfter`) and acknowledged items whose removal was interrupted.
    public func collectGarbage() throws(InboxError) -> GarbageReport {
        var report = GarbageReport()
        let now = Date()
        for id in try InboxError.wrap({ try Syscall.contentsOfDirectory(cur) }) where Self.isIdentifier(id) {
            guard let status = try? Syscall.linkStatus(cur + "/" + id) else { continue }
            let claimedAt = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
            guard now.timeIntervalSince(claimedAt) > claimLease.seconds else { continue }
            // Another reader may acknowledge or return it at the same moment: only one rename succeeds.
            if (try? Syscall.renameNoReplace(cur + "/" + id, to: new + "/" + id)) != nil { report.returned.append(id) }
        }
        for name in try InboxError.wrap({ try Syscall.contentsOfDirectory(tmp) }) {
            let path = tmp + "/" + name
            let id = name.hasSuffix(".acknowledged") ? String(name.dropLast(".acknowledged".count)) : name
            guard Self.isIdentifier(id) else { continue }
            if name == id {
                let writer = Int32(id.split(separator: ".")[1]) ?? 0
                let started = Date(timeIntervalSince1970: TimeInterval(UInt64(id.prefix(13), radix: 16) ?? 0) / 1000)
                let writing = writer == getpid() ? InboxDelivery.isOpen(id) : Syscall.processExists(writer)
                if writing && now.timeIntervalSince(started) <= staleAfter.seconds { continue }
            }
            try InboxError.wrap { try Syscall.removeTree(path) }
            report.removed.append(name)
        }
        if !report.returned.isEmpty { try InboxError.wrap { try Syscall.flushDirectory(new) } }
        return report
    }
}
