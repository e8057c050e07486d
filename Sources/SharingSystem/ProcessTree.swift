#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
package import Foundation
import PackageSupport
import SystemPackage

/// A program started under a small init of our own, and everything it starts: a tree this process owns whole.
///
/// The init (this process's child) has a PID namespace of its own where the kernel allows one, else it is a
/// subreaper; it starts the program, reaps every process of the tree, and when the program ends reports how and
/// ends every other process of the tree. This process watches and signals the init through a process
/// descriptor (pidfd), so that no signal reaches a recycled identifier. The tree is ended and reaped when
/// released, whatever happened.
// @unchecked: its descriptors are immutable and its state is under a lock.
package final class ProcessTree: @unchecked Sendable {
    /// What to start.
    package struct Specification: Sendable {
        package var executable: URL
        package var arguments: [String]
        /// The whole environment: nothing is inherited.
        package var environment: [String: String]
        package var directory: URL
        /// Descriptor 3 in the program; its only descriptor beyond the standard three.
        package var channel: PacketChannel
        /// Where standard output and error go; `nil` inherits this process's.
        package var output: OpenFile?
        /// The path `output` is open on, when it lies beneath `gated`: where the gate holds, the tree writes it
        /// through the gated mount, held to the budget as its files are.
        package var outputPath: URL?
        /// RLIMIT_DATA in bytes, if any.
        package var dataLimit: Int?
        /// RLIMIT_FSIZE in bytes, if any: the largest file the program may write.
        package var fileSizeLimit: Int?
        /// A cgroup's `cgroup.procs`, opened for writing: the tree joins the cgroup before the program runs.
        package var cgroupProcesses: OpenFile?
        /// Confinement with Landlock, applied before the program runs: it may read anywhere, but write only
        /// beneath `writable` and execute only beneath `executable`; where the kernel has Landlock ABI 6, it may
        /// signal and reach abstract sockets only within its own domain. Starting fails where the kernel has no
        /// Landlock (`landlockVersion` is 0).
        package var confinement: (writable: [URL], executable: [URL])?
        /// Whether the tree may have a PID namespace of its own (when the kernel allows it).
        package var pidNamespace: Bool
        /// A gate every access of a file's content beneath `gated` waits on (`DiskGate`), where the tree has a
        /// mount namespace of its own to mark them in; `ProcessTree.gated` says whether it held.
        package var diskGate: DiskGate?
        package var gated: [URL] = []
        /// Whether every connect(2) of the tree waits until the host has seen it (`ProcessTree.connections`).
        package var watchesConnections = false

        package init(executable: URL, arguments: [String] = [], environment: [String: String], directory: URL,
                     channel: PacketChannel, output: OpenFile? = nil, dataLimit: Int? = nil, fileSizeLimit: Int? = nil,
                     cgroupProcesses: OpenFile? = nil, pidNamespace: Bool = true) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.directory = directory
            self.channel = channel
            self.output = output
            self.dataLimit = dataLimit
            self.fileSizeLimit = fileSizeLimit
            self.cgroupProcesses = cgroupProcesses
            self.pidNamespace = pidNamespace
        }
    }

    /// How the program ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        package var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
            }
        }

        init(waitStatus status: Int32) {
            self = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        }
    }

    /// How strongly the tree is held: what the kernel allowed when it was started.
    package enum Containment: Sendable, Equatable {
        /// A PID namespace of its own: ending the init ends every process of the tree, and none can see or
        /// signal a process outside it.
        case pidNamespace
        /// The init is a subreaper: every descendant stays in the tree, and is found and killed when the program
        /// ends; a process that outlives a killed host may escape.
        case subreaper
    }

    /// The program, as this process's namespace numbered it when the tree started: learnt before the init could
    /// reap it, however soon it ended; once it has ended, the number may name another process.
    package let identifier: Int32
    /// The init, this process's child.
    package let initIdentifier: Int32
    package let containment: Containment
    /// Whether every access beneath the specification's `gated` waits on its `diskGate`.
    package let gated: Bool
    /// Where the specification asked it and the kernel has seccomp's user notifications: each connect(2) of the
    /// tree, held until this process lets it go.
    package let connections: ConnectionWatch?
    /// Readable once the program has ended (or the tree was killed): poll it, then ask `termination()`.
    package let endDescriptor: CInt
    private let initDescriptor: CInt
    /// The program's own process descriptor (-1 where the kernel has none).
    private let programDescriptor: CInt
    private let name: String
    private let state = Locked<(termination: Termination?, reaped: Bool)>((nil, false))

    private init(spawned: csharing_spawned, initDescriptor: CInt, name: String) {
        identifier = spawned.extension
        initIdentifier = spawned.`init`
        containment = spawned.namespaced != 0 ? .pidNamespace : .subreaper
        gated = spawned.gated != 0
        connections = spawned.connections >= 0 ? ConnectionWatch(adopting: spawned.connections) : nil
        endDescriptor = spawned.status
        self.initDescriptor = initDescriptor
        programDescriptor = spawned.program
        self.name = name
        _ = fcntl(endDescriptor, F_SETFL, O_NONBLOCK)
    }

    deinit {
        end()
        Syscall.closeDescriptor(endDescriptor)
        Syscall.closeDescriptor(initDescriptor)
        if programDescriptor >= 0 { Syscall.closeDescriptor(programDescriptor) }
    }

    /// Starts a tree. It is started from one long-lived thread of this layer's, because the kernel sends a
    /// child's parent-death signal when the thread that started it ends, not the process.
    ///
    /// A program that is open for writing cannot be executed ("Text file busy"). When this process copies a
    /// program while another of its threads starts a child, the child holds the copy's descriptor until it
    /// has closed what it inherited: a moment, longer on a busy machine. That start is tried again, a few
    /// times; a program that stays open for writing (still being built) fails with the system's reason.
    package static func start(_ specification: Specification, name: String) throws(SystemError) -> ProcessTree {
        var attempt = 1
        while true {
            let result = Spawner.shared.run { () -> Result<ProcessTree, SystemError> in
                Result { () throws(SystemError) in try spawn(specification, name: name) }
            }
            guard case .failure(let error) = result, error.operation == .spawn, error.code == .system(.textFileBusy),
                  attempt < textFileBusyAttempts else { return try result.get() }
            Thread.sleep(forTimeInterval: 0.02 * Double(attempt))
            attempt += 1
        }
    }

    /// How many times a start that found its program open for writing is tried.
    static let textFileBusyAttempts = 8

    private static func spawn(_ specification: Specification, name: String) throws(SystemError) -> ProcessTree {
        let path = specification.executable.path
        let arguments = [path] + specification.arguments
        let environment = specification.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let writable = specification.confinement?.writable.map(\.path) ?? []
        let executable = specification.confinement?.executable.map(\.path) ?? []
        let confined = specification.confinement != nil
        let gate = specification.gated.isEmpty ? nil : specification.diskGate
        var spawned = csharing_spawned()
        let started = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                withCStrings(writable) { writable in
                    withCStrings(executable) { executables in
                        withCStrings(specification.gated.map(\.path)) { gated in
                            specification.directory.path.withCString { directory in
                                path.withCString { program in
                                  withOptionalCString(gate == nil ? nil : specification.outputPath?.path) { outputPath in
                                    var spec = csharing_spawn_spec(
                                        path: program, arguments: argv, environment: envp, directory: directory,
                                        channel: specification.channel.descriptor, output: specification.output?.descriptor ?? -1,
                                        data_limit: UInt64(specification.dataLimit ?? 0),
                                        file_size_limit: UInt64(specification.fileSizeLimit ?? 0),
                                        cgroup_procs: specification.cgroupProcesses?.descriptor ?? -1,
                                        writable: confined ? UnsafePointer(OpaquePointer(writable)) : nil,
                                        executable: confined ? UnsafePointer(OpaquePointer(executables)) : nil,
                                        pid_namespace: specification.pidNamespace ? 1 : 0,
                                        disk_gate: gate?.descriptor ?? -1,
                                        gated: gate == nil ? nil : UnsafePointer(OpaquePointer(gated)),
                                        output_path: outputPath,
                                        watch_connections: specification.watchesConnections ? 1 : 0)
                                    return csharing_spawn(&spec, &spawned)
                                  }
                                }
                            }
                        }
                    }
                }
            }
        }
        if started != 0 {
            // Which step failed, and on which path: an app group gone is not a program missing.
            let code = SystemError.Code.system(.last)
            let at = Int(spawned.failed_at)
            switch Int(spawned.failed_step) {
            case Int(CSHARING_SPAWN_STEP_DIRECTORY): throw SystemError(.enterDirectory, code, path: specification.directory.path)
            case Int(CSHARING_SPAWN_STEP_WRITABLE) where writable.indices.contains(at): throw SystemError(.allowWriting, code, path: writable[at])
            case Int(CSHARING_SPAWN_STEP_EXECUTABLE) where executable.indices.contains(at): throw SystemError(.allowExecuting, code, path: executable[at])
            case Int(CSHARING_SPAWN_STEP_SANDBOX): throw SystemError(.confine, code, path: path)
            default: throw SystemError(.spawn, code, path: path)
            }
        }
        let initDescriptor = csharing_pidfd_open(spawned.`init`)
        if initDescriptor < 0 {
            let number = SystemError.Code.system(.last)
            Glibc.kill(spawned.`init`, SIGKILL)
            var status: CInt = 0
            while waitpid(spawned.`init`, &status, 0) < 0 && errno == EINTR {}
            Syscall.closeDescriptor(spawned.status)
            if spawned.program >= 0 { Syscall.closeDescriptor(spawned.program) }
            if spawned.connections >= 0 { Syscall.closeDescriptor(spawned.connections) }
            throw SystemError(.spawn, number, path: path)
        }
        return ProcessTree(spawned: spawned, initDescriptor: initDescriptor, name: name)
    }

    /// The number the program has in its own PID namespace (the last of its `NSpid`), read through its process
    /// descriptor, so never another process's; `nil` once it has been reaped, or where the kernel has no process
    /// descriptors.
    package var programIdentifierInItsNamespace: Int32? {
        guard programDescriptor >= 0,
              let text = try? OpenFile.reading(URL(fileURLWithPath: "/proc/self/fdinfo/\(programDescriptor)"), regularOnly: false).readAll(limit: 1 << 16)
        else { return nil }
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("NSpid:") }
        return line.flatMap { $0.split(whereSeparator: \.isWhitespace).last.flatMap { Int32($0) } }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The program has ended (its process descriptor is readable), whether or not the init has reaped it and
    /// said how yet: the init, on a busy machine, may wait a while for a core to do so. `false` where the kernel
    /// has no process descriptors.
    package var programHasEnded: Bool {
        guard programDescriptor >= 0 else { return false }
        return ((try? Poll.readable([programDescriptor], timeout: .zero, name: name)) ?? []).contains(programDescriptor)
    }

    /// The kernel's Landlock ABI version; 0 where it has none.
    package static var landlockVersion: Int { Int(csharing_landlock_abi()) }

    /// How the program ended, or `nil` while it runs. A tree killed before the init could say is reported as
    /// killed by SIGKILL.
    package func termination() -> Termination? {
        if let termination = state.withLock({ $0.termination }) { return termination }
        var report = (Int32(0), Int32(0))
        let count = withUnsafeMutableBytes(of: &report) { read(endDescriptor, $0.baseAddress, $0.count) }
        let termination: Termination
        if count == MemoryLayout.size(ofValue: report) && report.0 == 3 {
            termination = Termination(waitStatus: report.1)
        } else if count == 0 {
            termination = .signalled(SIGKILL)
        } else {
            return nil
        }
        state.withLock { $0.termination = $0.termination ?? termination }
        return state.withLock { $0.termination }
    }

    /// Waits up to `timeout` for the program to end; how it ended, or `nil` if it still runs.
    package func waitForTermination(timeout: Duration) -> Termination? {
        if let termination = termination() { return termination }
        _ = try? Poll.readable([endDescriptor], timeout: timeout, name: name)
        return termination()
    }

    /// Sends `signal` to the program.
    package func signal(_ signal: Int32) {
        guard state.withLock({ !$0.reaped }) else { return }
        if programDescriptor >= 0 { _ = csharing_pidfd_send_signal(programDescriptor, signal) }
    }

    /// Kills every process of the tree at once, from any thread, waiting for nothing: the init (with a namespace,
    /// its death ends them all), else the program and every descendant found, then the init. `end()` reaps.
    package func kill() {
        guard state.withLock({ !$0.reaped }) else { return }
        if containment == .subreaper {
            if programDescriptor >= 0 { _ = csharing_pidfd_send_signal(programDescriptor, SIGKILL) }
            for member in members() { Processes.terminate(member) }
        }
        _ = csharing_pidfd_send_signal(initDescriptor, SIGKILL)
    }

    /// Ends every process of the tree and reaps the init: with a namespace, the init's death ends them all;
    /// without one, the program and every descendant found are killed, then the init.
    package func end() {
        guard state.withLock({ !$0.reaped }) else { return }
        if containment == .subreaper {
            if programDescriptor >= 0 { _ = csharing_pidfd_send_signal(programDescriptor, SIGKILL) }
            // The init kills the rest once it has reaped the program; whatever it has not, is killed here.
            if !waitForInit(timeout: .seconds(1)) {
                for member in members() { Processes.terminate(member) }
            }
        }
        _ = csharing_pidfd_send_signal(initDescriptor, SIGKILL)
        _ = waitForInit(timeout: nil)
    }

    /// Waits up to `timeout` (`nil`: as long as it takes) for the init to end, and reaps it; whether it has.
    @discardableResult
    package func waitForInit(timeout: Duration?) -> Bool {
        if state.withLock({ $0.reaped }) { return true }
        if let timeout, (try? Poll.readable([initDescriptor], timeout: timeout, name: name))?.isEmpty ?? true { return false }
        var status: CInt = 0
        while true {
            let reaped = csharing_pidfd_reap(initDescriptor, &status)
            if reaped == 1 { break }
            if reaped < 0 && errno != EINTR { break }
            if timeout != nil && reaped == 0 { return false }
            if reaped == 0 { _ = try? Poll.readable([initDescriptor], timeout: .seconds(1), name: name) }
        }
        state.withLock { $0.reaped = true }
        return true
    }

    /// Every process of the tree but the init, as this process's namespace numbers them: the init's
    /// descendants, found through /proc.
    package func members() -> [Int32] {
        Processes.descendants(of: initIdentifier)
    }

    /// The resident anonymous and shared memory plus swap of every process of the tree but the init (and those
    /// running a program of `programs`)
    /// (`/proc/PID/status`: counters the kernel keeps, read in a tenth of the footprint's time). It is close
    /// to the footprint while the processes have no dirty pages of shared file mappings and no memory files
    /// they do not map, which only `footprint` counts.
    package func residentMemory(ignoring programs: Set<String> = []) -> Int {
        counted(ignoring: programs).reduce(0) { total, member in total + (Self.contents(of: "/proc/\(member)/status").flatMap(Self.residentMemory(status:)) ?? 0) }
    }

    /// The tree's footprint, as the supervisor counts it (but for processes running a program of `programs`):
    /// each process's private dirty memory plus swap
    /// (`smaps_rollup`), the memory files its processes hold open and map nowhere (`excluding` the inodes
    /// of those this process gave them), and the kernel's buffers they hold through sockets and pipes (what
    /// waits in them unread, each counted once however many hold it). Reading it walks each process's page
    /// tables: about 160 µs for an idle Swift process here.
    package func footprint(excluding given: Set<UInt64> = [], ignoring programs: Set<String> = []) -> Int {
        var total = 0
        var mapped: Set<UInt64> = []
        var held: [UInt64: Int] = [:]
        var buffers: [UInt64: Int] = [:]
        for member in counted(ignoring: programs) {
            total += Self.contents(of: "/proc/\(member)/smaps_rollup").flatMap(Self.footprint(smapsRollup:)) ?? 0
            mapped.formUnion(Self.mappedMemoryFiles(maps: Self.contents(of: "/proc/\(member)/maps") ?? ""))
            let descriptors = Self.descriptors(of: member)
            for (inode, bytes) in descriptors.memoryFiles { held[inode] = bytes }
            for (inode, bytes) in descriptors.buffers { buffers[inode] = max(buffers[inode] ?? 0, bytes) }
        }
        for (inode, bytes) in held where !mapped.contains(inode) && !given.contains(inode) { total += bytes }
        return total + buffers.values.reduce(0, +)
    }

    /// How long each thread of the tree has waited for a core since it started, and how many times it was put on
    /// one, by thread (this namespace's numbers): the run-queue delay the kernel keeps for each task, in
    /// nanoseconds, and its time slices (`/proc/PID/task/TID/schedstat`'s second and third fields). Time a busy
    /// machine took from the extension. The init's counts too: it reaps the extension and says how it ended.
    package func runQueueDelays() -> [Int32: CoreWait] {
        var delays: [Int32: CoreWait] = [:]
        for member in [initIdentifier] + members() {
            for thread in (try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: "/proc/\(member)/task"))) ?? [] {
                guard let identifier = Int32(thread),
                      let wait = Self.contents(of: "/proc/\(member)/task/\(thread)/schedstat").flatMap(Self.coreWait(schedstat:)) else { continue }
                delays[identifier] = wait
            }
        }
        return delays
    }

    /// A thread's wait for a core: in all, in nanoseconds, and the time slices it was spread over.
    package struct CoreWait: Equatable, Sendable {
        package var delay: UInt64
        package var slices: UInt64

        package init(delay: UInt64, slices: UInt64) {
            self.delay = delay
            self.slices = slices
        }
    }

    /// The run-queue delay and time slices from the text of a schedstat file (time on a core, time waiting for
    /// one, time slices).
    package static func coreWait(schedstat text: String) -> CoreWait? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 3, let delay = UInt64(fields[1]), let slices = UInt64(fields[2]) else { return nil }
        return CoreWait(delay: delay, slices: slices)
    }

    /// The members but those running a program named in `programs` (by its file name).
    private func counted(ignoring programs: Set<String>) -> [Int32] {
        let members = members()
        guard !programs.isEmpty else { return members }
        return members.filter { member in
            let program = (try? FileSystem.destinationOfSymbolicLink(URL(fileURLWithPath: "/proc/\(member)/exe"))) ?? ""
            return !programs.contains(URL(fileURLWithPath: program).lastPathComponent)
        }
    }

    private static func contents(of path: String) -> String? {
        guard let data = try? OpenFile.reading(URL(fileURLWithPath: path), regularOnly: false).readAll(limit: 16 << 20) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Private_Dirty plus Swap, in bytes, from the text of an smaps_rollup file.
    package static func footprint(smapsRollup text: String) -> Int? {
        sumOfKilobytes(["Private_Dirty:", "Swap:"], in: text)
    }

    /// RssAnon plus RssShmem plus VmSwap, in bytes, from the text of a status file.
    package static func residentMemory(status text: String) -> Int? {
        sumOfKilobytes(["RssAnon:", "RssShmem:", "VmSwap:"], in: text)
    }

    /// The inodes of memory files (`/memfd:…`) a maps file shows mapped.
    package static func mappedMemoryFiles(maps text: String) -> Set<UInt64> {
        var inodes: Set<UInt64> = []
        for line in text.split(separator: "\n") where line.contains("/memfd:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, let inode = UInt64(fields[4]) { inodes.insert(inode) }
        }
        return inodes
    }

    /// What a process holds through its descriptors beyond its own memory: the memory files it has open
    /// (inode, the bytes they take), and the kernel's buffers behind its sockets and pipes (inode, the bytes
    /// queued in them), each fetched through a process descriptor.
    private static func descriptors(of process: Int32) -> (memoryFiles: [(UInt64, Int)], buffers: [(UInt64, Int)]) {
        let directory = "/proc/\(process)/fd"
        guard let names = try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: directory)) else { return ([], []) }
        let handle = csharing_pidfd_open(process)
        defer { if handle >= 0 { Syscall.closeDescriptor(handle) } }
        var memoryFiles: [(UInt64, Int)] = [], buffers: [(UInt64, Int)] = []
        for name in names {
            let path = "\(directory)/\(name)"
            guard let target = try? FileSystem.destinationOfSymbolicLink(URL(fileURLWithPath: path)) else { continue }
            if target.hasPrefix("/memfd:") {
                var status = stat()
                guard stat(path, &status) == 0 else { continue }
                memoryFiles.append((UInt64(status.st_ino), Int(status.st_blocks) * 512))
            } else if target.hasPrefix("socket:[") || target.hasPrefix("pipe:["), handle >= 0,
                      let inode = UInt64(target.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }), let number = CInt(name) {
                let bytes = csharing_queued_bytes(handle, number)
                if bytes > 0 { buffers.append((inode, Int(bytes))) }
            }
        }
        return (memoryFiles, buffers)
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
                                  SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
                                  SIGXFSZ: "SIGXFSZ", SIGXCPU: "SIGXCPU", SIGSYS: "SIGSYS"]
    return names[signal] ?? "signal \(signal)"
}

/// `strings` as a NULL-terminated array of C strings, for the duration of `body`.
/// `body` with `string` as a C string, or with NULL for none.
func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString(body)
}

func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!) }
}

/// One thread that lives as long as the process and starts every tree, so that each init's parent-death signal
/// is tied to a thread that never ends first.
// @unchecked: its mutable state is only touched under its lock (its condition's).
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        // Named by the thread itself: a thread takes its creator's kernel name, which Foundation's `name` leaves.
        let thread = Thread { [unowned self] in
            csharing_set_thread_name("OS spawn")
            loop()
        }
        thread.start()
    }

    /// Runs `work` on the spawning thread and waits for its result.
    func run<T>(_ work: @escaping () -> T) -> T {
        Blocking.mayBlock("starting a process")
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
        // moment later, holds no reference to it (nor does its own copy): a tree released by its owner is
        // ended at once.
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
