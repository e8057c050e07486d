public import Foundation

/// A property-list value as JSON can hold it: what a fixture carries in `userInfo`, in a `plist` payload,
/// and in the objects a host registers (Safari's JavaScript results).
public enum PropertyListValue: Sendable, Hashable, Codable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .boolean(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .real(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([PropertyListValue].self) { self = .array(value) }
        else if let value = try? container.decode([String: PropertyListValue].self) { self = .dictionary(value) }
        else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a string, number, boolean, array or object (null has no property-list form)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }

    /// The value as Foundation objects (`NSString`, `NSNumber`, `NSArray`, `NSDictionary`).
    public var foundationObject: NSObject {
        switch self {
        case .string(let value): NSString(string: value)
        case .integer(let value): NSNumber(value: value)
        case .real(let value): NSNumber(value: value)
        case .boolean(let value): NSNumber(value: value)
        case .array(let values): NSArray(array: values.map(\.foundationObject))
        case .dictionary(let values): NSDictionary(dictionary: values.mapValues(\.foundationObject))
        }
    }

    /// The value as a binary property list.
    public func binaryPropertyList() throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .binary, options: 0)
    }

    /// A Foundation value as a property-list value, when it is one (strings, numbers, booleans, arrays,
    /// dictionaries with string keys); `nil` otherwise.
    public init?(foundation value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let boolean as Bool where Swift.type(of: value) == Bool.self: self = .boolean(boolean)
        case let number as NSNumber:
            // A boolean NSNumber's Objective-C type is "c" (char), as on Apple platforms.
            let objCType = String(cString: number.objCType)
            if objCType == "c" { self = .boolean(number.boolValue) }
            else if objCType == "f" || objCType == "d" { self = .real(number.doubleValue) }
            else { self = .integer(number.intValue) }
        case let array as [Any]:
            let values = array.compactMap(PropertyListValue.init(foundation:))
            guard values.count == array.count else { return nil }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let converted = PropertyListValue(foundation: element) else { return nil }
                values[key] = converted
            }
            self = .dictionary(values)
        default:
            return nil
        }
    }
}
