import Foundation
import OpenUniformTypeIdentifiers

/// A file in a temporary directory of its own, which `remove()` removes: a provider's copy kept past its
/// completion handler, a copy handed to a receiver, or bytes written for an importer that wants a file.
struct KeptFile: Sendable {
    let url: URL
    private let directory: URL

    /// A file placed by `place` in a new directory under `root` (the process's temporary directory by default).
    private init(name: String, under root: URL = FileManager.default.temporaryDirectory, _ place: (URL) throws -> Void) throws {
        directory = root.appendingPathComponent("OpenSharing-transfer-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        url = directory.appendingPathComponent(name)
        do { try place(url) } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Keeps a provider's copy past its completion handler: moved beside the directory the provider made for it,
    /// on the same file system, so the move is a rename whatever the file's size.
    init(moving file: URL) throws {
        let root = file.deletingLastPathComponent().deletingLastPathComponent()
        try self.init(name: file.lastPathComponent, under: root) { try FileManager.default.moveItem(at: file, to: $0) }
    }

    /// A copy of `file`, under its name.
    init(copying file: URL) throws {
        try self.init(name: file.lastPathComponent) { try FileManager.default.copyItem(at: file, to: $0) }
    }

    /// `data` in a file named `data`, with `type`'s extension when it has one.
    init(holding data: Data, type: UTType?) throws {
        let name = "data" + (type?.preferredFilenameExtension.map { ".\($0)" } ?? "")
        try self.init(name: name) { try data.write(to: $0, options: .withoutOverwriting) }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
