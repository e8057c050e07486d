import Foundation
@testable import SharingSystem
import PackageSupport
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

    @Test("a peer that closes with the host's packets unread: what it sent before is still read, then the end of file")
    func closedWithPacketsUnread() throws {
        var (host, guest): (PacketChannel, PacketChannel?) = try PacketChannel.pair(name: "test")
        try host.send([1])
        try guest!.send([2, 3])
        // The kernel marks the host's end reset (the guest had a packet unread), an error reported before
        // the guest's own packet.
        guest = nil
        #expect(try host.receive(capacity: 8)?.bytes == [2, 3])
        #expect(try host.receive(capacity: 8) == nil)
    }

    @Test("a FIFO named to read its file system is not opened for reading: no writer finds a reader in it")
    func namingAFIFO() throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let fifo = directory.url.appendingPathComponent("stream")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let named = try OpenFile.naming(fifo)
        #expect(named.pseudoFileSystem == nil)
        // A writer that does not wait finds no reader (ENXIO); read-opened, the FIFO would have one.
        #expect(open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) == -1 && errno == ENXIO)
        let reading = try OpenFile.reading(fifo, regularOnly: false)
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(writer >= 0)
        if writer >= 0 { close(writer) }
        withExtendedLifetime((named, reading)) {}
    }

    @Test("the peer of a socket pair is this process")
    func peerCredentials() throws {
        let (host, _) = try PacketChannel.pair(name: "test")
        #expect(try host.peerProcess() == Processes.current)
    }

    @Test("a FIFO is pumped into a pipe to its end, its writer awaited rather than taken for its end")
    func pumpToTheEnd() async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let fifo = directory.url.appendingPathComponent("stream")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        // Opened before any writer exists: an empty FIFO then reads as ended unless the pump waits.
        let source = try OpenFile.reading(fifo, regularOnly: false)
        let pump = try Pumping(source, limit: .max)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            let writer = FileHandle(forWritingAtPath: fifo.path)
            writer?.write(bytes)
            try? writer?.close()
        }
        let received = try await blocking {
            var received = Data()
            try pump.reading!.forEachChunk(size: 1 << 16) { chunk in
                received.append(contentsOf: chunk)
                return true
            }
            return received
        }
        #expect(received == bytes)
        let result = await pump.result.value
        #expect(result.bytes == Int64(bytes.count))
        #expect(result.end == .sourceEnded)
    }

    @Test("a pump stops, without SIGPIPE, when the pipe's reader goes away")
    func pumpToAReaderThatLeaves() async throws {
        // A device that never ends.
        let pump = try Pumping(try OpenFile.reading(URL(fileURLWithPath: "/dev/zero"), regularOnly: false), limit: .max)
        var first = [UInt8](repeating: 1, count: 1 << 16)
        let count = try first.withUnsafeMutableBytes { try pump.reading!.read(into: $0) }
        #expect(count > 0 && first.prefix(count).allSatisfy { $0 == 0 })
        pump.reading = nil
        let result = await pump.result.value
        #expect(result.end == .readerLeft)
        #expect(result.bytes >= Int64(count))
    }

    @Test("a pump stops at its limit, and when told to while its reader holds the pipe without reading")
    func pumpLimitAndStop() async throws {
        let limited = try Pumping(try OpenFile.reading(URL(fileURLWithPath: "/dev/zero"), regularOnly: false), limit: 300_000)
        let total = try await blocking {
            var total = 0
            try limited.reading!.forEachChunk(size: 1 << 16) { chunk in
                total += chunk.count
                return true
            }
            return total
        }
        #expect(total == 300_000)
        #expect(await limited.result.value.end == .limitReached)
        // A reader that never reads: the pipe fills, and the pump waits for room until it is stopped.
        let held = try Pumping(try OpenFile.reading(URL(fileURLWithPath: "/dev/zero"), regularOnly: false), limit: .max)
        try await Task.sleep(for: .milliseconds(200))
        #expect(held.result.current == nil)
        held.stop.signal()
        #expect(await held.result.value.end == .stopped)
    }

    /// A pump from `source` into a new pipe on a blocking thread, the pipe's reading end here. The writing end
    /// is the pump's alone, so the reader sees the end when the pump ends.
    private final class Pumping: @unchecked Sendable {
        var reading: OpenFile?
        let stop = try! Wakeup()
        let result = ReplyBox<(bytes: Int64, end: StreamPipe.PumpEnd)>()

        init(_ source: OpenFile, limit: Int64) throws {
            let (reading, writing) = try StreamPipe.make(name: "stream")
            self.reading = reading
            BlockingThreads.submit { [result, stop] in
                let pumped = try? StreamPipe.pump(from: source, into: writing, limit: limit, stop: stop)
                result.resolve(pumped ?? (0, .stopped))
            }
        }
    }

    @Test("a packet of no bytes is a packet, not the end; the end is nil")
    func emptyPacket() throws {
        var (host, guest): (PacketChannel?, PacketChannel) = try PacketChannel.pair(name: "test")
        try host!.send([])
        try host!.send([9])
        #expect(try guest.receive(capacity: 10)?.bytes == [])
        #expect(try guest.receive(capacity: 10)?.bytes == [9])
        host = nil
        #expect(try guest.receive(capacity: 10) == nil)
    }

    @Test("sending without waiting: a peer that does not read cannot hold the sender")
    func sendWithoutWaiting() throws {
        let (host, _guest) = try PacketChannel.pair(name: "test")
        var sent = 0
        while try host.sendWithoutWaiting(Array(repeating: 1, count: 4096)) { sent += 1 }
        #expect(sent > 0)
        withExtendedLifetime(_guest) {}
    }
}

