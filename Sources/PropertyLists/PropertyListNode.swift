package import Foundation

/// Where a value stood in the document it was read from.
///
/// Every value has a byte offset; values read from an XML property list also have a line and a column
/// (1-based, the column counted in Unicode scalars), so that diagnostics can point at them.
package struct PropertyListLocation: Sendable, Hashable, CustomStringConvertible {
    package var byteOffset: Int
    package var line: Int?
    package var column: Int?

    package init(byteOffset: Int, line: Int? = nil, column: Int? = nil) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    package var description: String {
        if let line, let column { return "line \(line), column \(column)" }
        return "byte \(byteOffset)"
    }
}

/// One value of a property list, with its location.
package struct PropertyListNode: Sendable {
    package enum Value: Sendable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        case date(Date)
        case data(Data)
        case array([PropertyListNode])
        case dictionary(PropertyListDictionary)
        /// A keyed-archiver object reference (binary property lists only).
        case uid(UInt64)
    }

    package var value: Value
    package var location: PropertyListLocation

    package init(_ value: Value, at location: PropertyListLocation) {
        self.value = value
        self.location = location
    }

    /// The name of the value's kind as a property list spells it (`string`, `dict`, …), for messages.
    package var kindName: String {
        switch value {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        case .uid: "uid"
        }
    }

    package var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    package var integer: Int64? {
        if case .integer(let i) = value { return i }
        return nil
    }

    package var boolean: Bool? {
        if case .boolean(let b) = value { return b }
        return nil
    }

    package var array: [PropertyListNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    package var dictionary: PropertyListDictionary? {
        if case .dictionary(let d) = value { return d }
        return nil
    }

    /// The value as Foundation objects (`String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `[Any]`,
    /// `[String: Any]`), the shape `PropertyListSerialization` produces. A UID becomes its number.
    package var foundationValue: any Sendable {
        switch value {
        case .string(let s): s
        case .integer(let i): Int(i)
        case .real(let d): d
        case .boolean(let b): b
        case .date(let d): d
        case .data(let d): d
        case .uid(let u): Int(truncatingIfNeeded: u)
        case .array(let a): a.map(\.foundationValue)
        case .dictionary(let d):
            Dictionary(d.entries.map { ($0.key, $0.value.foundationValue) }, uniquingKeysWith: { _, last in last })
        }
    }
}

extension PropertyListNode {
    /// The value as the Foundation objects an item provider hands over (`NSString`, `NSNumber`, `NSDate`,
    /// `NSData`, `NSArray`, `NSDictionary`), each `NSSecureCoding` as Apple's are. A UID becomes its number.
    package var foundationObject: NSObject {
        switch value {
        case .string(let s): NSString(string: s)
        case .integer(let i): NSNumber(value: i)
        case .real(let d): NSNumber(value: d)
        case .boolean(let b): NSNumber(value: b)
        case .date(let d): NSDate(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate)
        case .data(let d): NSData(data: d)
        case .uid(let u): NSNumber(value: u)
        case .array(let a): NSArray(array: a.map(\.foundationObject))
        case .dictionary(let d):
            NSDictionary(dictionary: Dictionary(d.entries.map { ($0.key, $0.value.foundationObject) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// A property-list dictionary: its entries in document order, duplicates kept (a linter reports them),
/// lookups answering the last entry for a key, as Core Foundation does.
package struct PropertyListDictionary: Sendable {
    package struct Entry: Sendable {
        package var key: String
        package var keyLocation: PropertyListLocation
        package var value: PropertyListNode
    }

    package var entries: [Entry]

    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    package subscript(key: String) -> PropertyListNode? {
        entries.last(where: { $0.key == key })?.value
    }

    package var keys: [String] { entries.map(\.key) }
}
