package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a whole regular file into memory, for callers that asked for data and so chose to hold it.
package enum FileReader {
    /// The file's bytes, read in chunks so that `progress` (bytes so far; `false` cancels) is called as
    /// they arrive. A FIFO or device is refused, never read from.
    package static func readAll(_ path: String, progress: (Int64) -> Bool = { _ in true }) throws(FileSystemError) -> Data {
        let descriptor = try Syscall.openFile(path, O_RDONLY | O_NONBLOCK)
        defer { Syscall.closeFile(descriptor) }
        let status = try Syscall.status(of: descriptor, path: path)
        guard Syscall.isRegularFile(status) else {
            throw FileSystemError(.wrongKind, operation: "read", path: path, detail: "not a regular file")
        }
        var data = Data(count: Int(status.st_size))
        var total = 0
        while true {
            if total == data.count { data.count += FileCopier.bufferSize }  // the file grew since fstat
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + total, min(buffer.count - total, FileCopier.chunkSize))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.system(errno), operation: "read", path: path)
            }
            if count == 0 { break }
            total += count
            if !progress(Int64(total)) { throw FileSystemError(.cancelled, operation: "read", path: path) }
        }
        data.count = total
        return data
    }

    /// At most the first `count` bytes of a regular file (fewer when it is shorter); links are not followed.
    package static func readPrefix(_ path: String, count: Int) throws(FileSystemError) -> [UInt8] {
        let descriptor = try Syscall.openFile(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        defer { Syscall.closeFile(descriptor) }
        guard Syscall.isRegularFile(try Syscall.status(of: descriptor, path: path)) else {
            throw FileSystemError(.wrongKind, operation: "read", path: path, detail: "not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + total, count - total)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.system(errno), operation: "read", path: path)
            }
            if got == 0 { break }
            total += got
        }
        return Array(bytes[..<total])
    }
}
