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
    /// the error's `nsError` (`NSUserCancelledError` when the task, or `progress`, was cancelled).
    public func receive(from context: NSExtensionContext, into inbox: ShareInbox, host: String? = nil,
                        progress: Progress? = nil) async throws(IntakeError) -> IntakeReport {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        do {
            let report = try await receive(items, into: inbox, host: host, progress: progress)
            context.completeRequest(returningItems: [], completionHandler: nil)
            return report
        } catch {
            context.cancelRequest(withError: error.nsError)
            throw error
        }
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
            var entries: [IntakeReport.Entry] = []
            var identities: [String: (Int, Int?)] = [:]
            var finished: [Int: AttachmentResult] = [:]
            var next = 0, started = 0
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
                    // Deliver in the share's order, so that of two copies of one resource the first is kept.
                    while let result = finished.removeValue(forKey: next) {
                        entries.append(try await commit(result, of: work[next], identities: &identities))
                        next += 1
                    }
                }
            } catch {
                // Nothing half-delivered stays: what was staged and not yet delivered is removed.
                group.cancelAll()
                for result in finished.values { if case .staged(let staged) = result { staged.delivery.discard() } }
                while let (_, result) = try? await group.next() { if case .staged(let staged) = result { staged.delivery.discard() } }
                throw error
            }
            return IntakeReport(host: host, entries: entries)
        }
    }

    /// Delivers a staged attachment unless it repeats one already delivered.
    private func commit(_ result: AttachmentResult, of work: Work, identities: inout [String: (Int, Int?)]) async throws(IntakeError) -> IntakeReport.Entry {
        let outcome: IntakeReport.Outcome
        switch result {
        case .skipped(let reason):
            outcome = .skipped(reason: reason)
        case .failed(let reasons):
            outcome = .failed(reasons: reasons)
        case .staged(let staged):
            if let (item, attachment) = identities[staged.identity] {
                staged.delivery.discard()
                outcome = .skipped(reason: "the same as item \(item)\(attachment.map { ", attachment \($0)" } ?? "")")
            } else {
                let item: InboxItem
                do {
                    item = try await staged.delivery.deliver(staged.manifest)
                } catch {
                    throw IntakeError(.inbox, error.description, underlying: error).at(item: work.item, attachment: work.attachment)
                }
                identities[staged.identity] = (work.item, work.attachment)
                outcome = .received(IntakeReport.Received(id: item.id, type: item.manifest.type, name: item.manifest.name,
                                                          size: item.manifest.size, hash: item.manifest.hash.description, notes: staged.notes))
            }
        }
        return IntakeReport.Entry(item: work.item, attachment: work.attachment, outcome: outcome)
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
