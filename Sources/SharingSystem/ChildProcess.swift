#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
package import Foundation

/// A process this one started, watched and signalled through a process descriptor (pidfd), so that a signal
/// never reaches a recycled process identifier. It is killed and reaped when released, whatever happened.
package final class ChildProcess: @unchecked Sendable {
    /// What to start.
    package struct Specification: Sendable {
        package var executable: URL
        package var arguments: [String]
        /// The whole environment: nothing is inherited.
        package var environment: [String: String]
        package var directory: URL
        /// Descriptor 3 in the child; its only descriptor beyond the standard three.
        package var channel: PacketChannel
        /// Where standard output and error go; `nil` inherits this process's.
        package var output: OpenFile?
        /// RLIMIT_DATA in bytes, if any.
        package var dataLimit: Int?
        /// A cgroup's `cgroup.procs`, opened for writing: the child joins the cgroup before the program runs.
        package var cgroupProcesses: OpenFile?
        /// Confinement with Landlock, applied in the child before the program runs: it may read anywhere, but
        /// write only beneath `writable` and execute only beneath `executable`. Starting fails where the kernel
        /// has no Landlock (`landlockVersion` is 0).
        package var confinement: (writable: [URL], executable: [URL])?

        package init(executable: URL, arguments: [String] = [], environment: [String: String], directory: URL,
                     channel: PacketChannel, output: OpenFile? = nil, dataLimit: Int? = nil, cgroupProcesses: OpenFile? = nil) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.directory = directory
            self.channel = channel
            self.output = output
            self.dataLimit = dataLimit
            self.cgroupProcesses = cgroupProcesses
        }
    }

    /// How a process ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        package var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
            }
        }
    }

    package let identifier: Int32
    /// The process descriptor: readable once the process has exited.
    package let descriptor: CInt
    private let name: String
    private let ended = Locked<Termination?>(nil)

    private init(identifier: Int32, descriptor: CInt, name: String) {
        self.identifier = identifier
        self.descriptor = descriptor
        self.name = name
    }

    deinit {
        if ended.withLock({ $0 }) == nil {
            _ = csharing_pidfd_send_signal(descriptor, SIGKILL)
            var status: CInt = 0
            while waitpid(identifier, &status, 0) < 0 && errno == EINTR {}
        }
        Syscall.closeDescriptor(descriptor)
    }

    /// Starts a process. It is started from one long-lived thread of this layer's, because the kernel sends a
    /// child's parent-death signal when the thread that started it ends, not the process.
    package static func start(_ specification: Specification, name: String) throws(SystemError) -> ChildProcess {
        let result = Spawner.shared.run { () -> Result<ChildProcess, SystemError> in
            Result { () throws(SystemError) in try spawn(specification, name: name) }
        }
        return try result.get()
    }

    private static func spawn(_ specification: Specification, name: String) throws(SystemError) -> ChildProcess {
        let path = specification.executable.path
        let arguments = [path] + specification.arguments
        let environment = specification.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let output = specification.output?.descriptor ?? -1
        let writable = specification.confinement?.writable.map(\.path) ?? []
        let executable = specification.confinement?.executable.map(\.path) ?? []
        let confined = specification.confinement != nil
        let identifier = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                withCStrings(writable) { writable in
                    withCStrings(executable) { executables in
                        specification.directory.path.withCString { directory in
                            path.withCString { program in
                                var spec = csharing_spawn_spec(
                                    path: program, arguments: argv, environment: envp, directory: directory,
                                    channel: specification.channel.descriptor, output: output, error: output,
                                    data_limit: UInt64(specification.dataLimit ?? 0),
                                    cgroup_procs: specification.cgroupProcesses?.descriptor ?? -1,
                                    writable: confined ? UnsafePointer(OpaquePointer(writable)) : nil,
                                    executable: confined ? UnsafePointer(OpaquePointer(executables)) : nil)
                                return csharing_spawn(&spec)
                            }
                        }
                    }
                }
            }
        }
        if identifier < 0 { throw SystemError(.spawn, .system(.last), path: path) }
        let descriptor = csharing_pidfd_open(identifier)
        if descriptor < 0 {
            let number = SystemError.Code.system(.last)
            kill(identifier, SIGKILL)
            var status: CInt = 0
            while waitpid(identifier, &status, 0) < 0 && errno == EINTR {}
            throw SystemError(.spawn, number, path: path)
        }
        return ChildProcess(identifier: identifier, descriptor: descriptor, name: name)
    }

    /// The kernel's Landlock ABI version; 0 where it has none.
    package static var landlockVersion: Int { Int(csharing_landlock_abi()) }

    /// Sends `signal`; nothing happens if the process has already been reaped.
    package func signal(_ signal: Int32) {
        guard ended.withLock({ $0 }) == nil else { return }
        _ = csharing_pidfd_send_signal(descriptor, signal)
    }

    /// How the process ended, reaping it, or `nil` while it runs.
    package func termination() throws(SystemError) -> Termination? {
        if let termination = ended.withLock({ $0 }) { return termination }
        var status: CInt = 0
        let reaped = try Syscall.retrying(.wait, name) { csharing_pidfd_reap(descriptor, &status) }
        guard reaped == 1 else { return nil }
        let termination: Termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        ended.withLock { $0 = termination }
        return termination
    }

    /// Waits up to `timeout` for the process to end; how it ended, or `nil` if it still runs.
    package func waitForTermination(timeout: Duration) throws(SystemError) -> Termination? {
        if let termination = try termination() { return termination }
        _ = try Poll.readable([descriptor], timeout: timeout, name: name)
        return try termination()
    }

    /// The process's memory footprint in bytes, as the supervisor counts it: private dirty memory plus swap
    /// (`/proc/PID/smaps_rollup`). `nil` once the process is gone, or where there is no such file.
    /// Reading it walks the process's page tables: about 160 µs for an idle Swift process here.
    package func footprint() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(identifier)/smaps_rollup", encoding: .utf8) else { return nil }
        return Self.footprint(smapsRollup: text)
    }

    /// Private_Dirty plus Swap, in bytes, from the text of an smaps_rollup file.
    package static func footprint(smapsRollup text: String) -> Int? {
        sumOfKilobytes(["Private_Dirty:", "Swap:"], in: text)
    }

    /// The process's resident anonymous and shared memory plus swap in bytes (`/proc/PID/status`: RssAnon,
    /// RssShmem, VmSwap): counters the kernel keeps (per CPU, summed approximately), read in a tenth of the
    /// footprint's time. It is close to the footprint while the process has no dirty pages of shared file
    /// mappings, which only the footprint counts. `nil` once the process is gone.
    package func residentMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(identifier)/status", encoding: .utf8) else { return nil }
        return Self.residentMemory(status: text)
    }

    /// RssAnon plus RssShmem plus VmSwap, in bytes, from the text of a status file.
    package static func residentMemory(status text: String) -> Int? {
        sumOfKilobytes(["RssAnon:", "RssShmem:", "VmSwap:"], in: text)
    }

    /// The sum of the lines `keys` name, each "Key: N kB".
    private static func sumOfKilobytes(_ keys: [String], in text: String) -> Int? {
        var kilobytes = 0
        var found = false
        for line in text.split(separator: "\n") where keys.contains(where: { line.hasPrefix($0) }) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 2, let value = Int(fields[1]) else { continue }
            kilobytes += value
            found = true
        }
        return found ? kilobytes * 1024 : nil
    }
}

/// The C name of a signal ("SIGKILL").
package func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
                                  SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
                                  SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2"]
    return names[signal] ?? "signal \(signal)"
}

/// `strings` as a NULL-terminated array of C strings, for the duration of `body`.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!) }
}

/// One thread that lives as long as the process and starts every child, so that each child's parent-death
/// signal is tied to a thread that never ends first.
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in loop() }
        thread.name = "opensharing.spawn"
        thread.start()
    }

    /// Runs `work` on the spawning thread and waits for its result.
    func run<T>(_ work: @escaping () -> T) -> T {
        let done = NSCondition()
        var result: T?
        condition.lock()
        jobs.append {
            // Moved, not copied, into the shared box: once the caller takes it, this thread holds none.
            var value: T? = work()
            done.lock()
            result = value.take()
            done.signal()
            done.unlock()
        }
        condition.signal()
        condition.unlock()
        done.lock()
        while result == nil { done.wait() }
        // Taken out of the box the job shares, so that the spawning thread, which may release the job a
        // moment later, holds no reference to it (nor does its own copy): a child released by its owner is
        // killed at once.
        let value = result!
        result = nil
        done.unlock()
        return value
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
