#if !canImport(Darwin)
public import Foundation

// What UniformTypeIdentifiers adds to Foundation's URL resource values, for systems whose Foundation lacks it.

extension URLResourceKey {
    /// The key for a resource's type (`URLResourceValues.contentType`).
    ///
    /// Stands in for `URLResourceKey.contentTypeKey`. Foundation on Linux fetches only the keys it knows and
    /// drops others, so this key is the path key (`NSURLPathKey`), from which `contentType` is derived.
    public static let contentTypeKey = URLResourceKey.pathKey
}

extension URLResourceValues {
    /// The resource's type, by its name alone as Apple gives it without reading the file: a directory is
    /// `public.folder` unless its extension names a package or bundle type, a file without an extension is
    /// `public.data`, one with an extension no type claims a dynamic type. `nil` when nothing is there, or
    /// when `.contentTypeKey` was not asked for.
    ///
    /// Stands in for `URLResourceValues.contentType`.
    public var contentType: UTType? {
        guard let path = allValues[.pathKey] as? String else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let pathExtension = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        if isDirectory.boolValue {
            let declared = pathExtension.isEmpty ? nil : UTType(filenameExtension: pathExtension, conformingTo: .directory)
            return declared.flatMap { $0.isDeclared ? $0 : nil } ?? .folder
        }
        return pathExtension.isEmpty ? .data : UTType(filenameExtension: pathExtension) ?? .data
    }
}
#endif
