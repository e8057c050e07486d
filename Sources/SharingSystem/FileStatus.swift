package import Foundation
import SystemPackage

/// What the project needs to know of a file's status: its kind, size, storage and modification time.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink
        /// A FIFO, socket or device: never read from.
        case other
    }

    package var kind: Kind
    package var size: Int64
    /// The bytes of storage the file takes: less than `size` for a sparse file.
    package var allocatedSize: Int64
    package var modificationTime: Date
    /// The inode number, which with the device names the file.
    package var inode: UInt64
    package var device: UInt64
    /// The user that owns it.
    package var owner: UInt32

    init(_ status: Stat) {
        switch status.type {
        case .regular: kind = .regular
        case .directory: kind = .directory
        case .symbolicLink: kind = .symbolicLink
        default: kind = .other
        }
        size = status.size
        allocatedSize = status.sizeAllocated
        inode = UInt64(status.inode.rawValue)
        device = UInt64(status.deviceID.rawValue)
        owner = UInt32(status.userID.rawValue)
        let time = status.st_mtim
        modificationTime = Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }
}

extension FilePermissions {
    /// `rwxr-xr-x`, as a copied tree's directories are made.
    static let directoryDefault: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute]
}
