public import Foundation
// CFString and CFArray, as the CoreFoundation names are spelt everywhere in OpenSharing.
public import OpenCoreFoundation

// The UTType functions of CoreServices (MobileCoreServices on iOS), which code from before iOS 14 calls,
// often in the `else` branch of `#available(iOS 14, *)` that every other system compiles too. They answer
// from the same table as `UTType`, and return retained strings as Core Foundation's "Create" and "Copy"
// functions do: `takeRetainedValue()` balances them.

/// The tag class of filename extensions. Stands in for CoreServices' `kUTTagClassFilenameExtension`.
nonisolated(unsafe) public let kUTTagClassFilenameExtension: CFString = "public.filename-extension" as CFString
/// The tag class of MIME types. Stands in for CoreServices' `kUTTagClassMIMEType`.
nonisolated(unsafe) public let kUTTagClassMIMEType: CFString = "public.mime-type" as CFString
/// The tag class of pasteboard types. Stands in for CoreServices' `kUTTagClassNSPboardType`.
nonisolated(unsafe) public let kUTTagClassNSPboardType: CFString = "com.apple.nspboard-type" as CFString
/// The tag class of four-character codes. Stands in for CoreServices' `kUTTagClassOSType`.
nonisolated(unsafe) public let kUTTagClassOSType: CFString = "com.apple.ostype" as CFString

/// A type's identifier for a tag: the preferred declared type, else a dynamic one, as `UTType(tag:…)` gives.
///
/// Stands in for CoreServices' `UTTypeCreatePreferredIdentifierForTag(_:_:_:)`.
public func UTTypeCreatePreferredIdentifierForTag(_ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?) -> Unmanaged<CFString>? {
    let supertype = inConformingToUTI.map { type(for: $0) }
    guard let found = UTType(tag: inTag as String, tagClass: UTTagClass(rawValue: inTagClass as String), conformingTo: supertype) else { return nil }
    return retained(found.identifier)
}

/// Every declared type's identifier for a tag, best first; a dynamic one when none declares it.
///
/// Stands in for CoreServices' `UTTypeCreateAllIdentifiersForTag(_:_:_:)`.
public func UTTypeCreateAllIdentifiersForTag(_ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?) -> Unmanaged<CFArray>? {
    let tagClass = UTTagClass(rawValue: inTagClass as String)
    let supertype = inConformingToUTI.map { type(for: $0) }
    var identifiers = UTType.types(tag: inTag as String, tagClass: tagClass, conformingTo: supertype).map(\.identifier)
    if identifiers.isEmpty, let dynamic = UTType(tag: inTag as String, tagClass: tagClass, conformingTo: supertype) {
        identifiers = [dynamic.identifier]
    }
    return Unmanaged.passRetained(identifiers.map { $0 as NSString } as NSArray)
}

/// A type's preferred tag of a class (its preferred filename extension, its preferred MIME type).
///
/// Stands in for CoreServices' `UTTypeCopyPreferredTagWithClass(_:_:)`.
public func UTTypeCopyPreferredTagWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFString>? {
    guard let tag = type(for: inUTI).tags[UTTagClass(rawValue: inTagClass as String)]?.first else { return nil }
    return retained(tag)
}

/// All of a type's tags of a class.
///
/// Stands in for CoreServices' `UTTypeCopyAllTagsWithClass(_:_:)`.
public func UTTypeCopyAllTagsWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFArray>? {
    guard let tags = type(for: inUTI).tags[UTTagClass(rawValue: inTagClass as String)], !tags.isEmpty else { return nil }
    return Unmanaged.passRetained(tags.map { $0 as NSString } as NSArray)
}

/// Whether two identifiers name the same type (compared without regard to case).
///
/// Stands in for CoreServices' `UTTypeEqual(_:_:)`.
public func UTTypeEqual(_ inUTI1: CFString, _ inUTI2: CFString) -> Bool {
    type(for: inUTI1) == type(for: inUTI2)
}

/// Whether a type conforms to another, as `UTType.conforms(to:)` says.
///
/// Stands in for CoreServices' `UTTypeConformsTo(_:_:)`.
public func UTTypeConformsTo(_ inUTI: CFString, _ inConformsToUTI: CFString) -> Bool {
    type(for: inUTI).conforms(to: type(for: inConformsToUTI))
}

/// A type's description, for people.
///
/// Stands in for CoreServices' `UTTypeCopyDescription(_:)`.
public func UTTypeCopyDescription(_ inUTI: CFString) -> Unmanaged<CFString>? {
    type(for: inUTI).localizedDescription.map(retained)
}

/// Whether a type is declared (by the system or an app), not dynamic.
///
/// Stands in for CoreServices' `UTTypeIsDeclared(_:)`.
public func UTTypeIsDeclared(_ inUTI: CFString) -> Bool {
    type(for: inUTI).isDeclared
}

/// Whether an identifier is a dynamic one (`dyn.a…`).
///
/// Stands in for CoreServices' `UTTypeIsDynamic(_:)`.
public func UTTypeIsDynamic(_ inUTI: CFString) -> Bool {
    type(for: inUTI).isDynamic
}

/// The type an identifier names; one nobody declares is taken as imported, as CoreServices takes it.
private func type(for identifier: CFString) -> UTType {
    UTType(identifier as String) ?? UTType(importedAs: identifier as String)
}

private func retained(_ text: String) -> Unmanaged<CFString> {
    Unmanaged.passRetained(text as NSString)
}
