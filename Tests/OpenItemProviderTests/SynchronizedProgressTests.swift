import Foundation
@testable import OpenItemProvider
import Testing

@Suite("Progress from many threads")
struct SynchronizedProgressTests {
    @Test("children finishing on many threads at once, while the parent is read and cancelled: the counts add up, nothing crashes")
    func concurrentChildren() {
        for round in 0..<200 {
            let parent = SynchronizedProgress(totalUnitCount: 8)
            let children = (0..<8).map { _ in SynchronizedProgress(totalUnitCount: 100, parent: parent, pendingUnitCount: 1) }
            DispatchQueue.concurrentPerform(iterations: children.count + 1) { index in
                guard index < children.count else {
                    // A reader, and in odd rounds a Cancel button, during the updates.
                    _ = parent.fractionCompleted
                    if round.isMultiple(of: 2) == false { parent.cancel() }
                    return
                }
                for step in stride(from: 10, through: 100, by: 10) { children[index].completedUnitCount = Int64(step) }
            }
            #expect(parent.completedUnitCount == 8 && parent.fractionCompleted == 1)
            #expect(parent.isCancelled == !round.isMultiple(of: 2))
        }
    }
}
