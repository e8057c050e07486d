#if os(Linux) || os(Android)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSharingSystem
import SystemPackage

/// Ways the kernel copies between files without the bytes passing through this process:
/// `copy_file_range` (reflinks on file systems that have them), then `sendfile`. Both read the input at an
/// offset of their own, never moving the input descriptor's, which another process may share.
struct KernelCopy: Sendable {
    let name: FileCopier.Method
    private let call: @Sendable (CInt, UnsafeMutablePointer<Int64>, CInt, Int) -> Int

    static let methods = [
        KernelCopy(name: .copyFileRange) { input, offset, output, count in
            offset.withMemoryRebound(to: CLongLong.self, capacity: 1) { csharing_copy_file_range(input, $0, output, count) }
        },
        KernelCopy(name: .sendfile) { input, offset, output, count in
            offset.withMemoryRebound(to: CLongLong.self, capacity: 1) { csharing_sendfile(output, input, $0, count) }
        },
    ]

    /// Moves at most `count` bytes from `offset` of `input` (advancing it) to `output`.
    func move(from input: CInt, at offset: inout Int64, to output: CInt, count: Int) -> KernelCopyOutcome {
        while true {
            let moved = call(input, &offset, output, count)
            if moved > 0 { return .moved(moved) }
            if moved == 0 { return .end }
            let number = Errno.last
            if number == .interrupted || number == .resourceTemporarilyUnavailable { continue }
            let unsupported: [Errno] = [.noFunction, .improperLink, .invalidArgument, .notSupportedOnSocket, .notSupported]
            return unsupported.contains(number) ? .unsupported(number) : .failed(number)
        }
    }
}
#endif
