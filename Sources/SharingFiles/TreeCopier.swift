import Foundation

/// Copies a directory tree: directories and regular files, and symbolic links only while they point inside
/// the tree. A link that leads out of it (absolute, or `..` past the root), a FIFO, a socket or a device is
/// left out and reported, never followed: a shared directory cannot make a copy read what it does not hold.
package enum TreeCopier {
    /// Deepest nesting copied; deeper trees are refused (a hostile tree can be arbitrarily deep).
    package static let maximumDepth = 64
    /// Most entries copied from one tree.
    package static let maximumEntries = 100_000

    package struct Result: Sendable, Equatable {
        package var files = 0
        package var directories = 0
        package var bytes: Int64 = 0
        /// Paths (relative to the tree) of what was left out, and why.
        package var skipped: [Skipped] = []
    }

    package struct Skipped: Sendable, Equatable {
        package var path: String
        package var reason: String
    }

    /// The total size of the regular files in a tree, for progress; links are not followed.
    package static func size(of root: String) -> Int64 {
        var total: Int64 = 0, entries = 0
        func walk(_ path: String, depth: Int) {
            guard depth <= maximumDepth, let names = try? Syscall.contentsOfDirectory(path) else { return }
            for name in names {
                entries += 1
                if entries > maximumEntries { return }
                let child = path + "/" + name
                guard let status = try? Syscall.linkStatus(child) else { continue }
                if Syscall.isRegularFile(status) { total += Int64(status.st_size) }
                if Syscall.isDirectory(status) { walk(child, depth: depth + 1) }
            }
        }
        walk(root, depth: 0)
        return total
    }

    /// Copies the directory at `source` to `destination`, which must not exist.
    ///
    /// - Parameter progress: called with the bytes copied so far; returning `false` cancels.
    /// - Throws: `FileSystemError`; what was copied is removed on failure or cancellation.
    package static func copyTree(from source: String, to destination: String,
                                 progress: (Int64) -> Bool = { _ in true }) throws(FileSystemError) -> Result {
        guard let status = try Syscall.status(source), Syscall.isDirectory(status) else {
            throw FileSystemError(.wrongKind, operation: "copy", path: source, detail: "not a directory")
        }
        var result = Result()
        do {
            try copyDirectory(source, to: destination, relative: "", depth: 0, result: &result, progress: progress)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
        return result
    }

    private static func copyDirectory(
        _ source: String, to destination: String, relative: String, depth: Int,
        result: inout Result, progress: (Int64) -> Bool
    ) throws(FileSystemError) {
        guard depth <= maximumDepth else {
            throw FileSystemError(.limitExceeded, operation: "copy", path: source, detail: "nested deeper than \(maximumDepth) directories")
        }
        try Syscall.makeDirectory(destination, mode: 0o755)
        result.directories += 1
        for name in try Syscall.contentsOfDirectory(source) {
            if result.files + result.directories > maximumEntries {
                throw FileSystemError(.limitExceeded, operation: "copy", path: source, detail: "more than \(maximumEntries) entries")
            }
            let from = source + "/" + name, to = destination + "/" + name
            let path = relative.isEmpty ? name : relative + "/" + name
            guard let status = try Syscall.linkStatus(from) else { continue }
            if Syscall.isDirectory(status) {
                try copyDirectory(from, to: to, relative: path, depth: depth + 1, result: &result, progress: progress)
            } else if Syscall.isRegularFile(status) {
                let before = result.bytes
                let copied = try FileCopier.copyFile(from: from, to: to, followSymlinks: false) { progress(before + $0) }
                result.bytes += copied.bytes
                result.files += 1
            } else if Syscall.isSymbolicLink(status) {
                let target = try Syscall.readSymbolicLink(from)
                if staysInside(target: target, linkPath: path) {
                    try Syscall.makeSymbolicLink(target, at: to)
                    result.files += 1
                } else {
                    result.skipped.append(Skipped(path: path, reason: "a link to \(target), outside the directory"))
                }
            } else {
                result.skipped.append(Skipped(path: path, reason: "not a regular file, directory or link"))
            }
        }
    }

    /// Whether a link's target stays inside the tree, however the links inside it resolve: it is relative,
    /// climbs with `..` only at its start and no higher than the tree's root, and then only descends. A
    /// `..` after a name is refused, since the name may be a link elsewhere (`dot → .` makes
    /// `dot/dot/../x` lexically inside but physically outside). Links inside the tree are copied as links,
    /// so a target inside resolves inside the copy too.
    static func staysInside(target: String, linkPath: String) -> Bool {
        guard !target.hasPrefix("/") else { return false }
        var depth = linkPath.split(separator: "/").count - 1
        var descending = false
        for component in target.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            if component == ".." {
                if descending || depth == 0 { return false }
                depth -= 1
            } else {
                descending = true
            }
        }
        return true
    }
}
