#if os(Linux) || os(Android)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSharingSystem
import SystemPackage

/// Ways the kernel copies between files without the bytes passing through this process:
/// `copy_file_range` (reflinks on file systems that have them), then `sendfile`.
struct KernelCopy: Sendable {
    let name: FileCopier.Method
    private let call: @Sendable (CInt, CInt, Int) -> Int

    static let methods = [
        KernelCopy(name: .copyFileRange) { input, output, count in csharing_copy_file_range(input, output, count) },
        KernelCopy(name: .sendfile) { input, output, count in csharing_sendfile(output, input, count) },
    ]

    func move(from input: CInt, to output: CInt, count: Int) -> KernelCopyOutcome {
        while true {
            let moved = call(input, output, count)
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
