public import SharingSystem

/// Why a thumbnail could not be made; `description` says what, for a person.
public enum ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read (missing, a directory, no permission): the system's error says which.
    case unreadable(SystemError)
    /// Not a format Thumbnails reads.
    case unsupported(String)
    /// The bytes contradict the format, or end too early.
    case corrupt(String)
    /// More pixels than the limit allows (a decompression bomb, or just too large).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Decoding would need more memory than the budget.
    case overBudget(needed: Int, budget: Int, why: String)
    /// The thumbnail cannot be written.
    case unwritable(String)

    public var description: String {
        switch self {
        case .unreadable(let error): return "cannot read the image: \(error)"
        case .unsupported(let why): return "unsupported: \(why)"
        case .corrupt(let why): return "corrupt image: \(why)"
        case .tooManyPixels(let width, let height, let limit):
            return "\(width) × \(height) pixels is more than the limit of \(limit) pixels"
        case .overBudget(let needed, let budget, let why):
            return "\(why) needs about \(megabytes(needed)) of memory, more than the budget of \(megabytes(budget))"
        case .unwritable(let why): return "cannot write the thumbnail: \(why)"
        }
    }

    private func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
