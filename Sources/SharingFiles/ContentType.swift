import Foundation
#if canImport(UniformTypeIdentifiers)
package import UniformTypeIdentifiers
#else
package import OpenUniformTypeIdentifiers
#endif

/// The type of a file by its extension, as Apple's `URLResourceValues.contentType` gives it without
/// reading the file: a directory is `public.folder` unless its extension names a package or bundle type,
/// a file without an extension is `public.data`, one with an unknown extension a dynamic type.
package func contentType(ofFileAt path: String) -> UTType {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let pathExtension = URL(fileURLWithPath: path).pathExtension
    if isDirectory.boolValue {
        let declared = pathExtension.isEmpty ? nil : UTType(filenameExtension: pathExtension, conformingTo: .directory)
        return declared.flatMap { $0.isDeclared ? $0 : nil } ?? .folder
    }
    return pathExtension.isEmpty ? .data : UTType(filenameExtension: pathExtension) ?? .data
}