@Suite("A process tree the host owns whole")
struct ProcessTreeTests {
    /// Starts `/bin/sh -c script` as a tree, its output into a file; the tree and the output's path.
    private static func start(_ script: String, pidNamespace: Bool = true, in directory: URL) throws -> ProcessTree {
        let (_, guest) = try PacketChannel.pair(name: "tree")
        let output = try OpenFile.creating(directory.appendingPathComponent("output"))
        return try ProcessTree.start(.init(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script],
                                           environment: ["PATH": "/usr/bin:/bin"], directory: directory, channel: guest,
                                           output: output, pidNamespace: pidNamespace), name: "tree")
    }

    private static func output(in directory: URL) -> String {
        (try? String(contentsOf: directory.appendingPathComponent("output"), encoding: .utf8)) ?? ""
    }

    @Test("each connect of the tree is seen before it is made, with its address, then goes on; none is seen after the tree ends",
          arguments: [true, false])
    func connectionsSeen(namespace: Bool) async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let server = try LoopbackFileServer(serving: directory.url)
        defer { server.stop() }
        let port = try #require(server.base.port)
        // bash connects a stream socket for /dev/tcp and a datagram one for /dev/udp; the stream's connect must
        // have reached the server for the line to be written.
        let (seen, termination, output) = try await blocking {
            let (_, guest) = try PacketChannel.pair(name: "tree")
            let output = try OpenFile.creating(directory.url.appendingPathComponent("output"))
            var specification = ProcessTree.Specification(
                executable: URL(fileURLWithPath: "/bin/bash"),
                arguments: ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port) && echo connected && echo >/dev/udp/127.0.0.1/9"],
                environment: ["PATH": "/usr/bin:/bin"], directory: directory.url, channel: guest, output: output, pidNamespace: namespace)
            specification.watchesConnections = true
            let tree = try ProcessTree.start(specification, name: "bash")
            defer { tree.end() }
            let watch = try #require(tree.connections)
            var seen: [ConnectionWatch.Connection] = []
            while let connection = watch.next() {
                seen.append(connection)
                watch.letGo(connection)
            }
            return (seen, tree.waitForTermination(timeout: .seconds(60)), Self.output(in: directory.url))
        }
        #expect(termination == .exited(0))
        #expect(output == "connected\n")
        let stream = seen.filter(\.isNetworkStream)
        #expect(stream.map(\.address) == ["127.0.0.1:\(port)"])
        #expect(seen.contains { !$0.isNetworkStream && $0.address == "127.0.0.1:9" })
    }

    @Test("a lookup's query is held with its bytes and can be refused at once; a connect beyond loopback can be refused; one to loopback goes on",
          arguments: [true, false])
    func lookupsHeld(namespace: Bool) async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let server = try LoopbackFileServer(serving: directory.url)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let script = """
            import socket
            try:
                socket.getaddrinfo("api.example.com", 443)
                print("resolved")
            except socket.gaierror:
                print("lookup failed")
            for address in [("10.255.255.1", 443), ("127.0.0.1", \(port))]:
                s = socket.socket()
                try:
                    s.connect(address)
                    print("connected")
                except OSError as error:
                    print("refused", error.errno)
            """
        let (seen, output) = try await blocking {
            let (_, guest) = try PacketChannel.pair(name: "tree")
            let output = try OpenFile.creating(directory.url.appendingPathComponent("output"))
            var specification = ProcessTree.Specification(
                executable: URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", script],
                environment: ["PATH": "/usr/bin:/bin"], directory: directory.url, channel: guest, output: output, pidNamespace: namespace)
            specification.watchesConnections = true
            let tree = try ProcessTree.start(specification, name: "python3")
            defer { tree.end() }
            let watch = try #require(tree.connections)
            var seen: [ConnectionWatch.Connection] = []
            while let call = watch.next() {
                seen.append(call)
                let query = call.isInternet && !call.isStream && call.port == 53 && !call.connects
                let beyond = call.isNetworkStream && !call.isLoopback
                if query || beyond { watch.refuse(call, as: .connectionRefused) } else { watch.letGo(call) }
            }
            _ = tree.waitForTermination(timeout: .seconds(60))
            return (seen, Self.output(in: directory.url))
        }
        #expect(output == "lookup failed\nrefused 111\nconnected\n")
        // The query names what it looks up, label by label (RFC 1035): 3 "api", 7 "example", 3 "com".
        let name: [UInt8] = [3] + Array("api".utf8) + [7] + Array("example".utf8) + [3] + Array("com".utf8) + [0]
        #expect(seen.contains { !$0.isStream && $0.port == 53 && $0.payload.count >= 12 + name.count && Array($0.payload[12..<(12 + name.count)]) == name })
        #expect(seen.filter(\.isNetworkStream).map(\.address) == ["10.255.255.1:443", "127.0.0.1:\(port)"])
        #expect(seen.filter(\.isNetworkStream).map(\.isLoopback) == [false, true])
    }

    @Test("the address of a connection, as a person reads it")
    func connectionAddresses() {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(8080).bigEndian
        v4.sin_addr.s_addr = inet_addr("10.1.2.3")
        #expect(ConnectionWatch.describe(withUnsafeBytes(of: v4) { Array($0) }) == "10.1.2.3:8080")
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = UInt16(443).bigEndian
        v6.sin6_addr = in6addr_loopback
        #expect(ConnectionWatch.describe(withUnsafeBytes(of: v6) { Array($0) }) == "[::1]:443")
        #expect(ConnectionWatch.describe(Array(withUnsafeBytes(of: v4) { Array($0) }.prefix(6))) == nil)
        #expect(ConnectionWatch.describe([UInt8(AF_UNIX), 0, 1, 2]) == nil)
        #expect(ConnectionWatch.describe([]) == nil)
    }

    @Test("with a namespace or without: no capabilities, and every descendant gone when the program ends", arguments: [true, false])
    func descendantsEnd(namespace: Bool) async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        // Three sleepers, one of them in a session of its own, then the program reports and exits.
        let (tree, termination, initEnded) = try await blocking {
            let tree = try Self.start("""
                sleep 300 & sleep 300 & setsid sleep 300 & sleep 0.2
                grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; exit 4
                """, pidNamespace: namespace, in: directory.url)
            return (tree, tree.waitForTermination(timeout: .seconds(20)), tree.waitForInit(timeout: .seconds(5)))
        }
        #expect(tree.containment == (namespace ? .pidNamespace : .subreaper))
        #expect(termination == .exited(4))
        #expect(initEnded)
        #expect(tree.members().isEmpty)
        #expect(Self.output(in: directory.url) == "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n")
        // Nothing of the tree's is left anywhere: no process runs this test's sleepers.
        #expect(Processes.children(of: tree.initIdentifier).isEmpty)
    }

    @Test("ended from outside while it runs: program, descendants and init, with a namespace or without", arguments: [true, false])
    func endedFromOutside(namespace: Bool) async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let (members, termination) = try await blocking {
            let tree = try Self.start("sleep 300 & setsid sleep 300 & sleep 300", pidNamespace: namespace, in: directory.url)
            let deadline = Date().addingTimeInterval(10)
            while tree.members().count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let members = tree.members()
            tree.end()
            return (members, tree.termination())
        }
        #expect(members.count >= 3)
        #expect(termination == .signalled(SIGKILL))
        #expect(members.allSatisfy { !Processes.exists($0) })
    }

    @Test("each thread's wait for a core: two busy processes sharing one core each wait, and the count is read per thread")
    func runQueueDelays() async throws {
        #expect(ProcessTree.coreWait(schedstat: "81234 5678 9\n") == ProcessTree.CoreWait(delay: 5678, slices: 9))
        #expect(ProcessTree.coreWait(schedstat: "81234") == nil)
        #expect(ProcessTree.coreWait(schedstat: "81234 5678") == nil)
        #expect(ProcessTree.coreWait(schedstat: "81234 -5 9") == nil)
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let delays = try await blocking {
            let tree = try Self.start("taskset -c 0 sh -c 'while :; do :; done' & taskset -c 0 sh -c 'while :; do :; done' & wait",
                                      in: directory.url)
            defer { tree.end() }
            // Until both have waited a fifth of a second for the core they share.
            let deadline = Date().addingTimeInterval(20)
            var delays: [Int32: UInt64] = [:]
            repeat {
                Thread.sleep(forTimeInterval: 0.05)
                delays = tree.runQueueDelays().mapValues(\.delay)
            } while delays.values.filter({ $0 >= 200_000_000 }).count < 2 && Date() < deadline
            return delays
        }
        #expect(delays.values.filter { $0 >= 200_000_000 }.count >= 2, "\(delays)")
    }

    @Test("the tree's memory counts every process and the memory files they hold but do not map")
    func treeMemory() async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let script = """
            import os, time
            fd = os.memfd_create("hoard")
            os.write(fd, b"\\x01" * (48 << 20))
            if os.fork() == 0:
                block = bytearray(64 << 20)
                for i in range(0, len(block), 4096): block[i] = 1
                print("child", flush=True)
                time.sleep(300)
            time.sleep(300)
            """
        let (footprint, resident) = try await blocking {
            let tree = try Self.start("exec python3 -c '\(script)'", in: directory.url)
            let deadline = Date().addingTimeInterval(20)
            while !Self.output(in: directory.url).contains("child") && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            Thread.sleep(forTimeInterval: 0.2)
            defer { tree.end() }
            return (tree.footprint(), tree.residentMemory())
        }
        // 64 MB in the child, 48 MB in a memory file nobody maps, and each Python's own.
        #expect(footprint > (64 + 48) << 20, "\(footprint >> 20) MB")
        #expect(resident > 64 << 20)
    }
}

