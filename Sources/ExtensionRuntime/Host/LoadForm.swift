/// How a representation crossed between host and extension.
public enum LoadForm: String, Sendable, Equatable, Codable {
    /// Bytes: inline, or in a sealed memory file.
    case data
    /// A file, as a descriptor.
    case file
    /// An object (a URL, a string, a property list, an image).
    case item
    /// A file of unknown length (a FIFO or device in the host), crossing as a pipe: its size is known once it
    /// has ended.
    case stream
}
