import Foundation
import Testing

/// What the architecture says of the sources, checked on them: the operating system is called from
/// `SharingSystem` only.
@Suite("The platform layer")
struct ArchitectureTests {
    /// Every Swift file of `Sources` outside `SharingSystem`, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = repositoryRoot.appending(path: "Sources")
        let files = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return try files.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("SharingSystem/") }.map { path in
            (path, try String(contentsOf: root.appending(path: path), encoding: .utf8))
        }
    }

    @Test("no module but SharingSystem imports the C library or the C shim, calls a shim, or opens a path of /proc/self")
    func platformFenced() throws {
        let forbidden = [#"(?m)^\s*(public |package )?import (Glibc|Musl|Darwin|CSharingSystem)\b"#, #"\bcsharing_"#, #""/proc/self"#,
                         #"\b(usleep|pidfd_open|sendmsg|copy_file_range)\("#]
        var found: [String] = []
        for (path, text) in try Self.sources() {
            for pattern in forbidden where text.range(of: pattern, options: .regularExpression) != nil { found.append("\(path): \(pattern)") }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
