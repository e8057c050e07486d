public import Foundation
public import ShareInbox
public import SharingShim

/// What an intake accepts and how much it may spend doing so.
public struct IntakePolicy: Sendable {
    /// What to do when a file's bytes are not what the host declared.
    public enum Mismatch: Sendable, Equatable {
        /// Deliver the file as what its bytes are, when that is accepted too; the report notes the mismatch.
        case deliverAsFound
        /// Refuse the representation (and try the next one).
        case refuse
    }

    /// What to do with a directory (a Live Photo bundle, an `rtfd`, a folder).
    public enum Directories: Sendable, Equatable {
        /// Copy the tree; links leading out of it are left out.
        case copy
        /// Refuse it (and try the next representation).
        case refuse
    }

    /// Accepted types, most wanted first: an attachment is received as the representation that conforms to
    /// the earliest of these (`[.item]`, the default, takes anything).
    public var acceptedTypes: [UTType]
    /// Most attachments received from one share; the rest are skipped.
    public var maximumCount: Int?
    /// Largest payload received, in bytes; larger ones are skipped before any copying.
    public var maximumItemSize: Int64?
    /// The memory the intake may use, in bytes: it plans its concurrency and buffers to stay within it.
    /// A share extension is given about 120 MB, a notification service extension 24 MB (as reported).
    public var memoryBudget: Int
    /// Longest side, in pixels, of each preview to make for an image (needs a `previewMaker`).
    public var previewSizes: [Int]
    /// Most attachments loaded at once (the memory budget may allow fewer).
    public var concurrency: Int
    /// How long a host app may take to answer a load before the representation counts as failed.
    public var loadTimeout: Duration
    public var mismatch: Mismatch
    public var directories: Directories

    public init(acceptedTypes: [UTType] = [.item], maximumCount: Int? = nil, maximumItemSize: Int64? = nil,
                memoryBudget: Int = 24 << 20, previewSizes: [Int] = [], concurrency: Int = 2,
                loadTimeout: Duration = .seconds(30), mismatch: Mismatch = .deliverAsFound, directories: Directories = .copy) {
        self.acceptedTypes = acceptedTypes
        self.maximumCount = maximumCount
        self.maximumItemSize = maximumItemSize
        self.memoryBudget = memoryBudget
        self.previewSizes = previewSizes
        self.concurrency = concurrency
        self.loadTimeout = loadTimeout
        self.mismatch = mismatch
        self.directories = directories
    }
}

/// Makes previews of a received file; `ThumbnailPreviews` is the intake's default.
public protocol PreviewMaking: Sendable {
    /// The memory making previews of a file of this type may need at most, in bytes; 0 when it makes none.
    func memoryNeeded(for type: UTType, sizes: [Int]) -> Int
    /// Writes previews of `file` into `directory`, no larger than each of `sizes` on the longer side.
    func makePreviews(of file: URL, type: UTType, sizes: [Int], into directory: URL, memoryBudget: Int) throws -> [InboxManifest.Preview]
}
