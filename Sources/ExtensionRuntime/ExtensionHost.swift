public import Foundation
public import OpenItemProvider
import SharingSystem

#if canImport(Glibc)
import Glibc
#endif

/// Runs extensions as their own processes, one request each, under limits, and reports exactly one outcome
/// per request.
///
/// Each run gets a container directory of its own (its HOME and TMPDIR), a clean environment, and only the
/// descriptors the runtime passes; it is removed with everything in it when the run ends. The extension's
/// loads are served from `items`' providers as it asks for them: files as descriptors, data inline or in a
/// sealed memory file, never copied through the socket.
public struct ExtensionHost: Sendable {
    public var limits: ExtensionLimits?
    /// The directory of app group containers the extension is given (`OPENSHARING_APP_GROUP_CONTAINERS`).
    public var appGroupContainers: URL?
    /// What the host does when the extension asks it to open a URL; `nil` refuses every URL.
    public var openURL: (@Sendable (URL) -> Bool)?
    /// A delegated, writable cgroup v2 directory, if the host was given one: each extension then runs in a
    /// child cgroup of it whose `memory.max` enforces the memory limit (see `docs/runtime.md`).
    public var cgroup: URL?

    public init(limits: ExtensionLimits? = nil, appGroupContainers: URL? = nil, cgroup: URL? = nil,
                openURL: (@Sendable (URL) -> Bool)? = nil) {
        self.limits = limits
        self.appGroupContainers = appGroupContainers
        self.cgroup = cgroup
        self.openURL = openURL
    }

    /// Starts `bundle`'s extension with a request about `items` and waits for the request's one outcome.
    ///
    /// - Throws: `ExtensionRuntimeError` when the extension cannot be started at all (no container, no
    ///   process); everything that happens once it runs is in the outcome.
    public func run(_ bundle: ExtensionBundle, items: [NSExtensionItem]) async throws(ExtensionRuntimeError) -> ExtensionRun {
        let limits = limits ?? .defaults(forExtensionPoint: bundle.extensionPointIdentifier)
        // Starting the process (directories, fork) and watching it block: never on Swift concurrency's few
        // threads, which other tasks (the host's own) need meanwhile.
        return try await BlockingThreads.run { [self] () throws(ExtensionRuntimeError) -> ExtensionRun in
            let session = try Session(bundle: bundle, items: items, limits: limits, appGroupContainers: appGroupContainers,
                                      cgroup: cgroup, openURL: openURL)
            return session.supervise()
        }
    }
}

/// The host could not start an extension.
public struct ExtensionRuntimeError: Error, Sendable, CustomStringConvertible {
    public var bundle: String
    public var problem: String
    public var description: String { "\(bundle): \(problem)" }
}

/// One request's supervision: the process, its channel, its loads, its clocks.
private final class Session: @unchecked Sendable {
    private let bundle: ExtensionBundle
    private let limits: ExtensionLimits
    /// The socket the extension was started with: it carries only the extension's `ready`.
    private let bootstrap: PacketChannel
    /// The socket pair end the extension handed over with `ready`, over which the request goes on.
    private let connected = Locked<PacketChannel?>(nil)
    private let child: ChildProcess
    private let container: URL
    private let memoryCgroup: MemoryCgroup?
    private let providers: [NSItemProvider]
    private let request: [UInt8]
    private let openURL: (@Sendable (URL) -> Bool)?
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant

    /// The loads being served, from the extension's ask until the answer goes back, each with the progress its
    /// provider returned once it has (loads are started, and cancelled, on the supervising thread).
    private let loads = Locked<[UInt32: Progress?]>([:])
    private let records = Locked<[ExtensionLoad]>([])
    private let opened = Locked<[URL]>([])
    private var peak = 0
    /// When the footprint was last read.
    private var measuredExactly: ContinuousClock.Instant = .now - .seconds(1)
    private var ready = false
    /// The extension's end of the current channel is closed.
    private var closed = false
    private var closedAt: ContinuousClock.Instant?
    private var outcome: ExtensionOutcome?
    private var endedAt: ContinuousClock.Instant?
    private var requestedAt: ContinuousClock.Instant?
    private var warned: (phase: TimeoutPhase, at: ContinuousClock.Instant)?
    /// Why the host killed the extension, if it did.
    private var killedFor: InterruptionReason?

    /// Whether extensions are confined with Landlock: wherever the kernel has it.
    static let confines = ChildProcess.landlockVersion >= 1

    /// How often the supervisor reads the footprint: at 500 MB/s an allocation grows 2.5 MB in that time.
    static let memoryInterval: Duration = .milliseconds(5)

