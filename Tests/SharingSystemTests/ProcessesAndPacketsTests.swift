import Foundation
@testable import SharingSystem
import SystemPackage
import Testing

@Suite("Packets between processes, memory files, and child processes")
struct ProcessesAndPacketsTests {
    @Test("a packet keeps its bytes and carries a sealed memory file the receiver reads but cannot change")
    func packetWithMemoryFile() throws {
        let (host, guest) = try PacketChannel.pair(name: "test")
        let payload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let memory = try MemoryFile.sealed(payload, name: "payload")
        try host.send([1, 2, 3], files: [memory])
        let packet = try #require(try guest.receive(capacity: 64))
        #expect(packet.bytes == [1, 2, 3])
        #expect(!packet.truncated)
        let file = try #require(packet.files.first)
        #expect(packet.files.count == 1)
        #expect(file.descriptor != memory.descriptor)
        #expect(MemoryFile.isSealed(file))
        #expect(try file.status().size == Int64(payload.count))
        #expect(try file.readAll() == payload)
        #expect(throws: SystemError(.write, .system(.notPermitted), path: "a descriptor from test")) {
            try file.write(Data([0]))
        }
    }

    @Test("a packet larger than the receiver allows is flagged truncated; end of file is nil")
    func truncationAndEndOfFile() throws {
        var (host, guest): (PacketChannel?, PacketChannel) = try PacketChannel.pair(name: "test")
        try host!.send(Array(repeating: 7, count: 100))
        let packet = try #require(try guest.receive(capacity: 10))
        #expect(packet.truncated)
        #expect(packet.bytes.count == 10)
        host = nil
        #expect(try guest.waitUntilReadable(timeout: .seconds(1)))
        #expect(try guest.receive(capacity: 10) == nil)
    }

    @Test("the peer of a socket pair is this process")
    func peerCredentials() throws {
        let (host, _) = try PacketChannel.pair(name: "test")
        #expect(try host.peerProcess() == Processes.current)
    }

    /// Runs `executable` with a fresh channel, its output into a temporary file; the output and how it ended.
    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                     dataLimit: Int? = nil) throws -> (output: String, termination: ChildProcess.Termination?) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("output")
        let output = try OpenFile.creating(log)
        let (_, guest) = try PacketChannel.pair(name: "child")
        let child = try ChildProcess.start(.init(
            executable: URL(fileURLWithPath: executable), arguments: arguments, environment: environment,
            directory: directory, channel: guest, output: output, dataLimit: dataLimit), name: "child")
        let termination = try child.waitForTermination(timeout: .seconds(20))
        return (try String(contentsOf: log, encoding: .utf8), termination)
    }

    @Test("a child gets only the environment given, and only descriptors 0 to 3")
    func isolation() throws {
        let environment = try run("/usr/bin/env", [], environment: ["ONLY": "this"])
        #expect(environment.output == "ONLY=this\n")
        #expect(environment.termination == .exited(0))
        // ls lists its own descriptors: the four given, and the one it opened to list the directory.
        let descriptors = try run("/bin/ls", ["/proc/self/fd"])
        let listed = descriptors.output.split(separator: "\n").compactMap { Int($0) }.sorted()
        #expect(listed.prefix(4) == [0, 1, 2, 3])
        #expect(listed.count == 5)
    }

    @Test("how a child ended: an exit status, or the signal that killed it")
    func terminations() throws {
        #expect(try run("/bin/sh", ["-c", "exit 3"]).termination == .exited(3))
        #expect(try run("/bin/sh", ["-c", "kill -9 $$"]).termination == .signalled(9))
        #expect(ChildProcess.Termination.signalled(9).description == "killed by signal 9 (SIGKILL)")
    }

    @Test("a data-segment limit applies in the child")
    func dataLimit() throws {
        let limited = try run("/bin/sh", ["-c", "ulimit -d"], dataLimit: 512 << 20)
        #expect(limited.output == "\(512 << 10)\n")
    }

    @Test("a program that does not exist fails to start with the system's reason and its path")
    func missingProgram() throws {
        let (_, guest) = try PacketChannel.pair(name: "child")
        #expect(throws: SystemError(.spawn, .system(.noSuchFileOrDirectory), path: "/nonexistent/program")) {
            try ChildProcess.start(.init(executable: URL(fileURLWithPath: "/nonexistent/program"), environment: [:],
                                         directory: URL(fileURLWithPath: "/"), channel: guest), name: "child")
        }
    }

    @Test("releasing a running child kills and reaps it")
    func releaseKills() throws {
        let (_, guest) = try PacketChannel.pair(name: "child")
        var child: ChildProcess? = try ChildProcess.start(.init(
            executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
            directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
        let identifier = try #require(child?.identifier)
        #expect(Processes.exists(identifier))
        child = nil
        #expect(!Processes.exists(identifier))
    }

    @Test("the footprint is private dirty memory plus swap, from smaps_rollup")
    func footprint() throws {
        let text = """
        55d0c0000000-7ffd00000000 ---p 00000000 00:00 0                          [rollup]
        Rss:               10240 kB
        Private_Clean:      1024 kB
        Private_Dirty:      4096 kB
        Swap:                512 kB
        SwapPss:             512 kB
        """
        #expect(ChildProcess.footprint(smapsRollup: text) == (4096 + 512) * 1024)
        #expect(ChildProcess.footprint(smapsRollup: "nothing here") == nil)
        let (_, guest) = try PacketChannel.pair(name: "child")
        let child = try ChildProcess.start(.init(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
                                                 directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
        #expect((child.footprint() ?? 0) > 0)
    }

    @Test("resident memory is anonymous and shared memory plus swap, from status")
    func residentMemory() throws {
        let text = "Name:\tsleep\nVmRSS:\t   21916 kB\nRssAnon:\t    1900 kB\nRssFile:\t   20016 kB\nRssShmem:\t      64 kB\nVmSwap:\t     128 kB\n"
        #expect(ChildProcess.residentMemory(status: text) == (1900 + 64 + 128) * 1024)
        #expect(ChildProcess.residentMemory(status: "Name:\tsleep\n") == nil)
        let (_, guest) = try PacketChannel.pair(name: "child")
        let child = try ChildProcess.start(.init(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
                                                 directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
        // A process without dirty shared file pages: once it has settled after starting (the two are read
        // one after the other), the two measures agree, within what the kernel's per-CPU counters may lag.
        var agreed = false
        for _ in 0..<200 where !agreed {
            let resident = try #require(child.residentMemory())
            agreed = resident > 0 && abs(resident - (child.footprint() ?? 0)) <= 256 << 10
            if !agreed { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(agreed, "resident \(child.residentMemory() ?? -1), footprint \(child.footprint() ?? -1)")
    }

    @Test("a FIFO is pumped into a pipe to its end, its writer awaited rather than taken for its end")
    func pumpToTheEnd() throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let fifo = directory.url.appendingPathComponent("stream")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        // Opened before any writer exists: an empty FIFO then reads as ended unless the pump waits.
        let source = try OpenFile.reading(fifo, regularOnly: false)
        let pumped = Locked<(bytes: Int64, ended: Bool)?>(nil)
        let reading = try Self.pumping(source, into: pumped)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            let writer = FileHandle(forWritingAtPath: fifo.path)
            writer?.write(bytes)
            try? writer?.close()
        }
        var received = Data()
        try reading.forEachChunk(size: 1 << 16) { chunk in
            received.append(contentsOf: chunk)
            return true
        }
        #expect(received == bytes)
        #expect(pumped.withLock { $0 }?.bytes == Int64(bytes.count))
        #expect(pumped.withLock { $0 }?.ended == true)
    }

    @Test("a pump stops, without SIGPIPE, when the pipe's reader goes away")
    func pumpToAReaderThatLeaves() throws {
        // A device that never ends.
        let source = try OpenFile.reading(URL(fileURLWithPath: "/dev/zero"), regularOnly: false)
        let pumped = Locked<(bytes: Int64, ended: Bool)?>(nil)
        var reading: OpenFile? = try Self.pumping(source, into: pumped)
        var first = [UInt8](repeating: 1, count: 1 << 16)
        let count = try first.withUnsafeMutableBytes { try reading!.read(into: $0) }
        #expect(count > 0 && first.prefix(count).allSatisfy { $0 == 0 })
        reading = nil
        let deadline = Date().addingTimeInterval(5)
        while pumped.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(pumped.withLock { $0 }?.ended == false)
        #expect((pumped.withLock { $0 }?.bytes ?? 0) >= Int64(count))
    }

    /// Starts pumping `source` into a new pipe on a blocking thread; the pipe's reading end. The writing end
    /// is the pump's alone, so the reader sees the end when the pump ends.
    private static func pumping(_ source: OpenFile, into result: Locked<(bytes: Int64, ended: Bool)?>) throws -> OpenFile {
        let (reading, writing) = try StreamPipe.make(name: "stream")
        let box = Locked<OpenFile?>(writing)
        BlockingThreads.submit {
            let pumped: (bytes: Int64, ended: Bool)? = {
                guard let end = box.withLock({ $0 }) else { return nil }
                return try? StreamPipe.pump(from: source, into: end)
            }()
            result.withLock { $0 = pumped }
            box.withLock { $0 = nil }
        }
        return reading
    }
}
