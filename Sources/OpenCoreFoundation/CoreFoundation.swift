// The Core Foundation names Swift code writes beside ImageIO and CoreServices: `CFString`, `CFDictionary`,
// `CFURL`, `CFData`, `kCFBooleanTrue`, `CFNumberGetValue`. On Apple's systems they are Core Foundation's own,
// toll-free bridged to Foundation's classes; elsewhere each is the Foundation class it bridges to, so that what
// code writes with them compiles unchanged: `url as CFURL`, `data as CFData`, `[kCGImageSourceShouldCache:
// false] as CFDictionary` and `"name" as CFString` are bridging casts to `NSURL`, `NSData`, `NSDictionary` and
// `NSString`, which Swift on Linux makes as Swift on Apple's systems does.
//
// Linux's toolchain ships a module named CoreFoundation with other types of these names. A file that imports
// it beside `SharingShim` still means these: `SharingShim` re-exports each by name, and a name imported by
// name is preferred to one a module brings whole.

#if canImport(Darwin)
@_exported public import CoreFoundation
#else
public import Foundation

/// Stands in for Core Foundation's `CFString`, toll-free bridged to `NSString`: here it is `NSString`.
public typealias CFString = NSString
/// Stands in for Core Foundation's `CFArray`: here it is `NSArray`.
public typealias CFArray = NSArray
/// Stands in for Core Foundation's `CFDictionary`: here it is `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// Stands in for Core Foundation's `CFMutableDictionary`: here it is `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// Stands in for Core Foundation's `CFData`: here it is `NSData`.
public typealias CFData = NSData
/// Stands in for Core Foundation's `CFMutableData`: here it is `NSMutableData`.
public typealias CFMutableData = NSMutableData
/// Stands in for Core Foundation's `CFURL`: here it is `NSURL`.
public typealias CFURL = NSURL
/// Stands in for Core Foundation's `CFNumber`: here it is `NSNumber`.
public typealias CFNumber = NSNumber
/// Stands in for Core Foundation's `CFBoolean`, whose two values are `NSNumber`s on Apple's systems too.
public typealias CFBoolean = NSNumber
/// Stands in for Core Foundation's `CFIndex`.
public typealias CFIndex = Int
/// Stands in for Core Foundation's `CFTypeRef`.
public typealias CFTypeRef = AnyObject

/// Stands in for Core Foundation's `kCFBooleanTrue`.
public let kCFBooleanTrue: CFBoolean! = true
/// Stands in for Core Foundation's `kCFBooleanFalse`.
public let kCFBooleanFalse: CFBoolean! = false

/// An allocator: there is one here, the default. Stands in for Core Foundation's `CFAllocator`.
public final class CFAllocator: Sendable {
    private init() {}
}

/// Stands in for Core Foundation's `kCFAllocatorDefault`.
public let kCFAllocatorDefault: CFAllocator! = nil

/// The C types `CFNumberGetValue` can give a number as, with Core Foundation's raw values.
///
/// Stands in for Core Foundation's `CFNumberType`.
public enum CFNumberType: CFIndex, Sendable {
    case sInt8Type = 1, sInt16Type, sInt32Type, sInt64Type, float32Type, float64Type, charType, shortType, intType, longType,
         longLongType, floatType, doubleType, cfIndexType, nsIntegerType, cgFloatType

    /// Stands in for `CFNumberType.maxType`.
    public static var maxType: CFNumberType { .cgFloatType }
}

/// Writes `number` as `theType` at `valuePtr`; `false` when the value had to be rounded or did not fit, as Core
/// Foundation reports a lossy conversion (the nearest value is written all the same).
///
/// Stands in for Core Foundation's `CFNumberGetValue(_:_:_:)`.
public func CFNumberGetValue(_ number: CFNumber!, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer!) -> Bool {
    let value = number.doubleValue
    // Integers take the whole part, clamped to the type; exact when nothing was cut off.
    func store<T: FixedWidthInteger>(_: T.Type) -> Bool {
        let whole = number.int64Value
        valuePtr.storeBytes(of: T(clamping: whole), as: T.self)
        return T(exactly: whole) != nil && Double(whole) == value
    }
    switch theType {
    case .sInt8Type, .charType: return store(Int8.self)
    case .sInt16Type, .shortType: return store(Int16.self)
    case .sInt32Type, .intType: return store(Int32.self)
    case .sInt64Type, .longType, .longLongType, .cfIndexType, .nsIntegerType: return store(Int64.self)
    case .float32Type, .floatType:
        valuePtr.storeBytes(of: Float(value), as: Float.self)
        return Double(Float(value)) == value
    case .float64Type, .doubleType, .cgFloatType:
        valuePtr.storeBytes(of: value, as: Double.self)
        return true
    }
}

/// A new, empty mutable data object; `capacity` is a hint (0 for no limit).
///
/// Stands in for Core Foundation's `CFDataCreateMutable(_:_:)`.
public func CFDataCreateMutable(_ allocator: CFAllocator!, _ capacity: CFIndex) -> CFMutableData! {
    NSMutableData(capacity: max(0, capacity)) ?? NSMutableData()
}
#endif

#if !canImport(Darwin)
/// A constant string of Apple's, such as an ImageIO key, that is equal as a dictionary key to the same text
/// however the dictionary holds it. Linux's Foundation does not make `AnyHashable(NSString)` equal to
/// `AnyHashable(String)` as Apple's does, so that `properties[kCGImagePropertyPixelWidth]` would find nothing in
/// an `[AnyHashable: Any]` made from a property dictionary (its keys become `String`s); this string hashes
/// and compares as the `String` it holds.
package final class ConstantString: NSString, _HasCustomAnyHashableRepresentation {
    private let units: [unichar]

    package init(_ text: String) {
        units = Array(text.utf16)
        super.init(characters: units, length: units.count)
    }

    required convenience init(string aString: String) {
        self.init(aString)
    }

    required init?(coder: NSCoder) {
        nil
    }

    required convenience init(stringLiteral value: StaticString) {
        self.init("\(value)")
    }

    required convenience init(extendedGraphemeClusterLiteral value: StaticString) {
        self.init("\(value)")
    }

    required convenience init(unicodeScalarLiteral value: StaticString) {
        self.init("\(value)")
    }

    override package var length: Int { units.count }

    override package func character(at index: Int) -> unichar { units[index] }

    package func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String(decoding: units, as: UTF16.self))
    }
}
#endif