    /// How often the footprint is read when the resident memory does not call for it: what only the footprint
    /// sees (dirty pages of shared file mappings) is caught this late.
    static let footprintInterval: Duration = .milliseconds(50)

    init(bundle: ExtensionBundle, items: [NSExtensionItem], limits: ExtensionLimits, appGroupContainers: URL?,
         cgroup: URL?, openURL: (@Sendable (URL) -> Bool)?) throws(ExtensionRuntimeError) {
        self.bundle = bundle
        self.limits = limits
        self.openURL = openURL
        providers = items.flatMap { $0.attachments ?? [] }
        let wire = items.map { item in
            WireItem(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string,
                     attachments: (item.attachments ?? []).map { provider in
                         WireAttachment(suggestedName: provider.suggestedName,
                                        representations: provider.registeredForms.map { WireRepresentation(type: $0.typeIdentifier, form: RepresentationForm($0.form)) })
                     })
        }
        request = RuntimeMessage.request(items: wire).encoded().bytes
        guard request.count <= RuntimeMessage.maximumPacket else {
            throw ExtensionRuntimeError(bundle: bundle.url.path, problem: "the request's items describe in \(request.count) bytes; a request holds at most \(RuntimeMessage.maximumPacket)")
        }
        let problem = { (what: String) in ExtensionRuntimeError(bundle: bundle.url.path, problem: what) }
        Self.removeContainersOfDeadHosts()
        do {
            try FileSystem.createDirectories(Self.containers)
            container = try FileSystem.createUniqueDirectory(in: Self.containers, prefix: "\(Processes.current)-\(bundle.name)-")
        } catch {
            throw problem("cannot make its container: \(error)")
        }
        do {
            memoryCgroup = try cgroup.map { cgroup throws(SystemError) in try MemoryCgroup(in: cgroup, name: bundle.name, limit: limits.memory) }
        } catch {
            try? FileSystem.removeTree(container)
            throw problem("cannot use the cgroup \(cgroup?.path ?? ""): \(error)")
        }
        do {
            // The app groups' directory exists before the extension is confined to it.
            if let appGroupContainers { try FileSystem.createDirectories(appGroupContainers) }
            let temporary = container.appendingPathComponent("tmp")
            try FileSystem.createDirectory(temporary)
            let log = try OpenFile.creating(container.appendingPathComponent("log"))
            var environment = ["HOME": container.path, "TMPDIR": temporary.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            environment["OPENSHARING_APP_GROUP_CONTAINERS"] = appGroupContainers?.path
            let (host, guest) = try PacketChannel.pair(name: "the extension \(bundle.name)")
            bootstrap = host
            var specification = ChildProcess.Specification(
                executable: bundle.executable, environment: environment, directory: container, channel: guest,
                output: log, dataLimit: max(limits.memory * 2, limits.memory + (256 << 20)), cgroupProcesses: memoryCgroup?.processes)
            if Self.confines {
                let system = ["/usr", "/bin", "/opt"].map { URL(fileURLWithPath: $0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
                specification.confinement = (writable: [container] + (appGroupContainers.map { [$0] } ?? []), executable: [bundle.url] + system)
            }
            started = clock.now
            child = try ChildProcess.start(specification, name: "the extension \(bundle.name)")
        } catch {
            // Nothing is left of a run that did not start.
            memoryCgroup?.remove()
            try? FileSystem.removeTree(container)
            throw problem("cannot start: \(error)")
        }
    }

    /// Where the extensions' containers are: one directory each, `PID-NAME-XXXXXX`, PID the host's.
    static let containers = FileManager.default.temporaryDirectory.appending(component: "opensharing-extensions")

    /// Removes the containers of hosts that died before they could: a host killed mid-request leaves its
    /// extension's container behind, and the next host tidies.
    static func removeContainersOfDeadHosts() {
        for name in (try? FileSystem.contentsOfDirectory(containers)) ?? [] {
            guard let host = name.split(separator: "-").first.flatMap({ Int32($0) }), host > 0, !Processes.exists(host) else { continue }
            try? FileSystem.removeTree(containers.appending(component: name))
        }
    }

    /// Watches the extension until the request has its outcome and the process has ended, then cleans up.
    func supervise() -> ExtensionRun {
        var termination: ChildProcess.Termination?
        var measured = clock.now - .seconds(1)
        while termination == nil {
            // The footprint every 5 ms, not every message: reading smaps_rollup costs tens of microseconds.
            if clock.now - measured >= Self.memoryInterval {
                measured = clock.now
                checkMemory()
                reportProgress()
            }
            checkClock()
            let channel = connected.withLock { $0 } ?? bootstrap
            let watched = closed ? [child.descriptor] : [channel.descriptor, child.descriptor]
            let ready = try? Poll.readable(watched, timeout: Self.memoryInterval, name: "the extension")
            if !closed && ready?.contains(channel.descriptor) == true && !receive() {
                // End of file: normal once the request has ended, and usual when the process is dying.
                closed = true
                closedAt = clock.now
            }
            // A process that closed its connection before ending the request, and is still running a moment
            // later, broke the protocol.
            if closed, outcome == nil, let closedAt, clock.now >= closedAt + .milliseconds(250) {
                kill(for: .protocolViolation("the extension closed its connection before ending the request"))
            }
            // The process descriptor becomes readable when the process ends.
            if ready?.contains(child.descriptor) ?? true { termination = try? child.termination() }
        }
        // Whatever the extension sent before it ended still counts: an outcome sent just before exiting.
        while killedFor == nil, !closed, let channel = connected.withLock({ $0 }), (try? channel.waitUntilReadable(timeout: .zero)) == true {
            if !receive() { break }
        }
        // Cancelled outside the lock: a cancelled load answers, and an answer takes the lock.
        let pending = loads.withLock { pending in
            defer { pending.removeAll() }
            return pending.values.compactMap { $0 }
        }
        pending.forEach { $0.cancel() }
        // The kernel's kill at the cgroup's memory.max is the memory limit too.
        if let memoryCgroup {
            if memoryCgroup.oomKills > 0 && outcome == nil && killedFor == nil {
                killedFor = .memoryLimit(limit: limits.memory, peak: max(peak, memoryCgroup.peak ?? 0))
            }
            memoryCgroup.remove()
        }
        let status: ExitStatus? = termination.map {
            switch $0 {
            case .exited(let code): .exited(code)
            case .signalled(let signal): .signalled(signal)
            }
        }
        let final: ExtensionOutcome
        if let outcome {
            final = outcome
        } else if let killedFor {
            final = .interrupted(killedFor)
        } else {
            final = .interrupted(.crashed(status ?? .exited(-1)))
        }
        let log = (try? OpenFile.reading(container.appendingPathComponent("log")).readAll(limit: 16 << 20)) ?? Data()
        try? FileSystem.removeTree(container)
        return ExtensionRun(outcome: final, loads: records.withLock { $0 }, openedURLs: opened.withLock { $0 },
                            peakFootprint: peak, log: String(decoding: log.suffix(64 << 10), as: UTF8.self), exitStatus: status,
                            confined: Self.confines)
    }

    private func kill(for reason: InterruptionReason) {
        if killedFor == nil && outcome == nil { killedFor = reason }
        child.signal(SIGKILL)
    }

    /// What was last said of each pending load's progress.
    private var reportedProgress: [UInt32: (Int64, Int64)] = [:]

    /// Tells the extension how far each pending load has got, in millionths (the host's progress is a tree
    /// whose fraction, not its counts, follows the provider's own), when that changed since it was last told.
    private func reportProgress() {
        let pending = loads.withLock { $0.compactMapValues { $0 } }
        reportedProgress = reportedProgress.filter { pending[$0.key] != nil }
        for (id, progress) in pending {
            let now = (Int64((progress.fractionCompleted * 1_000_000).rounded()), Int64(1_000_000))
            guard reportedProgress[id].map({ $0 != now }) ?? (now.0 > 0) else { continue }
            reportedProgress[id] = now
            send(.progress(id: id, completed: now.0, total: now.1))
        }
    }

    /// The footprint's walk of the page tables costs ten times the resident memory's counters, so it is read
    /// only when the resident memory may have passed the peak (and so the limit), or every 50 ms.
    private func checkMemory() {
        guard let resident = child.residentMemory() else { return }
        let now = clock.now
        guard resident > peak || now - measuredExactly >= Self.footprintInterval else { return }
        measuredExactly = now
        guard let footprint = child.footprint() else { return }
        peak = max(peak, footprint)
        if footprint > limits.memory && killedFor == nil {
            kill(for: .memoryLimit(limit: limits.memory, peak: peak))
        }
    }

    /// The budget running now, and when it ends.
    private var deadline: (TimeoutPhase, ContinuousClock.Instant) {
        if let endedAt { return (.afterCompletion, endedAt + limits.afterCompletion) }
        if let requestedAt { return (.request, requestedAt + limits.request) }
        return (.startup, started + limits.startup)
    }

    private func checkClock() {
        guard killedFor == nil else { return }
        let now = clock.now
        let (phase, end) = deadline
        guard now >= end else { return }
        if let warned, warned.phase == phase {
            if now >= warned.at + limits.grace { kill(for: .timeout(phase)) }
        } else {
            warned = (phase, now)
            send(.timeWarning(phase: phase.rawValue))
        }
    }

    /// Sends a message on the connected channel, if the extension is connected; a send to an extension that
    /// has gone is dropped (its end shows at its process descriptor).
    private func send(_ message: RuntimeMessage, files: [OpenFile] = []) {
        guard let channel = connected.withLock({ $0 }) else { return }
        try? channel.send(message.encoded().bytes, files: files)
    }

    /// Receives and handles one packet; `false` at end of file.
    @discardableResult
    private func receive() -> Bool {
        let channel = connected.withLock { $0 } ?? bootstrap
        let packet: PacketChannel.Packet
        do {
            guard let received = try channel.receive(capacity: RuntimeMessage.maximumPacket + 1) else { return false }
            packet = received
        } catch {
            return false
        }
        if packet.truncated {
            kill(for: .protocolViolation("a message larger than \(RuntimeMessage.maximumPacket) bytes or with more than \(PacketChannel.maximumDescriptors) descriptors"))
            return false
        }
        do {
            try handle(try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count), files: packet.files)
        } catch {
            kill(for: .protocolViolation(error.message))
            return false
        }
        return true
    }

    private func handle(_ message: RuntimeMessage, files: [OpenFile]) throws(ProtocolViolation) {
        switch message {
        case .ready(let process):
            guard !ready, let file = files.first else { throw ProtocolViolation("ready twice") }
            guard let channel = try? PacketChannel(duplicating: file, name: "the extension \(bundle.name)") else {
                throw ProtocolViolation("ready with a descriptor that is not a socket")
            }
            let maker = (try? channel.peerProcess()) ?? -1
            guard maker == child.identifier, process == child.identifier else {
                throw ProtocolViolation("ready from process \(process) with a socket made by process \(maker); the extension is \(child.identifier)")
            }
            ready = true
            requestedAt = clock.now
            warned = nil
            connected.withLock { $0 = channel }
            try? channel.send(request)
            closed = false
        case .load(let id, let attachment, let type, let form):
            guard ready else { throw ProtocolViolation("a load before ready") }
            guard Int(attachment) < providers.count else {
                throw ProtocolViolation("a load of attachment \(attachment); the request has \(providers.count)")
            }
            guard outcome == nil else {
                return reply(id, .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the request has ended")), record: nil)
            }
            serve(id: id, provider: providers[Int(attachment)], type: type, form: form)
        case .cancelLoad(let id):
            loads.withLock { $0.removeValue(forKey: id) }??.cancel()
        case .openURL(let id, let string):
            guard ready else { throw ProtocolViolation("openURL before ready") }
            let url = URL(string: string)
            if let url { opened.withLock { $0.append(url) } }
            let answer = url.map { url in openURL?(url) ?? false } ?? false
            send(.openedURL(id: id, opened: answer))
        case .complete(let items):
            guard ready else { throw ProtocolViolation("completeRequest before ready") }
            guard outcome == nil else { return }
            outcome = .completed(try ReturnedItems.make(items, files: files))
            endedAt = clock.now
            warned = nil
        case .cancel(let error):
            guard ready else { throw ProtocolViolation("cancelRequest before ready") }
            guard outcome == nil else { return }
            outcome = .cancelled(Payloads.nsError(error))
            endedAt = clock.now
            warned = nil
        case .request, .loaded, .openedURL, .timeWarning, .progress, .streamEnded:
            throw ProtocolViolation("a host's message (\(message.kindName)) from the extension")
        }
    }

    /// Serves one load from the host's provider, on the provider's threads; the answer goes straight back.
    private func serve(id: UInt32, provider: NSItemProvider, type: String, form: RepresentationForm) {
        let record = ExtensionLoad(typeIdentifier: type, form: form.name)
        // Pending before the provider starts: its answer may come before its load returns.
        loads.withLock { $0[id] = .some(nil) }
        let progress: Progress?
        switch form {
        case .data:
            progress = provider.loadDataRepresentation(forTypeIdentifier: type) { [self] data, error in
                guard let data else { return reply(id, Payloads.result(for: error, fallback: "no data"), record: record) }
                do {
                    let (result, files) = try Payloads.result(for: data)
                    reply(id, result, files: files, record: record, size: data.count)
                } catch {
                    reply(id, Payloads.result(for: error, fallback: ""), record: record)
                }
            }
        case .file, .fileInPlace:
            progress = provider.loadRegisteredFile(forTypeIdentifier: type) { [self] url, error in
                guard let url else { return reply(id, Payloads.result(for: error, fallback: "no file"), record: record) }
                do {
                    let file = try OpenFile.reading(url, regularOnly: false)
                    let status = try file.status()
                    if status.kind == .other {
                        stream(id, from: file, named: url.lastPathComponent, record: record)
                    } else {
                        reply(id, .file(name: url.lastPathComponent), files: [file], record: record, size: Int(status.size))
                    }
                } catch {
                    reply(id, Payloads.result(for: error, fallback: ""), record: record)
                }
            }
        case .item:
            provider.loadItem(forTypeIdentifier: type, options: nil) { [self] item, error in
                guard error == nil else { return reply(id, Payloads.result(for: error, fallback: "no item"), record: record) }
                do {
                    let (result, files) = try Payloads.result(for: item)
                    reply(id, result, files: files, record: record, size: result.size)
                } catch {
                    reply(id, Payloads.result(for: error, fallback: ""), record: record)
                }
            }
            progress = nil
        }
        loads.withLock { pending in
            if pending[id] != nil { pending[id] = .some(progress) }
        }
    }

    /// Answers a load with a stream of unknown length: the reading end of a pipe, which a blocking thread
    /// fills from `source` until it ends or the extension lets go of the pipe; then the extension is told how
    /// it ended (before it sees the pipe's end), and the load's record gets its size.
    private func stream(_ id: UInt32, from source: OpenFile, named name: String, record: ExtensionLoad) {
        let pipe: (reading: OpenFile, writing: OpenFile)
        do {
            pipe = try StreamPipe.make(name: name)
        } catch {
            return reply(id, Payloads.result(for: error, fallback: ""), record: record)
        }
        var streamed = record
        streamed.form = "stream"
        loads.withLock { _ = $0.removeValue(forKey: id) }
        let index = note(streamed)
        send(.loaded(id: id, .stream(name: name)), files: [pipe.reading])
        // The writing end lives only in the box, and closes when it is emptied, after the extension is told.
        let writing = Locked<OpenFile?>(pipe.writing)
        BlockingThreads.submit { [self] in
            let pumped: (bytes: Int64, ended: Bool)? = {
                guard let end = writing.withLock({ $0 }) else { return nil }
                return try? StreamPipe.pump(from: source, into: end)
            }()
            let bytes = pumped?.bytes ?? 0
            records.withLock { $0[index].size = Int(bytes) }
            send(.streamEnded(id: id, bytes: UInt64(bytes), complete: pumped?.ended ?? false))
            writing.withLock { $0 = nil }
        }
    }

    /// Sends the answer to load `id`, and records the load (a load after the request ended is not).
    private func reply(_ id: UInt32, _ result: LoadResult, files: [OpenFile] = [], record: ExtensionLoad?, size: Int? = nil) {
        loads.withLock { _ = $0.removeValue(forKey: id) }
        if var record {
            record.size = size
            if case .failed(let error) = result { record.failure = error.message }
            note(record)
        }
        send(.loaded(id: id, result), files: files)
    }

    /// Adds a load to the lifecycle; its index there.
    @discardableResult
    private func note(_ record: ExtensionLoad) -> Int {
        records.withLock { records in
            records.append(record)
            return records.count - 1
        }
    }
}

private extension RuntimeMessage {
    var kindName: String {
        switch self {
        case .ready: "ready"
        case .load: "load"
        case .cancelLoad: "cancelLoad"
        case .openURL: "openURL"
        case .complete: "complete"
        case .cancel: "cancel"
        case .request: "request"
        case .loaded: "loaded"
        case .openedURL: "openedURL"
        case .timeWarning: "timeWarning"
        case .progress: "progress"
        case .streamEnded: "streamEnded"
        }
    }
}

extension RepresentationForm {
    /// The form of a representation as the provider registered it.
    init(_ form: NSItemProvider.RepresentationForm) {
        switch form {
        case .data: self = .data
        case .file: self = .file
        case .fileInPlace: self = .fileInPlace
        case .item: self = .item
        }
    }
}

extension LoadResult {
    /// The bytes a result hands over, when it says.
    var size: Int? {
        switch self {
        case .bytes(let bytes), .propertyList(let bytes): bytes.count
        case .memory(let length): Int(length)
        case .url(let string), .text(let string): string.utf8.count
        case .file, .stream, .failed: nil
        }
    }
}