/// Runs blocking work on a thread of the platform layer's, as the package's own code does (never on the test's
/// task), and hands back its result.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingThreads.run(body)
}

/// Child processes, started as the runtime starts extensions. Not run under the thread sanitizer: a child made
/// by cloning a threaded process deadlocks in its fork interceptor (see the Makefile).
@Suite("Child processes")
struct ChildProcessTests {
    @Test("a program that ends at once is still known by its number: the init keeps it until the host has it",
          arguments: [false, true])
    func programEndingAtOnce(pidNamespace: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Before the init held it, the program had often ended and been reaped before the host looked for it
        // (one start in three of these on two cores), and its number was 0.
        for _ in 0..<30 {
            let (_, guest) = try PacketChannel.pair(name: "test")
            let specification = ProcessTree.Specification(executable: URL(fileURLWithPath: "/bin/true"), environment: [:], directory: directory,
                                                          channel: guest, pidNamespace: pidNamespace)
            let tree = try await blocking { try ProcessTree.start(specification, name: "true") }
            #expect(tree.identifier > 0)
            #expect(tree.identifier != Processes.current && tree.identifier != tree.initIdentifier)
            #expect(try await blocking { tree.waitForTermination(timeout: .seconds(60)) } == .exited(0))
            tree.end()
        }
    }

