import Foundation
import SharingSystem

/// The cgroup tier of the memory limit, where the host is given a delegated, writable cgroup v2 directory: a
/// child cgroup per extension with `memory.max` at the limit and `memory.swap.max` at 0, joined by the
/// extension before its program runs, so that the kernel enforces the limit; an OOM kill shows in
/// `memory.events` (`oom_kill`). Only a directory the host was given is written, and only by creating a child
/// in it: the runtime never creates or writes other cgroups.
struct MemoryCgroup {
    let directory: URL
    /// `cgroup.procs`, open for the child to join.
    let processes: OpenFile

    init(in parent: URL, name: String, limit: Int) throws(SystemError) {
        directory = try FileSystem.createUniqueDirectory(in: parent, prefix: "opensharing-\(name)-")
        do {
            try Self.write("\(limit)\n", to: directory.appending(component: "memory.max"))
            try Self.write("0\n", to: directory.appending(component: "memory.swap.max"))
            processes = try OpenFile.replacing(directory.appending(component: "cgroup.procs"))
        } catch {
            Self.remove(directory)
            throw error
        }
    }

    private static func write(_ text: String, to file: URL) throws(SystemError) {
        try OpenFile.replacing(file).write(Data(text.utf8))
    }

    /// How many processes the kernel killed in the cgroup for going over `memory.max`.
    var oomKills: Int { value(of: "oom_kill", in: "memory.events") ?? 0 }

    /// The most memory the cgroup used (`memory.peak`, where the kernel has it), in bytes.
    var peak: Int? {
        guard let text = try? OpenFile.reading(directory.appending(component: "memory.peak"), regularOnly: false).readAll(limit: 4096) else { return nil }
        return Int(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func value(of key: String, in file: String) -> Int? {
        guard let text = try? OpenFile.reading(directory.appending(component: file), regularOnly: false).readAll(limit: 64 << 10) else { return nil }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int(fields[1]) }
        }
        return nil
    }

    /// Removes the child cgroup once its process has been reaped.
    func remove() {
        Self.remove(directory)
    }

    private static func remove(_ directory: URL) {
        // A cgroup is removed with rmdir, its control files and all; a directory standing in for one (in the
        // tests) holds real files.
        if (try? FileSystem.removeDirectory(directory)) == nil { try? FileSystem.removeTree(directory) }
    }
}
