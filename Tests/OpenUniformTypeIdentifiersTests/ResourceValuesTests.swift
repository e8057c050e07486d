import Foundation
import OpenUniformTypeIdentifiers
import Testing

@Suite("URL resource values")
struct ResourceValuesTests {
    @Test("contentType by name, as Apple gives it: files by extension, folders, packages; nil when nothing is there")
    func contentType() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "opensharing-values-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for directory in ["Folder", "Notes.rtfd", "Odd.zzzq"] {
            try FileManager.default.createDirectory(at: root.appending(path: directory), withIntermediateDirectories: true)
        }
        for file in ["photo.JPG", "README", "script.lua", ".hidden"] { try Data().write(to: root.appending(path: file)) }
        func type(_ name: String) throws -> String? {
            try root.appending(path: name).resourceValues(forKeys: [.contentTypeKey]).contentType?.identifier
        }
        #expect(try type("photo.JPG") == "public.jpeg")
        #expect(try type("README") == "public.data")
        #expect(try type(".hidden") == "public.data")
        #expect(try type("script.lua")?.hasPrefix("dyn.") == true)
        #expect(try type("Folder") == "public.folder")
        #expect(try type("Notes.rtfd") == "com.apple.rtfd")
        #expect(try type("Odd.zzzq") == "public.folder")
        #expect(try URL(fileURLWithPath: "/nonexistent/x.jpg").resourceValues(forKeys: [.contentTypeKey]).contentType == nil)
        #expect(try root.appending(path: "photo.JPG").resourceValues(forKeys: [.nameKey]).contentType == nil)
    }
}
