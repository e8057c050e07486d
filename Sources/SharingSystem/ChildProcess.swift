#if os(Linux)
import Glibc
import CSharingSystem
package import Foundation

/// An ordinary child program run to its end: what it printed, how it ended, and, when asked, the processes it
/// started. It is watched and, past its deadline, killed through a process descriptor held from its start, so
/// that no signal reaches a number reused after it ended. Blocks the calling thread: call it from one of
/// `BlockingThreads`.
package enum ChildProcess {
    /// How a child's run ended.
    package struct Result: Sendable {
        package var termination: ProcessTree.Termination
        /// Its standard output, whole (up to `outputLimit`; past that, `outputTruncated`).
        package var output: Data
        package var outputTruncated: Bool
        /// The last `errorLimit` bytes of its standard error.
        package var errorTail: String
        /// It outlived its deadline and was killed.
        package var killedAtDeadline: Bool
        /// The processes it was seen to start while it ran (when watched).
        package var descendants: Set<ProcessIdentity>
    }

    /// The most of standard output kept.
    package static let outputLimit = 64 << 20
    /// The most of standard error kept: its end.
    package static let errorLimit = 64 << 10
    /// How often the processes a watched child starts are looked for.
    static let watchInterval: Duration = .milliseconds(20)
    /// How long its output is still read once it has ended (a process it started may hold the pipes).
    static let drainTime: Duration = .seconds(2)

    /// Runs `executable` with `arguments` (its standard input empty, this process's environment), killed with
    /// SIGKILL when it outlives `deadline`.
    ///
    /// - Parameter watchingDescendants: note every process it starts while it runs (`Result.descendants`), so
    ///   that what outlives it can be found.
    /// - Throws: `SystemError` when it cannot be started.
    package static func run(_ executable: URL, arguments: [String], deadline: Duration, watchingDescendants: Bool = false) throws(SystemError) -> Result {
        let path = executable.path
        var outputEnds: [CInt] = [-1, -1], errorEnds: [CInt] = [-1, -1]
        try Syscall.retrying(.create, path) { csharing_pipe(&outputEnds) }
        let outputReading = OpenFile.adopting(outputEnds[0], path: "the standard output of \(path)")
        var outputWriting: OpenFile? = OpenFile.adopting(outputEnds[1], path: "the standard output of \(path)")
        try Syscall.retrying(.create, path) { csharing_pipe(&errorEnds) }
        let errorReading = OpenFile.adopting(errorEnds[0], path: "the standard error of \(path)")
        var errorWriting: OpenFile? = OpenFile.adopting(errorEnds[1], path: "the standard error of \(path)")
        let input = try OpenFile.reading(URL(fileURLWithPath: "/dev/null"), regularOnly: false)
        let environment = ProcessInfo.processInfo.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let started = withExtendedLifetime((input, outputWriting, errorWriting)) {
            withCStrings([path] + arguments) { argv in
                withCStrings(environment) { envp in
                    csharing_spawn_child(path, argv, envp, input.descriptor, outputWriting?.descriptor ?? -1, errorWriting?.descriptor ?? -1, &pid)
                }
            }
        }
        if started != 0 { throw SystemError(.spawn, .system(.last), path: path) }
        // Closed here, now: only the child holds the writing ends, and its end is the pipes' end of file.
        outputWriting = nil
        errorWriting = nil
        let process = try Syscall.retrying(.spawn, path) { csharing_pidfd_open(pid) }
        defer { Syscall.closeDescriptor(process) }
        for end in [outputReading, errorReading] { _ = fcntl(end.descriptor, F_SETFL, O_NONBLOCK) }

        let clock = ContinuousClock()
        let killAt = clock.now + deadline
        var output = Data(), error = Data(), truncated = false, killed = false
        var descendants = Set<ProcessIdentity>()
        var open = [outputReading.descriptor, errorReading.descriptor]
        var status: CInt = 0
        var reaped = false
        var drainUntil: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !(reaped && open.isEmpty) {
            let now = clock.now
            if let drainUntil, now >= drainUntil { break }
            if !reaped && now >= killAt && !killed {
                killed = true
                _ = csharing_pidfd_send_signal(process, SIGKILL)
            }
            var wait = reaped ? (drainUntil ?? now) - now : killed ? Duration.seconds(1) : killAt - now
            if watchingDescendants && !reaped { wait = min(wait, watchInterval) }
            let ready = Set((try? Poll.readable(open + (reaped ? [] : [process]), timeout: max(.zero, wait), name: path)) ?? [])
            if watchingDescendants && !reaped { descendants.formUnion(ProcessIdentity.descendants(of: pid)) }
            for descriptor in open where ready.contains(descriptor) {
                let count = read(descriptor, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    open.removeAll { $0 == descriptor }
                } else if count > 0, descriptor == outputReading.descriptor {
                    if output.count + count <= outputLimit { output.append(contentsOf: buffer[..<count]) } else { truncated = true }
                } else if count > 0 {
                    error.append(contentsOf: buffer[..<count])
                    if error.count > 2 * errorLimit { error.removeFirst(error.count - errorLimit) }
                }
            }
            // Reaped here (or, should anything else have reaped it, taken as ended).
            if !reaped && ready.contains(process), csharing_pidfd_reap(process, &status) != 0 {
                reaped = true
                drainUntil = clock.now + drainTime
            }
        }
        withExtendedLifetime((outputReading, errorReading)) {}
        return Result(termination: ProcessTree.Termination(waitStatus: status), output: output, outputTruncated: truncated,
                      errorTail: String(decoding: error.suffix(errorLimit), as: UTF8.self), killedAtDeadline: killed, descendants: descendants)
    }
}
#endif
