import Foundation
import HostProfiles
import OpenUniformTypeIdentifiers

/// The files generated shares are made of, written once into the fuzzer's work directory: photos (one under a
/// name outside ASCII, one under a 200-byte name, one with no extension, one with the wrong one), a camera's 48 MP
/// photo (Photos' own size) and 12 MP still (a Live Photo's), a PDF, a note, an empty file and a 256 MiB file (sparse: its size is the point, not its
/// bytes: twice any share extension's memory, and quick to copy).
struct FuzzMaterials: Sendable {
    let photo: URL
    let largePhoto: URL
    /// A Live Photo's still: a camera's 12 MP.
    let still: URL
    let pdf: URL
    let note: URL
    let empty: URL
    let hugeFile: URL
    /// The photo's bytes under names that trip extensions: outside ASCII, 200 bytes long, with no extension,
    /// with a wrong one.
    let renamedPhotos: [URL]

    /// Images a host that shares images may send.
    var images: [URL] { [photo] + renamedPhotos }
    /// Documents a host that shares documents may send.
    var documents: [URL] { [pdf, note, empty, hugeFile, renamedPhotos[2]] }

    /// The large file's size.
    static let hugeSize = 256 << 20

    /// Names that trip extensions: outside ASCII (decomposed, with an emoji), 200 bytes, none, a wrong extension.
    static let awkwardNames = ["Fe\u{0302}te a\u{0300} l’e\u{0301}te\u{0301} 🎉.jpg", String(repeating: "a", count: 196) + ".jpg", "IMG_0001", "IMG_0001.txt"]

    /// A type with no MIME type and no extension the system knows: what a file of an unknown extension is.
    static let dynamicType = UTType(filenameExtension: "opensharingfuzz")?.identifier ?? "dyn.opensharingfuzz"

    /// Writes the files into `directory` (kept when already there) and names them.
    static func write(into directory: URL) throws -> FuzzMaterials {
        let content = try DefaultShare.write(into: directory)
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        guard let photo = content.files.first(where: { $0.lastPathComponent == "photo.jpg" }),
              let pdf = content.files.first(where: { $0.pathExtension == "pdf" }) else {
            throw DefaultShare.GeneratorError("the default share wrote no photo or no PDF")
        }
        let bytes = try Data(contentsOf: photo)
        let renamed = awkwardNames.map(file)
        for url in renamed where (try? Data(contentsOf: url)) != bytes { try bytes.write(to: url, options: .atomic) }
        let note = file("note.txt"), empty = file("empty.txt")
        try Data((content.texts.first ?? "").utf8).write(to: note, options: .atomic)
        try Data().write(to: empty, options: .atomic)
        // Sparse: more than any extension's memory when loaded as data, and nothing on the disk until copied.
        let huge = file("large.bin")
        try DefaultShare.writeSparse(huge, size: UInt64(hugeSize))
        return FuzzMaterials(photo: photo, largePhoto: try DefaultShare.photo48MP(), still: try DefaultShare.photo12MP(), pdf: pdf, note: note, empty: empty,
                             hugeFile: huge, renamedPhotos: renamed)
    }
}
