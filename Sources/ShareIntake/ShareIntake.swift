public import Foundation
public import ShareInbox
public import SharingShim

/// Receives what a host app shares into an inbox: for each attachment the best representation that is
/// accepted, by whatever way the host actually delivers it, streamed into the inbox — never a whole file
/// in memory — checked against its bytes, named safely, hashed, and delivered atomically, once.
///
/// ```swift
/// let intake = try ShareIntake(policy: IntakePolicy(acceptedTypes: [.image, .movie], memoryBudget: 120 << 20))
/// let report = try await intake.receive(from: extensionContext, into: ShareInbox(at: sharedContainer))
/// ```
public struct ShareIntake: Sendable {
    public let policy: IntakePolicy
    let plan: MemoryPlan
    let previewMaker: (any PreviewMaking)?

    /// - Throws: `IntakeError` with `.memoryBudget` when the policy's memory budget cannot hold even one
    ///   attachment in flight.
    public init(policy: IntakePolicy = IntakePolicy(), previewMaker: (any PreviewMaking)? = ThumbnailPreviews()) throws(IntakeError) {
        self.policy = policy
        self.previewMaker = previewMaker
        let previewMemory = policy.previewSizes.isEmpty ? 0 : (previewMaker?.memoryNeeded(for: .image, sizes: policy.previewSizes) ?? 0)
        self.plan = try MemoryPlan(budget: policy.memoryBudget, concurrency: policy.concurrency, previewMemory: previewMemory)
    }

    /// How many attachments are loaded at once under the policy's memory budget.
    public var concurrency: Int { plan.concurrency }

    /// Receives the context's input items, then ends the request exactly once: completed, or cancelled with
    /// the error's `nsError` (`NSUserCancelledError` when the task, or `progress`, was cancelled). A share of
    /// which nothing was received is cancelled when something failed (with the first failure's reasons) or the
    /// policy refused an attachment that had content (with why: a type not accepted, too large), so that the
    /// person is told it was not kept; and the report returned.
    public func receive(from context: NSExtensionContext, into inbox: ShareInbox, host: String? = nil,
                        progress: Progress? = nil) async throws(IntakeError) -> IntakeReport {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        do {
            let report = try await receive(items, into: inbox, host: host, progress: progress)
            if report.received.isEmpty, let unkept = report.entries.first(where: { if case .failed = $0.outcome { true } else { false } })
                ?? report.entries.first(where: { Self.refusedContent($0, of: items) }) {
                context.cancelRequest(withError: IntakeError(unkept: unkept).nsError)
            } else {
                context.completeRequest(returningItems: [], completionHandler: nil)
            }
            return report
        } catch {
            context.cancelRequest(withError: error.nsError)
            throw error
        }
    }

    /// Whether `entry` is an attachment with representations that the policy did not take (not an item's own
    /// text, nor an attachment with nothing in it, nor a repeat of one received).
    private static func refusedContent(_ entry: IntakeReport.Entry, of items: [NSExtensionItem]) -> Bool {
        guard case .skipped = entry.outcome, let attachment = entry.attachment, items.indices.contains(entry.item - 1),
              let providers = items[entry.item - 1].attachments, providers.indices.contains(attachment - 1) else { return false }
        return !providers[attachment - 1].registeredTypeIdentifiers.isEmpty
    }

