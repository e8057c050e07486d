import Foundation
import OpenItemProvider
import PackageSupport
import SharingSystem

/// The host's side of an extension's loads: each is the same call on the host's provider
/// (`ProviderMirror.answer`), run on the provider's threads, its answer queued to the extension once; its
/// progress reported as it changes; a stream of unknown length pumped into a pipe within the disk budget.
final class LoadServer: Sendable {
    private let providers: [NSItemProvider]
    private let outbox: Outbox
    /// Where directories the extension loads are copied for it.
    private let store: URL
    /// The bytes a stream may still bring into the extension's container.
    private let diskRoom: @Sendable () -> Int64
    private let faults: HostFaults
    private let state = Locked<State>(State())

    private struct State {
        /// The loads being served, from the extension's ask until the answer goes, each with the progress its
        /// provider returned once it has.
        var pending: [UInt32: Progress?] = [:]
        /// What was last said of each pending load's progress.
        var reported: [UInt32: (Int64, Int64)] = [:]
        var records: [ExtensionLoad] = []
        /// The memory files handed over, by inode: the extension's footprint counts them once it maps them.
        var givenMemoryFiles: Set<UInt64> = []
        /// The pumps still running: each one's stop, and its end, resolved once its load's record is final.
        var pumps: [(stop: Wakeup, ended: ReplyBox<Void>)] = []
        var ended = false
        /// How many loads the extension has asked for.
        var count = 0
        /// The attachment each load asked for, by its identifier.
        var attachments: [UInt32: Int] = [:]
        /// The types the extension asked each attachment for, by attachment, each with whether a load of it
        /// succeeded.
        var asked: [Int: [String: Bool]] = [:]
        /// The small data answers the extension was given, each with its attachment and the type asked for.
        var smallData: [(attachment: Int, type: String, bytes: [UInt8])] = []
        /// A load failed by what the run imposes, not by the host's own way of sharing: a fault, the disk budget.
        var failedByRun = false
    }

    init(providers: [NSItemProvider], outbox: Outbox, store: URL, faults: HostFaults, diskRoom: @escaping @Sendable () -> Int64) {
        self.providers = providers
        self.faults = faults
        self.outbox = outbox
        self.store = store
        self.diskRoom = diskRoom
    }

    var records: [ExtensionLoad] { state.withLock { $0.records } }
    /// The types the extension asked each attachment for, by attachment (from 0), each with whether a load of
    /// it succeeded.
    var asked: [Int: [String: Bool]] { state.withLock { $0.asked } }
    /// The data answers of at most `smallDataLimit` bytes the extension was given (the first hundred), each
    /// with its attachment (from 0) and the type asked for: what a reference to a file (its URL) gives.
    var smallData: [(attachment: Int, type: String, bytes: [UInt8])] { state.withLock { $0.smallData } }
    static let smallDataLimit = 4096
    /// Whether a load failed by what the run imposes rather than by the host's own way of sharing: a fault
    /// (`load-fails`, `load-hangs`), or a stream cut short at the disk budget.
    var failedByRun: Bool { state.withLock { $0.failedByRun } }
    var givenMemoryFiles: Set<UInt64> { state.withLock { $0.givenMemoryFiles } }

