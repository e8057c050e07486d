/// Why a property list could not be read: what was wrong, and where.
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        /// Neither an XML nor a binary (`bplist00`) property list.
        case unknownFormat
        /// Malformed XML, or XML that is not a property list.
        case malformedXML
        /// A binary property list whose structure is broken (offsets, sizes, references).
        case malformedBinary
        /// Nesting, object counts or sizes beyond what a reader should accept from untrusted input.
        case limitExceeded
        /// A binary property list whose objects refer back to themselves.
        case cyclicReference
    }

    package var code: Code
    package var message: String
    package var location: PropertyListLocation?

    package init(_ code: Code, _ message: String, at location: PropertyListLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    package var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}

/// Limits that keep a reader of untrusted property lists bounded in time and memory.
package enum PropertyListLimits {
    /// Deepest nesting of arrays and dictionaries accepted.
    package static let maximumDepth = 256
    /// Most values materialized from one document (shared binary objects count each time they are used).
    package static let maximumNodes = 200_000
}
