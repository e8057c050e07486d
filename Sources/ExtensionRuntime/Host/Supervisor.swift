import Foundation
import OpenExtensionUI
import OpenItemProvider
#if canImport(Darwin)
import UniformTypeIdentifiers
#else
import OpenUniformTypeIdentifiers
#endif
import PackageSupport
import SharingSystem

/// One process's supervision, on one thread of the platform layer's: the process tree, its channel, its
/// limits and clocks, and its one outcome. The loads are the `LoadServer`'s; every message to the extension
/// goes through the `Outbox`, so nothing here ever waits on the extension. A share or action extension gets one
/// request; a notification service gets notifications one after another, as the desk hands them out, each with
/// the request's time budget, until the desk has none or the process ends.
final class Supervisor {
    /// What the process is for.
    enum Work {
        /// One request about these items.
        case share([NSExtensionItem])
        /// The notifications the desk hands out.
        case notifications(NotificationDesk)
    }

    private let bundle: ExtensionBundle
    /// What the person using the extension does.
    private let user: ExtensionUser
    private let limits: ExtensionLimits
    private let container: Container
    private let memoryCgroup: MemoryCgroup?
    private let tree: ProcessTree
    /// The log the extension's standard output and error go to, read back through this descriptor, opened
    /// before the extension ran: whatever it does to the path, this is the file it wrote.
    private let logFile: OpenFile
    /// The socket the extension was started with: it carries only the extension's `ready`.
    private let bootstrap: PacketChannel
    /// The socket pair end the extension handed over with `ready`, over which the request goes on.
    private var channel: PacketChannel?
    private let outbox: Outbox
    private let loads: LoadServer
    private let request: RuntimeMessage
    private let desk: NotificationDesk?
    private let openURL: (@Sendable (URL) -> Bool)?
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant

    /// The tree's memory, read on a thread of its own: what it has peaked at, and whether it went over.
    private let memory: MemoryWatch
    /// The watch's word that the tree went over has been judged.
    private var memoryJudged = false
    /// Everything stored on disk for the extension, measured on another thread, and when that last began.
    private let disk: DiskMeter
    /// Where the kernel has pre-content events: every access of a file's content where the extension writes
    /// waits for the gatekeeper's answer, which lets a file grow only within the disk budget; nil elsewhere,
    /// where the meter alone keeps the budget, after the writes.
    private let gatekeeper: DiskGatekeeper?
    /// Where the kernel has seccomp's user notifications: each connect of the tree, held until the supervisor has
    /// read what the extension sent before it.
    private let connectionWatcher: ConnectionWatcher?
    /// The uploads of background sessions the extension handed over, carried on whatever becomes of it.
    private let transfers: TransferCarrier
    /// The app groups' directory, and the kernel's change clock before the extension started: a file changed
    /// there since is what the extension kept for its app.
    private let appGroups: (url: URL, since: Int64)?
    private var diskMeasuredAt: ContinuousClock.Instant
    /// When a write last set off a measurement.
    private var writeMeasuredAt: ContinuousClock.Instant
    private var ready = false
    /// The extension's end of the current channel is closed.
    private var closed = false
    /// Since the extension closed its connection, counted as a budget is: the time it could have run.
    private var sinceClosed: PhaseClock?
    private var outcome: ExtensionOutcome?
    private var endedAt: ContinuousClock.Instant?
    /// The time budget running now, charged as a device charges it.
    private var phaseClock: PhaseClock
    /// Before this, the budget cannot have run out, however little the machine delayed the extension: the
    /// kernel's counters are read only from then on.
    private var nextClockCheck: ContinuousClock.Instant
    /// The time warning sent for the phase running now, if it was: the phase.
    private var warned: TimeoutPhase?
    /// Whether a notification service that has delivered its last notification is living on before it is told
    /// the request has ended.
    private var lingering = false
    /// The requests' time so far, and how much of it the machine kept the extension waiting for a core.
    private var requestTime: Duration = .zero
    private var waitedForCore: Duration = .zero
    /// Why the host ended the extension, if it did.
    private var killedFor: InterruptionReason?
    /// A message is being handled: what it calls must not read the channel again.
    private var handling = false
    /// When the message being handled was sent, as the kernel stamped it (else when it was read).
    private var handledSentAt: Int64 = 0
    private var opened: [URL] = []
    private var returned: [ExtensionLoad] = []
    private var alerts: [PresentedAlert] = []
    /// What an empty extension already uses on the device played, added to every reading of the footprint.
    private let baseline: Int
    /// The time after completion ran out with the process at work.
    private var afterCompletionExpired = false
    /// The host ended the extension after its request had ended (its time after completion, or a limit).
    private var killedAfterEnding = false
    /// Notification center calls not yet answered, in order.
    private var centerCalls: [(id: UInt32, call: WireCenterCall)] = []
    /// What the user tapped, in order.
    private var taps: [String] = []
    /// The most taps a run records.
    private static let tapRecords = 64
    /// The names the extension posted to the Darwin notify center, in order.
    private var posted: [String] = []
    /// The interactions the extension donated, in order.
    private var donated: [String] = []
    /// The network stream connections the extension opened, in order: each address, or `nil` unread.
    private var connected: [String?] = []
    /// The host names the extension looked up, in order.
    private var lookups: [String] = []
    /// The first connection refused for being beyond this machine's loopback: its address.
    private var refusedConnection: String?
    /// What the run found, each code once, in the order first seen.
    private var findings: [Finding]

