public import Foundation
import SharingSystem
import PackageSupport
import SystemPackage

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

    var tmp: URL { url.appending(component: "tmp", directoryHint: .isDirectory) }
    var new: URL { url.appending(component: "new", directoryHint: .isDirectory) }
    var cur: URL { url.appending(component: "cur", directoryHint: .isDirectory) }

    /// The memory one delivery in flight uses: the copy engine's buffer, and the one the copy is read back
    /// through to be hashed (or, for a tree, the hash's).
    public static let memoryPerDelivery = FileCopier.bufferSize + max(FileCopier.readBackSize, ContentHash.readSize)

    /// Opens the inbox at `url`, creating it and its `tmp/`, `new/` and `cur/` directories if needed.
    public init(at url: URL, claimLease: Duration = .seconds(600), staleAfter: Duration = .seconds(86_400)) throws(InboxError) {
        self.url = url.standardizedFileURL
        self.claimLease = claimLease
        self.staleAfter = staleAfter
        try InboxError.wrap { () throws(SystemError) in try FileSystem.createDirectories(self.url) }
        for directory in [tmp, new, cur] {
            // Several writers may open a new inbox at once: whoever makes a directory first, it is there.
            let status = try InboxError.wrap { () throws(SystemError) in
                do throws(SystemError) {
                    try FileSystem.createDirectory(directory)
                } catch where error.code == .system(.fileExists) {}
                return try FileSystem.status(directory, followingLinks: false)
            }
            guard status?.kind == .directory else { throw InboxError(.notAnInbox, "\(directory.path) is not a directory", path: directory.path) }
        }
    }

    // MARK: Writing

    /// Starts an item under `tmp/`: give it a payload (and previews), then `deliver` it.
    public func beginDelivery() throws(InboxError) -> InboxDelivery {
        try InboxDelivery(inbox: self, id: Self.makeIdentifier())
    }

    private static let lastIssued = Locked<UInt64>(0)

    static func makeIdentifier() -> String {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        // A burst of deliveries borrows the next milliseconds rather than tie, so the order stays the order begun.
        let milliseconds = lastIssued.withLock { last in
            last = max(now, last + 1)
            return last
        }
        func hex(_ value: some BinaryInteger, _ width: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(hex(milliseconds, 13)).\(Processes.current).\(hex(UInt32.random(in: .min ... .max), 8))"
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

    private func items(in directory: URL, state: InboxItem.State) throws(InboxError) -> [InboxItem] {
        let names = try InboxError.wrap { () throws(SystemError) in try FileSystem.contentsOfDirectory(directory) }
        // An item whose manifest cannot be read was not made by an inbox (deliveries are atomic): skip it.
        return names.filter(Self.isIdentifier).compactMap {
            try? InboxItem(directory: directory.appending(component: $0, directoryHint: .isDirectory), state: state)
        }
    }

    /// Claims an item: it moves to `cur/`, and no one else can claim it until acknowledged or its lease
    /// ends. `nil` when it is not pending (another reader won it, or it is gone).
    public func claim(id: String) throws(InboxError) -> InboxItem? {
        guard Self.isIdentifier(id) else { throw InboxError(.invalidIdentifier, "not an inbox item identifier: \(id)") }
        let claimed = cur.appending(component: id, directoryHint: .isDirectory)
        do {
            try FileSystem.renameNoReplace(new.appending(component: id), to: claimed)
        } catch where error.code == .system(.noSuchFileOrDirectory) || error.code == .system(.fileExists) {
            return nil
        } catch {
            throw InboxError(error)
        }
        // The claim's time is the directory's modification time, which the lease is counted from.
        try InboxError.wrap { () throws(SystemError) in try FileSystem.touch(claimed) }
        return try InboxItem(directory: claimed, state: .claimed)
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
        guard Self.isIdentifier(item.id) else { throw InboxError(.invalidIdentifier, "not an inbox item identifier: \(item.id)") }
        let doomed = tmp.appending(component: item.id + ".acknowledged", directoryHint: .isDirectory)
        let claimed = cur.appending(component: item.id, directoryHint: .isDirectory)
        do {
            try FileSystem.renameNoReplace(claimed, to: doomed)
        } catch where error.code == .system(.noSuchFileOrDirectory) {
            throw InboxError(.notClaimed, "\(item.id) is not claimed (its lease may have ended, and another reader claimed it)", path: claimed.path)
        } catch {
            throw InboxError(error)
        }
        try InboxError.wrap { () throws(SystemError) in
            try FileSystem.flushDirectory(cur)
            try FileSystem.removeTree(doomed)
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
        for id in try InboxError.wrap({ () throws(SystemError) in try FileSystem.contentsOfDirectory(cur) }) where Self.isIdentifier(id) {
            let claimed = cur.appending(component: id, directoryHint: .isDirectory)
            guard let claimedAt = try? FileSystem.status(claimed, followingLinks: false)?.modificationTime else { continue }
            guard now.timeIntervalSince(claimedAt) > claimLease / .seconds(1) else { continue }
            // Another reader may acknowledge or return it at the same moment: only one rename succeeds.
            if (try? FileSystem.renameNoReplace(claimed, to: new.appending(component: id))) != nil { report.returned.append(id) }
        }
        for name in try InboxError.wrap({ () throws(SystemError) in try FileSystem.contentsOfDirectory(tmp) }) {
            let id = name.hasSuffix(".acknowledged") ? String(name.dropLast(".acknowledged".count)) : name
            guard Self.isIdentifier(id) else { continue }
            if name == id {
                let writer = Int32(id.split(separator: ".")[1]) ?? 0
                let started = Date(timeIntervalSince1970: TimeInterval(UInt64(id.prefix(13), radix: 16) ?? 0) / 1000)
                let writing = writer == Processes.current ? InboxDelivery.isOpen(id) : Processes.exists(writer)
                if writing && now.timeIntervalSince(started) <= staleAfter / .seconds(1) { continue }
            }
            try InboxError.wrap { () throws(SystemError) in try FileSystem.removeTree(tmp.appending(component: name)) }
            report.removed.append(name)
        }
        if !report.returned.isEmpty { try InboxError.wrap { () throws(SystemError) in try FileSystem.flushDirectory(new) } }
        return report
    }
}
