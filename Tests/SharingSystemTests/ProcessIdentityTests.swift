#if os(Linux)
import SharingSystem
import Foundation
import Testing

/// What `host-killed` relies on, with a host that does leak: a shell whose background child outlives it.
@Suite("Processes that outlive their host")
struct ProcessIdentityTests {
    /// A Python process that makes itself the subreaper of what it starts (so that an orphan comes back to it,
    /// and is reaped, rather than to the container's init), starts `host` as a shell command, prints its pid,
    /// and, once its standard input closes, reaps everything and ends.
    static let keeper = """
        import ctypes, os, subprocess, sys
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
        host = subprocess.Popen(["sh", "-c", sys.argv[1]])
        print(host.pid, flush=True)
        sys.stdin.read()
        while True:
            try: os.waitpid(-1, 0)
            except ChildProcessError: break
        """

    func withHost(_ command: String, _ body: (pid_t) throws -> Void) throws {
        let process = Process(), input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.keeper, command]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        let host = try #require(pid_t(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        try body(host)
    }

    /// The host's descendants once there are `count` of them and each runs `sleep` (waiting up to ten seconds): a
    /// child forked but not yet executing may not have set its parent-death signal yet.
    func descendants(of host: pid_t, count: Int) -> Set<ProcessIdentity> {
        func sleeping(_ found: Set<ProcessIdentity>) -> Bool {
            found.count >= count && found.allSatisfy { identity in
                (try? String(contentsOfFile: "/proc/\(identity.pid)/comm", encoding: .utf8)) == "sleep\n"
            }
        }
        for _ in 0..<500 {
            let found = ProcessIdentity.descendants(of: host)
            if sleeping(found) { return found }
            usleep(20_000)
        }
        return ProcessIdentity.descendants(of: host)
    }

    @Test("a child the host left running is found alive after the host is killed, and killed")
    func leak() throws {
        try withHost("sleep 60 & exec sleep 61") { host in
            let watched = descendants(of: host, count: 1)
            #expect(watched.count == 1)
            let killed = try #require(ProcessIdentity(running: host))
            kill(host, SIGKILL)
            // The host, killed, is waited for however long it takes to end; its child, with no end coming, survives.
            let survivors = ProcessIdentity.survivors(of: watched.union([killed]))
            #expect(survivors.map(\.pid) == watched.map(\.pid))
            for survivor in survivors { survivor.kill() }
            #expect(ProcessIdentity.survivors(of: watched).isEmpty)
        }
    }

    @Test("a child that ends with its host (its parent-death signal, as the runtime's init has) is not a survivor")
    func noLeak() throws {
        let host = #"exec python3 -c "import ctypes, subprocess, time; subprocess.Popen(['sleep', '60'], preexec_fn=lambda: ctypes.CDLL(None).prctl(1, 9)); time.sleep(60)""#
        try withHost(host) { host in
            let watched = descendants(of: host, count: 1)
            #expect(watched.count == 1)
            let killed = try #require(ProcessIdentity(running: host))
            kill(host, SIGKILL)
            // The child is sent SIGKILL as the host ends, and is waited for as it dies, however busy the machine.
            #expect(ProcessIdentity.survivors(of: watched.union([killed])).isEmpty)
        }
    }
}
#endif

#if os(Linux)
/// A child run to its end with a deadline, as the matrix runs each cell.
@Suite("Children run to their end")
struct ChildRunTests {
    @Test("what it prints, how it ended; its standard error's end kept")
    func output() throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo out; echo err >&2; exit 3"], deadline: .seconds(30))
        #expect(String(decoding: result.output, as: UTF8.self) == "out\n")
        #expect(result.errorTail == "err\n")
        #expect(result.termination == .exited(3))
        #expect(!result.killedAtDeadline)
    }

    @Test("past its deadline it is killed through its process descriptor, and said so")
    func deadline() throws {
        let clock = ContinuousClock(), start = clock.now
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], deadline: .milliseconds(300))
        #expect(result.killedAtDeadline)
        #expect(result.termination == .signalled(SIGKILL))
        #expect(start.duration(to: clock.now) < .seconds(30), "ended before the 30 seconds it would have slept")
    }

    @Test("the processes it starts are seen while it runs")
    func descendants() throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "sleep 0.5 & wait"], deadline: .seconds(30),
                                          watchingDescendants: true)
        #expect(result.termination == .exited(0))
        #expect(!result.descendants.isEmpty)
    }

    @Test("a program that is not there is an error naming it")
    func missing() {
        #expect(throws: SystemError.self) { try ChildProcess.run(URL(fileURLWithPath: "/nonexistent/program"), arguments: [], deadline: .seconds(1)) }
    }
}
#endif