    /// How often the loop turns with nothing to wake it: progress is reported, clocks and the disk judged.
    static let tick: Duration = .milliseconds(5)
    /// How often the disk used for the extension is measured.
    static let diskInterval: Duration = .milliseconds(250)
    /// The most URLs a run records.
    static let openedURLRecords = 1000
    /// The most alerts a run records.
    static let alertRecords = 100
    /// The most Darwin notifications a run records.
    static let postedRecords = 1000
    /// The most connections a run records.
    static let connectionRecords = 1000
    /// The most messages read before a connection is judged, so that it is judged after everything the
    /// extension sent before it: an extension that sends more while its connect waits only delays its connect.
    static let messagesBeforeConnection = 4096
    /// How long a process that closed its connection before ending its request may go on running before that
    /// is a protocol violation: long enough to be seen ending, if it is.
    static let closedMoment: Duration = .milliseconds(250)
    /// What a stream leaves of the disk budget: an extension whose stream was cut short writes a little more as
    /// it handles that (its log, a record of the failure), and that must not decide the run by the moment the
    /// meter happens to walk.
    static let streamReserve = 64 << 10
    /// The most messages read in one turn of the loop.
    static let messagesAtOnce = 64
    /// The most notification center calls that wait for an earlier answer to be read.
    static let waitingCenterCalls = 64
    /// How long a notification service's process lives on after its last notification's content, before the
    /// host tells it the request has ended: iOS keeps the process a while for the next notification (how long,
    /// Apple does not say), and a handler called again meanwhile is seen. Charged as a budget is, so a busy
    /// machine does not hide a late call.
    static let notificationLinger: Duration = .seconds(1)