    /// Serves load `id`: the extension's call on attachment `attachment`, made on the host's provider.
    func serve(id: UInt32, attachment: Int, type: String, form: WireForm) {
        let record = ExtensionLoad(typeIdentifier: type, form: form.loadForm)
        let number = state.withLock { state -> Int? in
            guard !state.ended else { return nil }
            // Pending before the provider starts: its answer may come before its load returns.
            state.pending[id] = .some(nil)
            state.attachments[id] = attachment
            state.count += 1
            return state.count
        }
        guard let number else {
            return outbox.send(.loaded(id: id, .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the request has ended"))))
        }
        switch number {
        case faults.hangingLoad:
            // Recorded now, since no answer will record it; it stays pending until the request ends.
            var record = record
            record.failure = "never answered: the host hangs on load \(number) (fault load-hangs)"
            state.withLock { state in
                state.records.append(record)
                state.failedByRun = true
            }
        case faults.failingLoad:
            state.withLock { $0.failedByRun = true }
            deliver(id, .failure(.itemUnavailableError, "the host fails load \(number) (fault load-fails)"), record: record)
        default:
            guard faults.loadDelay > .zero else { return ask(id: id, attachment: attachment, type: type, form: form, record: record) }
            DispatchQueue.global().asyncAfter(deadline: .now() + faults.loadDelay.inSeconds) { [self] in
                ask(id: id, attachment: attachment, type: type, form: form, record: record)
            }
        }
    }

    /// Makes load `id` on the host's provider, unless the request ended (nothing is waiting) or the load was
    /// cancelled meanwhile (answered as the provider answers a cancelled load).
    private func ask(id: UInt32, attachment: Int, type: String, form: WireForm, record: ExtensionLoad) {
        let (ended, cancelled) = state.withLock { ($0.ended, $0.pending[id] == nil) }
        if ended { return }
        if cancelled {
            return deliver(id, .failure(NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError), "cancelled"), record: record)
        }
        let progress = ProviderMirror.answer(providers[attachment], type: type, form: form, store: store) { [self] answer in
            deliver(id, answer, record: record)
        }
        state.withLock { state in
            if state.pending[id] != nil { state.pending[id] = .some(progress) }
        }
    }

    /// The extension's consumer cancelled load `id`: the host's load is cancelled.
    func cancel(id: UInt32) {
        state.withLock { $0.pending.removeValue(forKey: id) }??.cancel()
    }

    /// Sends the answer to load `id` (a stream's pipe, pumped meanwhile), and records the load.
    private func deliver(_ id: UInt32, _ answer: CrossingAnswer, record: ExtensionLoad) {
        var record = record
        record.size = answer.size
        if case .failed(let error) = answer.result { record.failure = error.message }
        let memoryFiles: [UInt64] = answer.files.compactMap { file in
            switch answer.result {
            case .memory, .textInMemory, .propertyListInMemory: break
            default: return nil
            }
            guard let status = try? file.status() else { return nil }
            return status.inode
        }
        let failed = record.failure != nil
        state.withLock { state in
            // A type once given stays given, whatever a later load of it does.
            if let attachment = state.attachments[id] {
                let given = state.asked[attachment]?[record.typeIdentifier] ?? false
                state.asked[attachment, default: [:]][record.typeIdentifier] = given || !failed
                if case .bytes(let bytes) = answer.result, bytes.count <= Self.smallDataLimit, state.smallData.count < 100 {
                    state.smallData.append((attachment, record.typeIdentifier, bytes))
                }
            }
        }
        guard let source = answer.stream, case .stream(let name) = answer.result else {
            state.withLock { state in
                state.pending.removeValue(forKey: id)
                state.records.append(record)
                state.givenMemoryFiles.formUnion(memoryFiles)
            }
            return outbox.send(.loaded(id: id, answer.result), files: answer.files)
        }
        stream(id, from: source, named: name, record: record)
    }

    /// Answers a load with a stream of unknown length: the reading end of a pipe, which a blocking thread
    /// fills from `source` until it ends, the extension lets go of the pipe, the disk budget is used up, or the
    /// run ends; then the extension is told how it ended (before it sees the pipe's end).
    private func stream(_ id: UInt32, from source: OpenFile, named name: String, record: ExtensionLoad) {
        var record = record
        record.form = .stream
        let pipe: (reading: OpenFile, writing: OpenFile)
        let stop: Wakeup
        do {
            pipe = try StreamPipe.make(name: name)
            stop = try Wakeup()
        } catch {
            return deliver(id, .failure(error, ""), record: record)
        }
        let ended = ReplyBox<Void>()
        let index = state.withLock { state -> Int? in
            state.pending.removeValue(forKey: id)
            guard !state.ended else { return nil }
            state.records.append(record)
            state.pumps.append((stop, ended))
            return state.records.count - 1
        }
        guard let index else {
            return outbox.send(.loaded(id: id, .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the request has ended"))))
        }
        outbox.send(.loaded(id: id, .stream(name: name)), files: [pipe.reading])
        let room = diskRoom()
        BlockingThreads.submit { [self] in
            let pumped = Result { () throws(SystemError) in
                try StreamPipe.pump(from: source, into: pipe.writing, limit: max(0, room), stop: stop)
            }
            let bytes = (try? pumped.get().bytes) ?? 0
            let failure: String? = switch pumped {
            case .success((_, .sourceEnded)): nil
            case .success((_, .limitReached)): "cut short at the disk budget after \(bytes) bytes"
            case .success((_, .readerLeft)): "cut short: the extension let go of the stream after \(bytes) bytes"
            case .success((_, .stopped)): "cut short: the request ended after \(bytes) bytes"
            case .failure(let error): "the stream failed: \(error)"
            }
            state.withLock { state in
                state.records[index].size = Int(bytes)
                state.records[index].failure = failure
                if case .success((_, .limitReached)) = pumped { state.failedByRun = true }
                state.pumps.removeAll { $0.stop === stop }
            }
            ended.resolve(())
            outbox.send(.streamEnded(id: id, bytes: UInt64(bytes), complete: failure == nil))
            // The writing end closes here, after the extension was told: it sees the end after the message.
            withExtendedLifetime(pipe.writing) {}
        }
    }

    /// Tells the extension how far each pending load has got, in millionths (the host's progress is a tree
    /// whose fraction, not its counts, follows the provider's own), when that changed since it was last told.
    func reportProgress() {
        let changed: [(UInt32, (Int64, Int64))] = state.withLock { state in
            let pending = state.pending.compactMapValues { $0 }
            state.reported = state.reported.filter { pending[$0.key] != nil }
            var changed: [(UInt32, (Int64, Int64))] = []
            for (id, progress) in pending {
                let now = (Int64((progress.fractionCompleted * 1_000_000).rounded()), Int64(1_000_000))
                guard state.reported[id].map({ $0 != now }) ?? (now.0 > 0) else { continue }
                state.reported[id] = now
                changed.append((id, now))
            }
            return changed
        }
        for (id, (completed, total)) in changed { outbox.send(.progress(id: id, completed: completed, total: total)) }
    }

    /// The request is over: pending loads are cancelled (outside the lock: a cancelled load answers, and an
    /// answer takes it), pumps stopped and waited for (a pump sees its stop at once), so that every load's
    /// record is final, and later loads refused. On a thread that may block.
    func end() {
        let (pending, pumps) = state.withLock { state in
            state.ended = true
            defer { state.pending.removeAll() }
            return (state.pending.values.compactMap { $0 }, state.pumps)
        }
        pending.forEach { $0.cancel() }
        pumps.forEach { $0.stop.signal() }
        for pump in pumps { _ = pump.ended.wait(timeout: .seconds(5)) }
    }
}
