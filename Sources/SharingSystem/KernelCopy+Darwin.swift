#if canImport(Darwin)
import SystemPackage

/// Darwin has no in-kernel copy between two open files that reports progress a chunk at a time, so files are
/// copied through the read/write buffer.
struct KernelCopy: Sendable {
    let name: FileCopier.Method

    static let methods: [KernelCopy] = []

    func move(from input: CInt, at offset: inout Int64, to output: CInt, count: Int) -> KernelCopyOutcome {
        .unsupported(.noFunction)
    }
}
#endif
