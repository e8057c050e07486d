import Foundation
import PackageSupport
import SharingSystem

/// Answers the disk gate's held accesses (`DiskGate`), on a thread of its own: the host itself reads files the
/// extension opened where it writes (a notification's attachments, returned files, through the descriptors
/// that crossed), and those reads wait on the gate too, so the supervisor's thread cannot be the one to answer.
///
/// An access that takes no storage goes on: a read, or a write over what the file has allocated. One that may
/// take some (`DiskGate.Access.growth`: an append, a write into a hole or past the end, an access whose
/// descriptor cannot be found, each counted whole) goes on while the bytes used (as last measured, with what the
/// gate let files grow by since) and its growth fit the budget; else the places are measured again on this
/// thread, and if it still does not fit it fails with ENOSPC, and `refusal` is signalled for the supervisor to
/// end the extension over its budget. What the extension stores never passes the budget but by writes already
/// on their way (one per writing thread).
final class DiskGatekeeper: Sendable {
    /// Signalled when a write was refused: `refused` says the bytes it would have brought the use to.
    let refusal: Wakeup
    private let refusedUse = Locked<Int?>(nil)
    private let stop: Wakeup

    /// Starts answering `gate`'s accesses against `meter` and `limit`. Only the keeper's thread holds the gate,
    /// which closes when the thread ends (`end()`), and with it every mark: nothing waits on it after.
    init(_ gate: DiskGate, meter: DiskMeter, limit: Int) throws(SystemError) {
        refusal = try Wakeup()
        stop = try Wakeup()
        let (refusal, refusedUse, stop) = (refusal, refusedUse, stop)
        Thread {
            while true {
                let ready = (try? Poll.readable([gate.descriptor, stop.descriptor], timeout: .seconds(1), name: "the disk gate")) ?? []
                if ready.contains(stop.descriptor) { return }
                guard ready.contains(gate.descriptor) else { continue }
                for access in gate.waiting() {
                    guard access.growth > 0 else {
                        gate.answer(access, allow: true)
                        continue
                    }
                    if meter.usedWithGranted + access.growth <= limit || meter.measureHere(keepingPeak: false) + access.growth <= limit {
                        meter.grant(access.growth)
                        gate.answer(access, allow: true)
                    } else {
                        // Recorded before the answer: whatever the extension does once its write failed, the host
                        // knows of the refusal first.
                        refusedUse.withLock { $0 = $0 ?? meter.used + access.growth }
                        gate.answer(access, allow: false)
                        refusal.signal()
                    }
                }
            }
        }.start()
    }

    /// The bytes the first refused write would have brought the use to, once one was refused.
    var refused: Int? { refusedUse.withLock { $0 } }

    /// Ends the keeper's thread, and so the gate.
    func end() {
        stop.signal()
    }
}
