package import Foundation

/// The disk a directory is on, as the kernel counts the work it does: how many bytes it has read and written
/// for everyone. Beside what one process tree had moved meanwhile (`ProcessTree.storageBytes()`), it tells how
/// much of the disk's work was for others while the tree waited on it.
package struct StorageDevice: Sendable, Equatable {
    /// The kernel's counters of the whole disk (`/sys/dev/block/MAJOR:MINOR/stat`, the disk's for a partition).
    package let statistics: URL

    /// The disk holding `directory`, or nil where it is on no block device (tmpfs, overlay and network file
    /// systems have numbers of their own, with no counters behind them).
    package init?(holding directory: URL) {
        guard let device = try? FileSystem.status(directory)?.device else { return nil }
        let (major, minor) = Self.numbers(device)
        let node = URL(fileURLWithPath: "/sys/dev/block/\(major):\(minor)")
        // A partition's counters leave out the rest of its disk, which others may be keeping busy.
        let isPartition = (try? FileSystem.status(node.appending(component: "partition"))) != nil
        statistics = isPartition ? node.appending(component: "../stat") : node.appending(component: "stat")
        guard bytesMoved() != nil else { return nil }
    }

    /// The bytes the disk has read and written since the machine started, or nil where its counters cannot be
    /// read.
    package func bytesMoved() -> UInt64? {
        guard let data = try? OpenFile.reading(statistics, regularOnly: false).readAll(limit: 4096) else { return nil }
        return Self.bytesMoved(statistics: String(decoding: data, as: UTF8.self))
    }

    /// Sectors read plus sectors written, 512 bytes each, from the text of a block device's stat file (reads,
    /// merged reads, sectors read, time reading, writes, merged writes, sectors written, …).
    package static func bytesMoved(statistics text: String) -> UInt64? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 7, let read = UInt64(fields[2]), let written = UInt64(fields[6]) else { return nil }
        let (sum, overflow) = read.addingReportingOverflow(written)
        return overflow || sum > UInt64.max / 512 ? nil : sum * 512
    }

    /// A device number's major and minor parts, as Linux packs them (glibc's `major` and `minor`).
    package static func numbers(_ device: UInt64) -> (major: UInt64, minor: UInt64) {
        let high = UInt64(UInt32(truncatingIfNeeded: device >> 32) & ~0xfff), middle = UInt64(UInt32(truncatingIfNeeded: device >> 12) & ~0xff)
        return (((device >> 8) & 0xfff) | high, (device & 0xff) | middle)
    }
}
