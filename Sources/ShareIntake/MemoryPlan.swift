import Foundation
import ShareInbox

/// How an intake spends its memory budget: what one attachment in flight costs, and so how many may be.
///
/// An attachment in flight holds what the inbox's delivery uses (the copy engine's buffers and the hash's)
/// and a margin for its bookkeeping; previews cost what the preview maker says. Payloads never pass
/// through memory whole.
struct MemoryPlan: Sendable, Equatable {
    static let perAttachment = ShareInbox.memoryPerDelivery + (256 << 10)

    /// Attachments loaded at once.
    let concurrency: Int
    /// What each attachment in flight may spend on previews.
    let previewBudget: Int

    /// - Throws: `IntakeError` with `.memoryBudget` when not even one attachment fits.
    init(budget: Int, concurrency wanted: Int, previewMemory: Int) throws(IntakeError) {
        let one = Self.perAttachment + previewMemory
        guard budget >= Self.perAttachment else {
            throw IntakeError(.memoryBudget, "a memory budget of \(Self.megabytes(budget)) cannot hold one attachment in flight, which needs \(Self.megabytes(Self.perAttachment))")
        }
        // Previews are made only when one fits beside a load; otherwise the payloads still arrive, without them.
        if budget >= one {
            concurrency = max(1, min(wanted, budget / one))
            previewBudget = previewMemory
        } else {
            concurrency = max(1, min(wanted, budget / Self.perAttachment))
            previewBudget = 0
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