    init(bundle: ExtensionBundle, work: Work, user: ExtensionUser = .none, limits: ExtensionLimits, baseline: Int = 0, environment extra: [String: String] = [:],
         appGroupContainers: URL?, cgroup: URL?, pidNamespace: Bool, openURL: (@Sendable (URL) -> Bool)?,
         transfers: TransferCarrier, faults: HostFaults = HostFaults()) throws(ExtensionRuntimeError) {
        self.bundle = bundle
        self.user = user
        self.transfers = transfers
        findings = bundle.leftOut.map { $0.isEmpty ? [] : [.notCompiledHere($0)] } ?? []
        self.limits = limits
        self.baseline = baseline
        self.openURL = openURL
        let path = bundle.url.path
        let items: [NSExtensionItem]
        switch work {
        case .share(let shared):
            items = shared
            desk = nil
            request = .request(items: ProviderMirror.describe(items))
        case .notifications(let desk):
            items = []
            self.desk = desk
            guard let first = desk.next() else { preconditionFailure("a notification process started with no notification for it") }
            request = first
        }
        let size = request.encoded().bytes.count
        guard size <= RuntimeMessage.maximumPacket else {
            throw ExtensionRuntimeError(.requestTooLarge, bundle: path,
                                        "the request's items describe in \(size) bytes; a request holds at most \(RuntimeMessage.maximumPacket)")
        }
        do {
            container = try Container(for: bundle.name)
        } catch {
            throw ExtensionRuntimeError(.containerFailed, bundle: path, "cannot make its container", underlying: error)
        }
        do {
            memoryCgroup = try cgroup.map { cgroup throws(SystemError) in try MemoryCgroup(in: cgroup, name: bundle.name, limit: limits.memory) }
        } catch {
            container.remove()
            throw ExtensionRuntimeError(.cgroupUnusable, bundle: path, "cannot use the cgroup \(cgroup?.path ?? "")", underlying: error)
        }
        do {
            // The app groups' directory exists before the extension is confined to it, with a container for each group
            // the extension is entitled to, as iOS makes them.
            if let appGroupContainers {
                try FileSystem.createDirectories(appGroupContainers)
                for group in bundle.applicationGroups { try FileSystem.createDirectories(appGroupContainers.appending(component: group)) }
            }
            // What the app groups hold now is not the extension's: measured before it can write.
            disk = try DiskMeter(walked: [container.url, container.store.url] + (appGroupContainers.map { [$0] } ?? []),
                             hostStored: [transfers.stored] + (desk.map { [$0.storedBytes] } ?? []))
            appGroups = appGroupContainers.map { ($0, FileSystem.changeClock()) }
        } catch {
            memoryCgroup?.remove()
            container.remove()
            throw ExtensionRuntimeError(.containerFailed, bundle: path, "cannot make the app groups' directory", underlying: error)
        }
        do {
            outbox = try Outbox()
            let log = try OpenFile.creating(container.log)
            logFile = try OpenFile.reading(container.log)
            var environment = ["HOME": container.url.path, "TMPDIR": container.temporary.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            environment["OPENSHARING_APP_GROUP_CONTAINERS"] = appGroupContainers?.path
            // The groups it is entitled to: `containerURL(forSecurityApplicationGroupIdentifier:)` gives no other.
            environment["OPENSHARING_APP_GROUPS"] = bundle.applicationGroups.joined(separator: "/")
            environment.merge(extra) { _, given in given }
            let (host, guest) = try PacketChannel.pair(name: "the extension \(bundle.name)")
            bootstrap = host
            var specification = ProcessTree.Specification(
                executable: bundle.executable, environment: environment, directory: container.url, channel: guest, output: log,
                dataLimit: max(limits.memory * 2, limits.memory + (256 << 20)), fileSizeLimit: limits.disk + max(limits.disk, 64 << 20),
                cgroupProcesses: memoryCgroup?.processes, pidNamespace: pidNamespace)
            // Its container and app groups, gated where the kernel allows: the budget is kept before a byte lands.
            // The gate, or the meter after the writes where the kernel has none, keeps the budget; the file size
            // limit above is only a backstop well beyond it. At the budget itself, a write failed with EFBIG before
            // the gate or the meter could judge it, and the extension's handling of that failure (Python ignores
            // SIGXFSZ), not the budget, decided the run: a different verdict on a machine without the gate.
            let diskGate = try? DiskGate()
            specification.diskGate = diskGate
            specification.gated = [container.url] + (appGroupContainers.map { [$0] } ?? [])
            // Its log too: what it prints takes the disk as its files do.
            specification.outputPath = container.log
            specification.watchesConnections = true
            if ProcessTree.landlockVersion >= 1 {
                let system = ["/usr", "/bin", "/opt"].map { URL(fileURLWithPath: $0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
                specification.confinement = (writable: [container.url] + (appGroupContainers.map { [$0] } ?? []), executable: [bundle.url] + system)
            }
            // A program written a moment ago (a bundle just made) has pages the kernel has not yet written back,
            // and its mapped pages would count as the extension's dirty memory, which a device's installed
            // program never is: written back first (nothing to do for a program already on disk).
            try? OpenFile.reading(bundle.executable).flush()
            started = clock.now
            diskMeasuredAt = started
            writeMeasuredAt = started
            tree = try ProcessTree.start(specification, name: "the extension \(bundle.name)")
            let (meter, budget) = (disk, limits.disk)
            gatekeeper = tree.gated ? diskGate.flatMap { try? DiskGatekeeper($0, meter: meter, limit: budget) } : nil
            // Every connect waits for an answer from here on: the watch is answered, or the extension not run.
            connectionWatcher = try tree.connections.map { watch throws(SystemError) in try ConnectionWatcher(watch) }
            let started = tree
            transfers.watch { started.programHasEnded }
        } catch {
            // Nothing is left of a run that did not start.
            memoryCgroup?.remove()
            container.remove()
            throw ExtensionRuntimeError(.spawnFailed, bundle: path, "cannot start", underlying: error)
        }
        phaseClock = PhaseClock(.startup, start: started, budget: limits.startup, tree: nil)
        nextClockCheck = started + limits.startup
        let meter = disk
        desk?.diskInUse = { meter.used }
        let limit = Int64(limits.disk)
        loads = LoadServer(providers: items.flatMap { $0.attachments ?? [] }, outbox: outbox, store: container.store.url, faults: faults,
                           diskRoom: { limit - Int64(meter.used) - Int64(Self.streamReserve) })
        do {
            let served = loads
            memory = try MemoryWatch(tree, limit: limits.memory, baseline: baseline, given: { served.givenMemoryFiles })
        } catch {
            tree.end()
            memoryCgroup?.remove()
            container.remove()
            throw ExtensionRuntimeError(.spawnFailed, bundle: path, "cannot watch its memory", underlying: error)
        }
    }

    /// Watches the extension until the request has its outcome and the tree has ended, then cleans up.
    func supervise() -> ExtensionRun {
        var termination: ProcessTree.Termination?
        var terminatedAt: ContinuousClock.Instant?
        var measured = clock.now - .seconds(1)
        while termination == nil {
            // First what the last messages called for (the request after `ready`, an answer), then the
            // measuring, which takes longer than anything the extension waits for should.
            var waiting = outbox.flush()
            if !centerCalls.isEmpty { answerCenterCalls() }
            let now = clock.now
            if now - measured >= Self.tick {
                measured = now
                loads.reportProgress()
                waiting = outbox.flush()
            }
            judgeMemory()
            checkDisk(now)
            if let overdue = outbox.overdue { kill(for: .protocolViolation(overdue)) }
            let current = channel ?? bootstrap
            let reading = [tree.endDescriptor, outbox.wakeup.descriptor, disk.writes.descriptor, disk.measured.descriptor, memory.exceeded.descriptor]
                + (closed ? [] : [current.descriptor]) + (gatekeeper.map { [$0.refusal.descriptor] } ?? [])
                + (connectionWatcher.map { [$0.arrived.descriptor] } ?? []) + [transfers.ended.descriptor]
            let writing = waiting && !closed ? (channel.map { [$0.descriptor] } ?? []) : []
            let ready = (try? Poll.ready(reading: reading, writing: writing, timeout: Self.tick, name: "the extension")) ?? (readable: [], writable: [])
            if ready.readable.contains(memory.exceeded.descriptor) { memory.exceeded.drain() }
            if !closed && ready.readable.contains(current.descriptor) {
                // Everything that waits (a few dozen messages at most, so that the measuring goes on), so that
                // the clock below judges what the extension had sent by now, however late this thread woke.
                receiveWaiting(atMost: Self.messagesAtOnce)
            }
            if let connectionWatcher, ready.readable.contains(connectionWatcher.arrived.descriptor) {
                // What the extension sent before it called connect is in the channel by now: read first.
                receiveWaiting(atMost: Self.messagesBeforeConnection)
                for connection in connectionWatcher.waiting() { saw(connectionWatcher.answer(connection)) }
            }
            // A process that closed its connection before ending the request, and is still running a moment
            // of its own time later, broke the protocol. One that is dying (killed, say) may wait a while for
            // a core on a busy machine before it can end: that wait is not its moment. And one that has ended
            // has ended, however late this thread woke to read its end, and however late the init (waiting for a
            // core itself) reaps it and says how.
            if closed, outcome == nil, !ready.readable.contains(tree.endDescriptor), var since = sinceClosed,
               clock.now >= since.start + Self.closedMoment, !tree.programHasEnded {
                since.read(tree, at: clock.now)
                sinceClosed = since
                if since.spent(at: clock.now) >= Self.closedMoment {
                    kill(for: .protocolViolation("the extension closed its connection before ending the request"))
                }
            }
            // A write where the extension stores: measured now, on this thread, not at the next tick of the
            // clock — while the walk stays quick (a large tree is left to the measuring thread), and at most once
            // a memory interval, so that an extension writing without end cannot keep this thread walking.
            if ready.readable.contains(disk.writes.descriptor), disk.writes.drain(), clock.now - writeMeasuredAt >= Self.tick {
                writeMeasuredAt = clock.now
                if disk.isQuick {
                    disk.measureHere(keepingPeak: true)
                    checkDisk(clock.now)
                } else {
                    disk.measure()
                }
            }
            if ready.readable.contains(disk.measured.descriptor) {
                disk.measured.drain()
                checkDisk(clock.now)
            }
            if let gatekeeper, ready.readable.contains(gatekeeper.refusal.descriptor) {
                gatekeeper.refusal.drain()
                if let used = gatekeeper.refused, killedFor == nil { kill(overLimit: .diskLimit(limit: limits.disk, used: used)) }
            }
            if ready.readable.contains(transfers.ended.descriptor) {
                for ending in transfers.waiting() where !closed {
                    outbox.send(.transferEnded(id: ending.id, status: ending.status, error: ending.error))
                }
            }
            checkClock(clock.now)
            if ready.readable.contains(tree.endDescriptor) {
                transfers.processEnded()
                termination = tree.termination()
                terminatedAt = clock.now
            }
        }
        // A tree the memory watch ended over the limit, seen ending before the loop judged the watch's word.
        judgeMemory()
        // Whatever the extension sent before it ended still counts: an outcome sent just before exiting, on a
        // connection whose `ready` is read only now, or last seen failing while the request had no outcome.
        while killedFor == nil, !closed || outcome == nil, (try? (channel ?? bootstrap).waitUntilReadable(timeout: .zero)) == true {
            if !receive() { break }
        }
        endPhase()
        // Nothing of the tree outlives the run; then nothing of the request's. The gate closes with its keeper's
        // thread: nothing waits on it any longer, the host's own reads of what the extension opened included.
        tree.end()
        memory.stop()
        gatekeeper?.end()
        loads.end()
        if let memoryCgroup {
            // The kernel's kill at the cgroup's memory.max is the memory limit too.
            if memoryCgroup.oomKills > 0 && outcome == nil && killedFor == nil {
                killedFor = .memoryLimit(limit: limits.memory, peak: max(memory.peak, memoryCgroup.peak ?? 0))
            }
            memoryCgroup.remove()
        }
        let status: ExitStatus? = termination.map {
            switch $0 {
            case .exited(let code): .exited(code)
            case .signalled(let signal): .signalled(signal)
            }
        }
        let log = readLog()
        let ending = finalOutcome(status)
        judgeEnding(ending)
        if let refused = refusedNetwork {
            found(Finding(.networkRefused, "it \(refused) and was refused, as every run is (an extension's network here is this machine's loopback): "
                          + "a device would have reached it, and what it would have sent or received was not tried; serve what it talks to on "
                          + "127.0.0.1 to test that part"))
        }
        if keptNothing(ending) {
            found(Finding(.nothingKept, "it completed having kept nothing of what it was given: it returned no item, opened no URL, wrote nothing to an "
                          + "app group (a file, or UserDefaults(suiteName:)), opened no network connection and handed no upload to a background session, so on a device what the "
                          + "user shared is lost; check the loads above for the one that gave nothing"))
        }
        container.remove()
        Container.waitForTidying()
        var run = ExtensionRun(outcome: ending, loads: loads.records, returned: returned, openedURLs: opened, peakFootprint: memory.peak,
                               log: log, exitStatus: status,
                               sandbox: ExtensionSandbox(pidNamespace: tree.containment == .pidNamespace, landlock: ProcessTree.landlockVersion,
                                                         diskGate: gatekeeper != nil, connectionsSeen: connectionWatcher != nil))
        run.alerts = alerts
        run.findings = findings
        run.taps = taps
        run.posted = posted
        run.donated = donated
        run.connections = connected.map { $0 ?? "an address not read" }
        run.lookups = lookups
        if outcome != nil, let endedAt, let terminatedAt { run.livedAfterCompletion = max(.zero, terminatedAt - endedAt) }
        run.afterCompletionExpired = afterCompletionExpired
        run.requestTime = requestTime
        run.waitedForCore = waitedForCore
        return run
    }

    /// What the request's ending says beside its status: a share the person posted that the extension cancelled
    /// (or one it declined before they could), and an attachment of which it loaded only a reference to the content.
    private func judgeEnding(_ ending: ExtensionOutcome) {
        guard case .request(let items) = request else { return }
        let attachments = items.flatMap { $0.attachments ?? [] }
        let asked = loads.asked
        switch ending {
        case .cancelled where user == .post && (loads.failedByRun || refusedNetwork != nil || exhaustedAttachment(attachments, asked)):
            // A load the run failed (a fault, the disk budget), the network the run refuses, or every representation
            // of an attachment failed: the run's failure or the host's, not the extension's choice.
            return
        case .cancelled(let error) where user == .post:
            let said = "\(error.domain) \(error.code): \(error.localizedDescription)"
            if taps.isEmpty {
                found(Finding(.declinedShare, "it cancelled the request itself (\(said)) before the user could post, on a share its activation rule "
                              + "admitted: the system offered it, and the person sees it fail; decline nothing the rule admits"))
            } else {
                found(Finding(.cancelledAfterPost, "the user tapped \(taps.last ?? "Post") and it cancelled the request itself (\(said)): the share the "
                              + "person posted fails on a device; load another representation when one fails, or say why in the sheet before Post"))
            }
        case .completed:
            guard let kept = keptReference(attachments, asked) else { return }
            found(Finding(.contentNotLoaded, "it kept \(kept.place) the bytes attachment \(kept.attachment + 1) gave it as \(kept.type) "
                          + "(\(kept.size) B: a reference to the content, a URL), and never loaded the content itself (\(kept.content)): what "
                          + "it kept is not what was shared; load a type that conforms to public.data and not to public.url "
                          + "(loadFileRepresentation(for: .data), say). What it sends over the network is not compared"))
        default:
            return
        }
    }

    /// Whether some attachment's loads all failed, every type it registered having been asked for: nothing of it
    /// was left to load.
    /// A reference the extension kept in place of its content: a file it wrote to an app group during the run
    /// that holds exactly the bytes an attachment gave it as a URL type (`public.file-url`, `public.url`), of an
    /// attachment whose content (a registered type that conforms to public.data, and not to public.url or
    /// public.text) it never loaded.
    private func keptReference(_ attachments: [WireAttachment], _ asked: [Int: [String: Bool]])
        -> (attachment: Int, type: String, size: Int, content: String, place: String)? {
        guard let appGroups else { return nil }
        func isContent(_ type: String) -> Bool {
            UTType(type).map { $0.conforms(to: .data) && !$0.conforms(to: .url) && !$0.conforms(to: .text) } ?? false
        }
        for given in loads.smallData where attachments.indices.contains(given.attachment) && !given.bytes.isEmpty {
            guard UTType(given.type)?.conforms(to: .url) == true,
                  let content = attachments[given.attachment].representations.map(\.type).first(where: isContent),
                  !(asked[given.attachment] ?? [:]).contains(where: { $0.value && isContent($0.key) }) else { continue }
            for path in FileSystem.changedFiles(beneath: appGroups.url, since: appGroups.since, entryLimit: DiskMeter.entryLimit, size: given.bytes.count) {
                let file = try? OpenFile.reading(appGroups.url.appending(path: path), followingLinks: false)
                if let bytes = try? file?.bytes(at: 0, count: given.bytes.count), bytes == given.bytes {
                    return (given.attachment, given.type, given.bytes.count, content, "in its app group (\(path))")
                }
            }
        }
        return nil
    }

    /// A type asked for is the first registered one that conforms to it, as a provider answers it.
    private func exhaustedAttachment(_ attachments: [WireAttachment], _ asked: [Int: [String: Bool]]) -> Bool {
        asked.contains { index, tried in
            guard attachments.indices.contains(index), !tried.values.contains(true) else { return false }
            let registered = attachments[index].representations.map(\.type)
            let reached = Set(tried.keys.compactMap { type in
                registered.first { $0 == type || (UTType($0).map { candidate in UTType(type).map(candidate.conforms) ?? false } ?? false) }
            })
            return Set(registered).isSubset(of: reached)
        }
    }

    /// Whether a share or action extension completed having kept nothing of what it was given: no item returned,
    /// no URL opened, no connection, no upload handed over, nothing written to an app group. Judged where the
    /// host saw connections and gave app groups (without them, keeping was not possible here), and the share held
    /// something to keep.
    private func keptNothing(_ ending: ExtensionOutcome) -> Bool {
        let point = bundle.extensionPointIdentifier
        guard case .completed(let items) = ending, connectionWatcher != nil, point == DeviceClass.share || DeviceClass.actionPoints.contains(point),
              hadContent, items.isEmpty, opened.isEmpty, connected.isEmpty, lookups.isEmpty, transfers.count == 0, let appGroups else { return false }
        return !FileSystem.holdsChange(beneath: appGroups.url, since: appGroups.since, entryLimit: DiskMeter.entryLimit) && !keptGroupDefaults
    }

    /// Whether the extension wrote an app group's defaults (`UserDefaults(suiteName: "group.…")`), which
    /// Foundation keeps here beneath its home, the container: `.config/group.….plist`.
    private var keptGroupDefaults: Bool {
        let names = (try? FileSystem.contentsOfDirectory(container.url.appending(component: ".config"))) ?? []
        return names.contains { $0.hasPrefix("group.") && $0.hasSuffix(".plist") }
    }

    /// Receives the messages waiting, at most `limit`; at end of file, the connection is closed.
    private func receiveWaiting(atMost limit: Int) {
        var received = 0
        while !closed, received < limit, (try? (channel ?? bootstrap).waitUntilReadable(timeout: .zero)) == true {
            guard receive() else {
                // End of file: normal once the request has ended, and usual when the process is dying.
                closed = true
                if outcome == nil { sinceClosed = PhaseClock(.request, start: clock.now, budget: Self.closedMoment, tree: tree) }
                return
            }
            received += 1
        }
    }

    /// Records network work the extension began (a lookup, a connection): begun after its request ended, it is
    /// work a device loses, as it suspends the extension soon after. One cause, one finding: the first such work
    /// names it.
    private func saw(_ work: NetworkWork?) {
        let what: String
        switch work {
        case nil:
            return
        case .lookup(let name)?:
            // A resolver asks each name more than once (its two queries, its retries): each name once.
            if lookups.count < Self.connectionRecords, !lookups.contains(name) { lookups.append(name) }
            what = "looked up \(name) (the first step of a request to it)"
        case .connection(let address, let refused)?:
            if connected.count < Self.connectionRecords { connected.append(address.map { refused ? $0 + NetworkPolicy.refusedMark : $0 }) }
            if refused, refusedConnection == nil { refusedConnection = address ?? "an address not read" }
            what = "opened a network connection (to \(address ?? "an address not read"))"
        }
        guard outcome != nil else { return }
        found(Finding(.workLostAtExit, "it \(what) after its request had ended: iOS suspends an extension soon after it ends its request, "
                      + "and what the request was to carry is lost; start uploads before ending the request and wait for them, or hand "
                      + "them to a background URLSession"))
    }

    /// Records `finding`, unless one of its code was.
    private func found(_ finding: Finding) {
        if !findings.contains(where: { $0.code == finding.code }) { findings.append(finding) }
    }

    /// The extension ended its request again with `call`: ignored, as iOS ignores it, and reported.
    private func endedAgain(by call: String) {
        found(Finding(.requestEndedTwice, "\(call) was called after the request had ended; iOS ignores the call and logs the mistake, "
                      + "and an extension that relies on it (returned items, a cancellation's error) loses what it sent"))
    }

    /// The one outcome: the extension's own, else why the host ended it, else how it ended by itself.
    private func finalOutcome(_ status: ExitStatus?) -> ExtensionOutcome {
        if let outcome { return outcome }
        if let killedFor { return .interrupted(killedFor) }
        switch status {
        case .exited(ExtensionEndpoint.unreadableHostStatus)?:
            return .interrupted(.protocolViolation("the extension could not read the host's messages (its log says why)"))
        case .signalled(SIGXFSZ)?:
            return .interrupted(.diskLimit(limit: limits.disk, used: limits.disk))
        default:
            return .interrupted(.crashed(status ?? .exited(-1)))
        }
    }

    /// The log's last 64 KiB, read through the host's own descriptor: whatever the extension did to the path.
    private func readLog() -> String {
        let size = (try? logFile.status().size) ?? 0
        let kept = min(size, 64 << 10)
        let bytes = (try? logFile.bytes(at: size - kept, count: Int(kept))) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Judges the memory watch's word, once: the tree it ended over the limit is ended for memory, what it had
    /// sent before counting.
    private func judgeMemory() {
        guard memory.isOver, !memoryJudged else { return }
        memoryJudged = true
        kill(overLimit: .memoryLimit(limit: limits.memory, peak: memory.peak))
    }

    /// Measures the memory as the message being handled ends a request (a completion, a notification's content),
    /// and ends the extension if it was over its limit as it sent the message: a device's jetsam would have ended
    /// it before it could. Memory it took after sending (read late, on a busy machine) leaves the message counting,
    /// and its kill, judged after, ends the work it did after completion.
    private func judgeMemoryAsSent() {
        memory.measure(exactly: true)
        guard memory.wasOver(whenSent: handledSentAt), killedFor == nil else { return }
        memoryJudged = true
        kill(for: .memoryLimit(limit: limits.memory, peak: memory.peak))
    }

    /// Ends the extension over a limit (memory, disk, time), once what it had sent is read: a completion already
    /// in the channel when the limit is judged counts (for memory, when it was sent before the tree went over:
    /// `judgeMemoryAsSent`), as a device's host has it the moment it is sent, however late this thread (a busy
    /// machine's) comes to read it. Judged while a message is being handled (its ending,
    /// which measures as it ends), what waits behind that message is left for after it.
    private func kill(overLimit reason: InterruptionReason) {
        if outcome == nil && !handling { receiveWaiting(atMost: Self.messagesBeforeConnection) }
        kill(for: reason)
    }

    /// Ends the extension for `reason`: the request's interruption, or — once the request has ended, which its
    /// outcome keeps — the end of its work after completion, which is reported: a device's jetsam ends an
    /// extension over its memory after it completes as before, and what it had not done is lost.
    private func kill(for reason: InterruptionReason) {
        if killedFor == nil && outcome == nil { killedFor = reason }
        if outcome != nil, !killedAfterEnding {
            killedAfterEnding = true
            if case .timeout(.afterCompletion) = reason {} else {
                found(Finding(.workLostAtExit, "after ending its request it was ended, \(reason): its work after completion "
                              + "(a completion handler, an expiring activity, an upload) was cut off there, as a device ends it, and what it "
                              + "had not done is lost"))
            }
        }
        tree.end()
    }

    /// The disk used for the extension, measured on a thread of the platform layer's every quarter second;
    /// over the budget, or past what the meter counts, the extension is ended.
    private func checkDisk(_ now: ContinuousClock.Instant) {
        let used = disk.used
        if used > limits.disk && killedFor == nil {
            kill(overLimit: .diskLimit(limit: limits.disk, used: used))
        } else if disk.reachedLimit && killedFor == nil {
            kill(overLimit: .diskBeyondMeter(entries: DiskMeter.entryLimit, depth: DiskMeter.depthLimit))
        }
        guard now - diskMeasuredAt >= Self.diskInterval else { return }
        diskMeasuredAt = now
        disk.measure()
    }

    /// Starts the budget of `phase`: the warning and the kill count from here.
    private func begin(_ phase: TimeoutPhase, budget: Duration) {
        endPhase()
        phaseClock = PhaseClock(phase, start: clock.now, budget: budget, tree: tree)
        nextClockCheck = phaseClock.start + budget
        warned = nil
    }

    /// Adds a request phase's time, and the machine's share of it, to the run's.
    private func endPhase() {
        guard phaseClock.phase == .request else { return }
        phaseClock.read(tree, at: clock.now)
        requestTime += clock.now - phaseClock.start
        waitedForCore += phaseClock.waited
    }

    /// The budget's warning once the extension has spent it, the kill once it has spent the grace too; time
    /// the machine kept the extension waiting for a core is not spent.
    private func checkClock(_ now: ContinuousClock.Instant) {
        if now - phaseClock.readAt >= PhaseClock.interval { phaseClock.read(tree, at: now) }
        guard killedFor == nil, now >= nextClockCheck else { return }
        phaseClock.read(tree, at: now)
        let spent = phaseClock.spent(at: now)
        let due = warned == phaseClock.phase ? phaseClock.budget + limits.grace : phaseClock.budget
        guard spent >= due else {
            nextClockCheck = now + (due - spent)
            return
        }
        if lingering {
            tellEnded()
        } else if warned == phaseClock.phase {
            kill(overLimit: .timeout(phaseClock.phase))
        } else {
            warned = phaseClock.phase
            nextClockCheck = now + limits.grace
            if phaseClock.phase == .afterCompletion {
                afterCompletionExpired = true
                found(Finding(.workLostAtExit, "its work after completing the request (a completion handler or an expiring activity) was still running "
                              + "when its time after completion ran out: it was told its activity expired, and what it had not done is lost, as on a "
                              + "device, which suspends an extension soon after it completes"))
            }
            outbox.send(.timeWarning(phase: phaseClock.phase))
        }
    }

    /// Receives and handles one packet; `false` at end of file.
    private func receive() -> Bool {
        let current = channel ?? bootstrap
        let packet: PacketChannel.Packet
        do {
            guard let received = try current.receive(capacity: RuntimeMessage.maximumPacket + 1) else { return false }
            packet = received
        } catch {
            return false
        }
        do throws(ProtocolViolation) {
            if packet.truncated {
                throw ProtocolViolation("a message larger than \(RuntimeMessage.maximumPacket) bytes or with more than \(PacketChannel.maximumDescriptors) descriptors")
            }
            if packet.bytes.isEmpty && packet.files.isEmpty { throw ProtocolViolation("an empty message (a packet of no bytes)") }
            handling = true
            defer { handling = false }
            handledSentAt = packet.sentAt ?? PacketChannel.clock()
            try handle(try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count), files: packet.files)
        } catch {
            kill(for: .protocolViolation(error.message))
            return false
        }
        return true
    }

    private func handle(_ message: RuntimeMessage, files: [OpenFile]) throws(ProtocolViolation) {
        switch message {
        case .ready(let process, let optimised):
            guard !ready, let file = files.first else { throw ProtocolViolation("ready twice") }
            guard let channel = try? PacketChannel(duplicating: file, name: "the extension \(bundle.name)") else {
                throw ProtocolViolation("ready with a descriptor that is not a socket")
            }
            // A socket pair records its maker: the extension itself, as its own namespace numbers it too.
            let maker = (try? channel.peerProcess()) ?? -1
            guard maker == tree.identifier else {
                throw ProtocolViolation("ready from process \(process) with a socket made by process \(maker); the extension is \(tree.identifier)")
            }
            // The extension may have ended and been reaped since it sent `ready`, its number in its namespace no
            // longer to be read: the socket is still its own, and what it sent there before it ended (an outcome,
            // most often) still counts. Only a number that can be read is checked against the one it gave.
            if let numbered = tree.programIdentifierInItsNamespace, numbered != process {
                throw ProtocolViolation("ready from process \(process); the extension is process \(numbered) in its namespace")
            }
            ready = true
            if !optimised { found(.debugBuild) }
            begin(.request, budget: limits.request)
            self.channel = channel
            outbox.connect(channel)
            outbox.send(request)
            closed = false
        case .load(let id, let attachment, let type, let form):
            guard ready else { throw ProtocolViolation("a load before ready") }
            guard Int(attachment) < loadsCount else {
                throw ProtocolViolation("a load of attachment \(attachment); the request has \(loadsCount)")
            }
            if outcome != nil {
                return outbox.send(.loaded(id: id, .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the request has ended"))))
            }
            loads.serve(id: id, attachment: Int(attachment), type: type, form: form)
        case .cancelLoad(let id):
            loads.cancel(id: id)
        case .openURL(let id, let string):
            guard ready else { throw ProtocolViolation("openURL before ready") }
            let url = URL(string: string)
            if let url, opened.count < Self.openedURLRecords { opened.append(url) }
            outbox.send(.openedURL(id: id, opened: url.map { openURL?($0) ?? false } ?? false))
        case .complete(let items):
            guard ready else { throw ProtocolViolation("completeRequest before ready") }
            guard desk == nil else { throw ProtocolViolation("completeRequest from a notification service") }
            guard outcome == nil else { return endedAgain(by: "completeRequest(returningItems:)") }
            let returned = try ProviderMirror.returnedItems(items, files: files)
            self.returned = ProviderMirror.records(of: items, files: files)
            end(with: .completed(returned))
        case .cancel(let error):
            guard ready else { throw ProtocolViolation("cancelRequest before ready") }
            guard desk == nil else { throw ProtocolViolation("cancelRequest from a notification service") }
            guard outcome == nil else { return endedAgain(by: "cancelRequest(withError:)") }
            end(with: .cancelled(ProviderMirror.nsError(error)))
        case .endedAgain(let call):
            guard ready else { throw ProtocolViolation("a request ended again before ready") }
            guard desk == nil else { throw ProtocolViolation("a request ended again by a notification service") }
            endedAgain(by: call)
        case .tapped(let button):
            guard ready else { throw ProtocolViolation("a tap before ready") }
            if taps.count < Self.tapRecords { taps.append(button) }
        case .stuck(let reason):
            guard ready else { throw ProtocolViolation("a stuck user before ready") }
            guard outcome == nil, desk == nil else { return }
            kill(for: .stuck(reason + leftOutNote))
        case .posted(let name):
            guard ready else { throw ProtocolViolation("a Darwin notification before ready") }
            if posted.count < Self.postedRecords { posted.append(name) }
        case .donated(let interaction):
            guard ready else { throw ProtocolViolation("a donation before ready") }
            if donated.count < Self.postedRecords { donated.append(interaction) }
        case .alert(let alert):
            guard ready else { throw ProtocolViolation("an alert before ready") }
            guard alerts.count < Self.alertRecords else { return }
            alerts.append(PresentedAlert(title: alert.title, message: alert.message, actions: alert.actions,
                                         chosen: alert.chosen < 0 ? nil : Int(alert.chosen)))
        case .deliver(let index, let content):
            guard ready, let desk else { throw ProtocolViolation(ready ? "notification content from an extension sent no notification" : "notification content before ready") }
            guard desk.wasSent(index) else { throw ProtocolViolation("content for notification \(index), which was not sent") }
            // Only the first call of a notification's handler counts.
            guard desk.awaits(index), outcome == nil else { return desk.calledAgain(index) }
            judgeMemoryAsSent()
            guard killedFor == nil else { return }
            try desk.delivered(index, content: content, files: files, expired: warned == .request, peak: memory.requestPeak)
            guard let next = desk.next() else { return end(with: .completed([])) }
            outbox.send(next)
            begin(.request, budget: limits.request)
            memory.resetRequestPeak()
        case .center(let id, let call):
            guard ready, desk != nil else { throw ProtocolViolation(ready ? "a notification center call from an extension sent no notification" : "a notification center call before ready") }
            // Answered in turn, the next once the last answer has left the outbox: an extension that calls
            // and never reads holds one answer of the host's, and a few calls, never more.
            guard centerCalls.count < Self.waitingCenterCalls else {
                throw ProtocolViolation("more than \(Self.waitingCenterCalls) notification center calls waiting while the extension read none of the answers")
            }
            centerCalls.append((id, call))
            answerCenterCalls()
        case .transfer(let id, let transfer):
            guard ready, let body = files.first else { throw ProtocolViolation("a background transfer before ready") }
            guard let url = URLComponents(string: transfer.url), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw ProtocolViolation("a background transfer to \(transfer.url.debugDescription.prefix(80)), which is not an http or https URL")
            }
            // The room the budget has left as the transfer is handed over, measured now: its copy is counted in it.
            try transfers.start(id: id, transfer, body: body, room: limits.disk - disk.measureHere(keepingPeak: true))
        case .request, .loaded, .openedURL, .timeWarning, .progress, .streamEnded, .ended, .notification, .centerAnswer, .transferEnded:
            throw ProtocolViolation("a host's message (\(message.kindName)) from the extension")
        }
    }

    /// Ends the request with the extension's outcome, after reading its footprint and its disk use as it ends
    /// it: an extension that ends its request between two readings is not reported at the first reading's size,
    /// and one over a limit by then is over it, as a device would have found it before it could end the request. Then the
    /// extension is told, which lets the process end once its work after completion is done; the time after
    /// completion starts, after which the host, as iOS, ends it.
    private func end(with outcome: ExtensionOutcome) {
        judgeMemoryAsSent()
        // The disk too, now: what it wrote since the last measurement counts before the request can end.
        disk.measureHere(keepingPeak: true)
        checkDisk(clock.now)
        // A write the gate refused came before this ending, whatever the extension made of the failure.
        if let used = gatekeeper?.refused, killedFor == nil { kill(overLimit: .diskLimit(limit: limits.disk, used: used)) }
        guard killedFor == nil else { return }
        self.outcome = outcome
        if desk != nil, case .completed = outcome {
            lingering = true
            begin(.afterCompletion, budget: Self.notificationLinger)
        } else {
            tellEnded()
        }
    }

    /// Tells the extension its request has ended: the time after completion starts.
    private func tellEnded() {
        lingering = false
        endedAt = clock.now
        begin(.afterCompletion, budget: limits.afterCompletion)
        outbox.send(.ended)
    }

    /// Answers the waiting notification center calls in turn while no answer waits in the outbox (calls that
    /// want none are handled at once).
    private func answerCenterCalls() {
        guard let desk else { return }
        while let (id, call) = centerCalls.first, !outbox.holdsCenterAnswer {
            centerCalls.removeFirst()
            if let answer = desk.center(call) { outbox.send(.centerAnswer(id: id, answer: answer)) }
        }
    }

    /// The network work the run refused, in words, if any: the first name looked up, or address beyond loopback.
    private var refusedNetwork: String? {
        if let name = lookups.first { return "looked up \(name)" }
        return refusedConnection.map { "connected to \($0)" }
    }

    /// What a stuck run adds of the code this build left out: it may be what the sheet waited for.
    private var leftOutNote: String {
        guard let blocks = bundle.leftOut, !blocks.isEmpty else { return "" }
        return "; \(blocks.count == 1 ? "a block" : "\(blocks.count) blocks") of its code that iOS compiles \(blocks.count == 1 ? "was" : "were") "
            + "left out of this build (not-compiled-here), which may be what would have changed that"
    }

    /// Whether the request gave the extension anything to keep: an attachment, or an item's text.
    private lazy var hadContent: Bool = {
        guard case .request(let items) = request else { return false }
        return items.contains { !($0.attachments ?? []).isEmpty || !($0.contentText ?? "").isEmpty }
    }()

    private lazy var loadsCount: Int = {
        guard case .request(let items) = request else { return 0 }
        return items.reduce(0) { $0 + ($1.attachments?.count ?? 0) }
    }()
}

extension RuntimeMessage {
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
        case .alert: "alert"
        case .ended: "ended"
        case .deliver: "deliver"
        case .center: "center"
        case .endedAgain: "endedAgain"
        case .tapped: "tapped"
        case .posted: "posted"
        case .stuck: "stuck"
        case .donated: "donated"
        case .notification: "notification"
        case .centerAnswer: "centerAnswer"
        case .transfer: "transfer"
        case .transferEnded: "transferEnded"
        }
    }
}
