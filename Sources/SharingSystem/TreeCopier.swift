package import Foundation
import SystemPackage

/// Directory trees: walking, measuring and copying them. Symbolic links are copied only while they point
/// inside the tree; a link that leads out (absolute, or `..` past the root), a FIFO, a socket or a device is
/// left out and reported, never followed: a shared directory cannot make a copy read what it does not hold.
package enum TreeCopier {
    /// Deepest nesting walked; deeper trees are refused (a hostile tree can be arbitrarily deep).
    package static let maximumDepth = 64
    /// Most entries walked in one tree.
    package static let maximumEntries = 100_000

    /// One entry of a tree, by its path relative to the root.
    package struct Entry: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            case directory
            case file(size: Int64)
            case link(target: String)
            /// A FIFO, socket or device: never opened.
            case other
        }

        package var path: String
        package var kind: Kind
    }

    /// Every entry below `root` (the root itself not included), parents before children, in byte order of
    /// the paths. Links are not followed.
    ///
    /// - Throws: `SystemError` with `.limitExceeded` past `maximumDepth` or `maximumEntries`.
    package static func walk(_ root: URL) throws(SystemError) -> [Entry] {
        var entries: [Entry] = []
        func visit(_ relative: String, depth: Int) throws(SystemError) {
            guard depth <= maximumDepth else {
                throw SystemError(.list, .limitExceeded("nested deeper than \(maximumDepth) directories"), path: root.path)
            }
            let directory = relative.isEmpty ? root : root.appending(path: relative, directoryHint: .isDirectory)
            for name in try FileSystem.contentsOfDirectory(directory) {
                guard entries.count < maximumEntries else {
                    throw SystemError(.list, .limitExceeded("more than \(maximumEntries) entries"), path: root.path)
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                let url = directory.appending(component: name)
                guard let status = try FileSystem.status(url, followingLinks: false) else { continue }
                switch status.kind {
                case .directory:
                    entries.append(Entry(path: path, kind: .directory))
                    try visit(path, depth: depth + 1)
                case .regular:
                    entries.append(Entry(path: path, kind: .file(size: status.size)))
                case .symbolicLink:
                    entries.append(Entry(path: path, kind: .link(target: try FileSystem.destinationOfSymbolicLink(url))))
                case .other:
                    entries.append(Entry(path: path, kind: .other))
                }
            }
        }
        try visit("", depth: 0)
        return entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The total size of the regular files in a tree; links are not followed.
    package static func size(of root: URL) throws(SystemError) -> Int64 {
        try walk(root).reduce(0) { total, entry in
            if case .file(let size) = entry.kind { return total + size }
            return total
        }
    }

    package struct Result: Sendable, Equatable {
        package var files = 0
        package var directories = 0
        package var bytes: Int64 = 0
        /// What was left out, and why.
        package var skipped: [Skipped] = []
    }

    package struct Skipped: Sendable, Equatable {
        /// The path relative to the tree.
        package var path: String
        package var reason: String
    }

    /// Copies the directory at `source` to `destination`, which must not exist.
    ///
    /// - Parameter progress: told the bytes copied so far; returning `false` cancels.
    /// - Throws: `SystemError`; what was copied is removed on failure or cancellation.
    /// Copies the directory `source` is open on, as `copyTree(from:to:)` copies one by its path.
    package static func copyTree(of source: OpenFile, to destination: URL) throws(SystemError) -> Result {
        try copyTree(from: URL(fileURLWithPath: "/proc/self/fd/\(source.descriptor)/."), to: destination)
    }

    package static func copyTree(from source: URL, to destination: URL,
                                 progress: (Int64) -> Bool = { _ in true }) throws(SystemError) -> Result {
        guard let status = try FileSystem.status(source), status.kind == .directory else {
            throw SystemError(.copy, .wrongKind("not a directory"), path: source.path)
        }
        var result = Result()
        do {
            let entries = try walk(source)
            try FileSystem.createDirectory(destination, permissions: .directoryDefault)
            result.directories += 1
            for entry in entries {
                let from = source.appending(path: entry.path), to = destination.appending(path: entry.path)
                switch entry.kind {
                case .directory:
                    try FileSystem.createDirectory(to, permissions: .directoryDefault)
                    result.directories += 1
                case .file:
                    let before = result.bytes
                    result.bytes += try FileCopier.copyFile(from: from, to: to, followingLinks: false) { progress(before + $0) }.bytes
                    result.files += 1
                case .link(let target):
                    if staysInside(target: target, linkPath: entry.path) {
                        try FileSystem.createSymbolicLink(at: to, to: target)
                        result.files += 1
                    } else {
                        result.skipped.append(Skipped(path: entry.path, reason: "a link to \(target), outside the directory"))
                    }
                case .other:
                    result.skipped.append(Skipped(path: entry.path, reason: "not a regular file, directory or link"))
                }
            }
        } catch {
            try? FileSystem.removeTree(destination)
            throw error
        }
        return result
    }

    /// Whether a link's target stays inside the tree, however the links inside it resolve: it is relative,
    /// climbs with `..` only at its start and no higher than the tree's root, and then only descends. A
    /// `..` after a name is refused, since the name may be a link elsewhere (`dot → .` makes
    /// `dot/dot/../x` lexically inside but physically outside). Links inside the tree are copied as links,
    /// so a target inside resolves inside the copy too.
    package static func staysInside(target: String, linkPath: String) -> Bool {
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