    @Test("the program's number in its own namespace is read through its process descriptor", arguments: [false, true])
    func programNumberInItsNamespace(pidNamespace: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, guest) = try PacketChannel.pair(name: "test")
        let specification = ProcessTree.Specification(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["600"], environment: [:],
                                                      directory: directory, channel: guest, pidNamespace: pidNamespace)
        let tree = try await blocking { try ProcessTree.start(specification, name: "sleep") }
        defer { tree.end() }
        // In a namespace of its own the init is 1 and the program, its first child, 2.
        #expect(tree.programIdentifierInItsNamespace == (tree.containment == .pidNamespace ? 2 : tree.identifier))
        tree.end()
        #expect(tree.programIdentifierInItsNamespace == nil)
    }

    /// Runs `executable` with a fresh channel, its output into a temporary file; the output and how it ended.
    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                     dataLimit: Int? = nil) async throws -> (output: String, termination: ProcessTree.Termination?) {
        try await blocking { try Self.runBlocking(executable, arguments, environment: environment, dataLimit: dataLimit) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String],
                                    dataLimit: Int?) throws -> (output: String, termination: ProcessTree.Termination?) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("output")
        let output = try OpenFile.creating(log)
        let (_, guest) = try PacketChannel.pair(name: "child")
        let child = try ProcessTree.start(.init(
            executable: URL(fileURLWithPath: executable), arguments: arguments, environment: environment,
            directory: directory, channel: guest, output: output, dataLimit: dataLimit), name: "child")
        let termination = child.waitForTermination(timeout: .seconds(20))
        return (try String(contentsOf: log, encoding: .utf8), termination)
    }

    @Test("a child gets only the environment given, and only descriptors 0 to 3")
    func isolation() async throws {
        let environment = try await run("/usr/bin/env", [], environment: ["ONLY": "this"])
        #expect(environment.output == "ONLY=this\n")
        #expect(environment.termination == .exited(0))
        // ls lists its own descriptors: the four given, and the one it opened to list the directory.
        let descriptors = try await run("/bin/ls", ["/proc/self/fd"])
        let listed = descriptors.output.split(separator: "\n").compactMap { Int($0) }.sorted()
        #expect(listed.prefix(4) == [0, 1, 2, 3])
        #expect(listed.count == 5)
    }

    @Test("how a child ended: an exit status, or the signal that killed it")
    func terminations() async throws {
        #expect(try await run("/bin/sh", ["-c", "exit 3"]).termination == .exited(3))
        #expect(try await run("/bin/sh", ["-c", "kill -9 $$"]).termination == .signalled(9))
        #expect(ProcessTree.Termination.signalled(9).description == "killed by signal 9 (SIGKILL)")
    }

    @Test("a data-segment limit applies in the child")
    func dataLimit() async throws {
        let limited = try await run("/bin/sh", ["-c", "ulimit -d"], dataLimit: 512 << 20)
        #expect(limited.output == "\(512 << 10)\n")
    }

    @Test("a start that fails says which step failed, on which path: the working directory, a path to write or execute beneath, the program")
    func startFailures() async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let gone = directory.url.appendingPathComponent("gone").path
        func start(in working: String = "/", writable: [String] = [], executable: [String] = ["/bin"]) async throws {
            let (_, guest) = try PacketChannel.pair(name: "child")
            var specification = ProcessTree.Specification(executable: URL(fileURLWithPath: "/bin/true"), environment: [:],
                                                          directory: URL(fileURLWithPath: working), channel: guest)
            specification.confinement = (writable.map { URL(fileURLWithPath: $0) }, executable.map { URL(fileURLWithPath: $0) })
            let confined = specification
            _ = try await blocking { try ProcessTree.start(confined, name: "child") }
        }
        let missing = SystemError.Code.system(.noSuchFileOrDirectory)
        await #expect(throws: SystemError(.enterDirectory, missing, path: gone)) { try await start(in: gone) }
        await #expect(throws: SystemError(.allowWriting, missing, path: gone)) { try await start(writable: [directory.url.path, gone]) }
        await #expect(throws: SystemError(.allowExecuting, missing, path: gone)) { try await start(writable: [directory.url.path], executable: [gone]) }
        #expect(SystemError(.allowWriting, missing, path: gone).description == "letting the extension write beneath \(gone) failed: No such file or directory")
    }

    @Test("a program open for writing the whole time fails to start, Text file busy, after a few tries")
    func programBeingWritten() async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let program = directory.url.appendingPathComponent("true")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "/bin/true"), to: program)
        let writing = try FileHandle(forWritingTo: program)
        defer { try? writing.close() }
        let (_, guest) = try PacketChannel.pair(name: "child")
        await #expect(throws: SystemError(.spawn, .system(.textFileBusy), path: program.path)) {
            try await blocking {
                try ProcessTree.start(.init(executable: program, environment: [:], directory: URL(fileURLWithPath: "/"), channel: guest), name: "child")
            }
        }
    }

    @Test("a program that does not exist fails to start with the system's reason and its path")
    func missingProgram() async throws {
        let (_, guest) = try PacketChannel.pair(name: "child")
        await #expect(throws: SystemError(.spawn, .system(.noSuchFileOrDirectory), path: "/nonexistent/program")) {
            try await blocking {
                try ProcessTree.start(.init(executable: URL(fileURLWithPath: "/nonexistent/program"), environment: [:],
                                            directory: URL(fileURLWithPath: "/"), channel: guest), name: "child")
            }
        }
    }

    @Test("releasing a running child kills and reaps it")
    func releaseKills() async throws {
        let identifier = try await blocking {
            let (_, guest) = try PacketChannel.pair(name: "child")
            let child = try ProcessTree.start(.init(
                executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
                directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
            let identifier = child.identifier
            precondition(Processes.exists(identifier))
            return identifier
        }
        // Released on the blocking thread: the tree ended and was reaped there.
        #expect(!Processes.exists(identifier))
    }

    @Test("the footprint is private dirty memory plus swap, from smaps_rollup")
    func footprint() async throws {
        let text = """
        55d0c0000000-7ffd00000000 ---p 00000000 00:00 0                          [rollup]
        Rss:               10240 kB
        Private_Clean:      1024 kB
        Private_Dirty:      4096 kB
        Swap:                512 kB
        SwapPss:             512 kB
        """
        #expect(ProcessTree.footprint(smapsRollup: text) == (4096 + 512) * 1024)
        #expect(ProcessTree.footprint(smapsRollup: "nothing here") == nil)
        let footprint = try await blocking {
            let (_, guest) = try PacketChannel.pair(name: "child")
            let child = try ProcessTree.start(.init(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
                                                    directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
            return child.footprint()
        }
        #expect(footprint > 0)
    }

    @Test("resident memory is anonymous and shared memory plus swap, from status")
    func residentMemory() async throws {
        let text = "Name:\tsleep\nVmRSS:\t   21916 kB\nRssAnon:\t    1900 kB\nRssFile:\t   20016 kB\nRssShmem:\t      64 kB\nVmSwap:\t     128 kB\n"
        #expect(ProcessTree.residentMemory(status: text) == (1900 + 64 + 128) * 1024)
        #expect(ProcessTree.residentMemory(status: "Name:\tsleep\n") == nil)
        // A process without dirty shared file pages: once it has settled after starting (the two are read
        // one after the other), the two measures agree, within what the kernel's per-CPU counters may lag.
        let (agreed, resident, footprint) = try await blocking {
            let (_, guest) = try PacketChannel.pair(name: "child")
            let child = try ProcessTree.start(.init(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], environment: [:],
                                                    directory: URL(fileURLWithPath: "/"), channel: guest), name: "sleep")
            var agreed = false
            for _ in 0..<200 where !agreed {
                let resident = child.residentMemory()
                agreed = resident > 0 && abs(resident - child.footprint()) <= 256 << 10
                if !agreed { Thread.sleep(forTimeInterval: 0.01) }
            }
            return (agreed, child.residentMemory(), child.footprint())
        }
        #expect(agreed, "resident \(resident), footprint \(footprint)")
    }
}
