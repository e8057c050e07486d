import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI

extension MatrixCell {
    /// The `sharing` arguments that run this cell alone (`run …` or `notify …`): the one rendering of a cell
    /// as a command, which `sharing run` and `sharing notify` parse back into the same cell.
    public var arguments: [String] {
        var words: [String]
        switch kind {
        case .share:
            words = ["run", bundle]
            if let fixture { words += ["--share", fixture] }
            if let host { words += ["--host", host.name] }
            words += content.files.flatMap { ["--file", $0] } + content.urls.flatMap { ["--url", $0] } + content.texts.flatMap { ["--text", $0] }
            if let title = content.title { words += ["--title", title] }
            if user != .post { words += ["--user", user.rawValue] }
        case .notifications:
            words = ["notify", bundle] + payloads.flatMap { ["--payload", $0] }
            if let dataStore { words += ["--data-store", dataStore] }
            if allowsFiltering { words.append("--allow-filtering") }
        }
        words += ["--device", device?.name ?? "none"]
        words += faults.flatMap { ["--fault", $0.description] }
        if let memoryLimit { words += ["--memory-limit", Self.size(memoryLimit)] }
        if let diskLimit { words += ["--disk-limit", Self.size(diskLimit)] }
        if let timeout { words += ["--timeout", timeout == timeout.rounded() && abs(timeout) < 1e15 ? String(Int(timeout)) : String(timeout)] }
        if let appGroup { words += ["--app-group", appGroup] }
        if ignoresActivation { words.append("--ignore-activation") }
        return words
    }

    /// The command that runs this cell alone, as a POSIX shell reads it: `program` (`sharing` on the PATH, or
    /// the path it was run as) and the arguments, each quoted as the shell needs.
    public func reproduce(program: String = "sharing") -> String {
        ([program] + arguments).map(Self.quoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats specially, else
    /// in single quotes (a quote inside as `'\''`).
    static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./=:,@%+".unicodeScalars.contains($0)) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A size as `--memory-limit` takes it: in MB or KB when whole, else bytes.
    static func size(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20)MB" }
        if bytes % (1 << 10) == 0 { return "\(bytes >> 10)KB" }
        return String(bytes)
    }

    /// Checks that the cell is one that can run: its fields agree with its kind and with each other.
    ///
    /// - Throws: `CellError` (`.invalidCell`) naming the field and what is wrong.
    public func validate() throws(CellError) {
        func refuse(_ field: String, _ problem: String) -> CellError { CellError(.invalidCell, field: field, problem) }
        guard !bundle.isEmpty else { throw refuse("bundle", "names no bundle") }
        switch kind {
        case .share:
            if fixture != nil && host != nil { throw refuse("fixture", "a share is a fixture or a host's, not both") }
            if fixture != nil && !content.isEmpty { throw refuse("fixture", "files, URLs, text and a title go with a host, not a fixture") }
            if fixture == nil && host == nil && content.isEmpty { throw refuse("content", "shares nothing: give a fixture, a host, or files, URLs or text") }
            if let url = content.urls.first(where: { URL(string: $0)?.scheme == nil }) { throw refuse("urls", "'\(url)' is not an absolute URL") }
            if dataStore != nil || allowsFiltering { throw refuse("dataStore", "a data store belongs to a notification service's cell") }
        case .notifications:
            if host != nil || fixture != nil || !content.isEmpty || ignoresActivation {
                throw refuse("payloads", "a notification service's cell is given payloads, not a share")
            }
            if let fault = faults.first(where: { !$0.appliesToNotifications }) {
                throw refuse("faults", "\(fault) is a fault of a share's loads; a notification service loads nothing from its host")
            }
            if user != .none { throw refuse("user", "no person acts in a notification service's cell: its user is none") }
            if diskLimit != nil { throw refuse("diskLimit", "a notification service's disk is its point's") }
        }
        if let timeout, !(timeout > 0 && timeout.isFinite && timeout <= 86_400) { throw refuse("timeout", "must be more than 0 seconds and at most a day") }
        // A number with no unit is bytes: `120` is 120 bytes, which is said, with what was likely meant.
        for (field, limit) in [("memoryLimit", memoryLimit), ("diskLimit", diskLimit)] {
            guard let limit, limit < 1 << 20 else { continue }
            throw refuse(field, "is \(limit) byte\(limit == 1 ? "" : "s") (a number with no unit is bytes); a limit is at least 1MB: write \(limit)MB for \(limit) megabytes")
        }
    }
}