    /// Receives extension items. `progress`, when given, gets one child per attachment, counting bytes;
    /// cancelling it cancels the intake.
    ///
    /// - Throws: `IntakeError` with `.cancelled` (what was already delivered stays, whole; nothing else is
    ///   left), or `.inbox` when the inbox cannot be written. One attachment's failure is not thrown: the
    ///   report has it, and the others still arrive.
    public func receive(_ items: [NSExtensionItem], into inbox: ShareInbox, host: String? = nil,
                        progress: Progress? = nil) async throws(IntakeError) -> IntakeReport {
        let work = plannedWork(items, host: host)
        let overall = progress ?? SynchronizedProgress(totalUnitCount: 0)
        overall.totalUnitCount = Int64(work.count)
        let children = work.map { _ in SynchronizedProgress(totalUnitCount: -1, parent: overall, pendingUnitCount: 1) }
        let run = Task { try await receive(work, into: inbox, host: host, progress: children, cancelled: { overall.isCancelled }) }
        // A cancelled Progress (a Cancel button) cancels the intake as cancelling the task does.
        let watcher = Task {
            while !Task.isCancelled {
                if overall.isCancelled { return run.cancel() }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { watcher.cancel() }
        do {
            return try await withTaskCancellationHandler { try await run.value } onCancel: { run.cancel() }
        } catch let error as IntakeError {
            throw error
        } catch {
            throw IntakeError(.cancelled, "cancelled")
        }
    }

    private func receive(_ work: [Work], into inbox: ShareInbox, host: String?, progress children: [Progress],
                         cancelled: @escaping @Sendable () -> Bool) async throws -> IntakeReport {
        try await withThrowingTaskGroup(of: (Int, AttachmentResult).self) { group in
            var identities: [String: (Int, Int?)] = [:]
            var finished: [Int: AttachmentResult] = [:]
            var next = 0, started = 0
            var deliveries = Deliveries()
            func start() {
                guard started < work.count else { return }
                let index = started
                started += 1
                group.addTask { (index, try await work[index].run(self, inbox: inbox, progress: children[index])) }
            }
            for _ in 0..<plan.concurrency { start() }
            do {
                while let (index, result) = try await group.next() {
                    if cancelled() || Task.isCancelled { throw IntakeError(.cancelled, "cancelled") }
                    finished[index] = result
                    start()
                    // Decide in the share's order, so that of two copies of one resource the first is kept.
                    while let result = finished.removeValue(forKey: next) {
                        try await commit(result, of: work[next], identities: &identities, into: &deliveries)
                        next += 1
                    }
                }
                return IntakeReport(host: host, entries: try await deliveries.finish())
            } catch {
                // Nothing half-delivered stays: what was staged and not yet delivered is removed; what is
                // being delivered finishes, whole.
                group.cancelAll()
                for result in finished.values { if case .staged(let staged) = result { staged.delivery.discard() } }
                while let (_, result) = try? await group.next() { if case .staged(let staged) = result { staged.delivery.discard() } }
                _ = try? await deliveries.finish()
                throw error
            }
        }
    }

    /// Delivers a staged attachment unless it repeats one already delivered. The delivery (its flushes and
    /// renames) runs on while the next attachments load; a few are in flight at once.
    private func commit(_ result: AttachmentResult, of work: Work, identities: inout [String: (Int, Int?)],
                        into deliveries: inout Deliveries) async throws(IntakeError) {
        switch result {
        case .skipped(let reason):
            deliveries.append(work, .skipped(reason: reason))
        case .failed(let reasons):
            deliveries.append(work, .failed(reasons: reasons))
        case .staged(let staged):
            if let (item, attachment) = identities[staged.identity] {
                staged.delivery.discard()
                deliveries.append(work, .skipped(reason: "the same as item \(item)\(attachment.map { ", attachment \($0)" } ?? "")"))
            } else {
                identities[staged.identity] = (work.item, work.attachment)
                try await deliveries.deliver(staged, of: work)
            }
        }
    }

    /// The report's entries in the share's order, some of them deliveries still being made.
    struct Deliveries {
        /// Deliveries made at once: each mostly waits on the disk's flushes, which overlap.
        static let inFlight = 4

        private var entries: [IntakeReport.Entry] = []
        private var pending: [(index: Int, work: Work, staged: Staged, task: Task<Result<InboxItem, InboxError>, Never>)] = []

        mutating func append(_ work: Work, _ outcome: IntakeReport.Outcome) {
            entries.append(IntakeReport.Entry(item: work.item, attachment: work.attachment, outcome: outcome))
        }

        mutating func deliver(_ staged: Staged, of work: Work) async throws(IntakeError) {
            if pending.count >= Self.inFlight { try await settleOldest() }
            append(work, .skipped(reason: "being delivered"))
            let task = Task { () async -> Result<InboxItem, InboxError> in
                do throws(InboxError) { return .success(try await staged.delivery.deliver(staged.manifest)) } catch { return .failure(error) }
            }
            pending.append((entries.count - 1, work, staged, task))
        }

        private mutating func settleOldest() async throws(IntakeError) {
            let oldest = pending.removeFirst()
            switch await oldest.task.value {
            case .success(let item):
                entries[oldest.index].outcome = .received(IntakeReport.Received(
                    id: item.id, type: item.manifest.type, name: item.manifest.name, size: item.manifest.size,
                    hash: item.manifest.hash.description, notes: oldest.staged.notes))
            case .failure(let error):
                throw IntakeError(.inbox, error.description, underlying: error).at(item: oldest.work.item, attachment: oldest.work.attachment)
            }
        }

        /// Waits for every delivery; the first that failed is thrown, after all have ended.
        mutating func finish() async throws(IntakeError) -> [IntakeReport.Entry] {
            var failure: IntakeError?
            while !pending.isEmpty {
                do throws(IntakeError) {
                    try await settleOldest()
                } catch {
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
            return entries
        }
    }

    // MARK: The work

    /// One unit of an intake: an attachment, an item's own text, or something skipped before any loading.
    struct Work: Sendable {
        enum Kind: Sendable {
            case attachment(NSItemProvider)
            case text(String)
            case skip(String)
        }

        var item: Int
        var attachment: Int?
        var kind: Kind
        var context: ItemContext

        func run(_ intake: ShareIntake, inbox: ShareInbox, progress: Progress) async throws(IntakeError) -> AttachmentResult {
            switch kind {
            case .skip(let reason):
                progress.totalUnitCount = 1
                progress.completedUnitCount = 1
                return .skipped(reason)
            case .attachment(let provider):
                return try await AttachmentIntake(provider: provider, policy: intake.policy, plan: intake.plan, previewMaker: intake.previewMaker,
                                                  inbox: inbox, context: context, progress: progress).run()
            case .text(let text):
                // An item's text with nothing attached (Mail) is received as a text attachment would be.
                let provider = NSItemProvider(item: text as NSString, typeIdentifier: UTType.utf8PlainText.identifier)
                provider.suggestedName = context.title
                var context = context
                context.text = nil
                return try await AttachmentIntake(provider: provider, policy: intake.policy, plan: intake.plan, previewMaker: nil,
                                                  inbox: inbox, context: context, progress: progress).run()
            }
        }
    }

    /// Every attachment in order, each item's text when it has nothing attached, and what the count skips.
    func plannedWork(_ items: [NSExtensionItem], host: String?) -> [Work] {
        var work: [Work] = []
        var counted = 0
        for (itemIndex, item) in items.enumerated() {
            let text = item.attributedContentText?.string.nilIfBlank
            let title = item.attributedTitle?.string.nilIfBlank
            let attachments = item.attachments ?? []
            func context(_ attachment: Int?) -> ItemContext {
                ItemContext(host: host, text: text, title: title, source: InboxManifest.Source(item: itemIndex + 1, attachment: attachment))
            }
            if attachments.isEmpty {
                let kind: Work.Kind = text.map(Work.Kind.text) ?? .skip("the item has no attachments and no text")
                work.append(Work(item: itemIndex + 1, attachment: nil, kind: kind, context: context(nil)))
                continue
            }
            for (index, provider) in attachments.enumerated() {
                var kind = Work.Kind.attachment(provider)
                if let maximum = policy.maximumCount, counted >= maximum {
                    kind = .skip("beyond the maximum of \(maximum) attachment\(maximum == 1 ? "" : "s")")
                }
                counted += 1
                work.append(Work(item: itemIndex + 1, attachment: index + 1, kind: kind, context: context(index + 1)))
            }
        }
        return work
    }
}

extension String {
    var nilIfBlank: String? {
        trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : self
    }
}
