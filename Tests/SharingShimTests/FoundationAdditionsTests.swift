import Foundation
import SharingShim
import SharingSystem
import Testing

#if !canImport(Darwin)
@Suite("Foundation API that extensions use and Foundation on Linux lacks")
struct FoundationAdditionsTests {
    @Test("NSDataDetector finds links with a scheme, www. and mailto:, less trailing punctuation")
    func links() throws {
        let detector = try NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue)
        let text = "See https://example.com/a?b=1, or www.swift.org. Write to mailto:x@example.org! Not example"
        let found = detector.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
        #expect(found == ["https://example.com/a?b=1", "www.swift.org", "mailto:x@example.org"])
        #expect(detector.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) == 3)
        let first = try #require(detector.firstMatch(in: text, options: [], range: NSRange(location: 0, length: 20)))
        #expect(first.range == NSRange(location: 4, length: 15), "a search stops at the end of its range: https://example")
        #expect(detector.firstMatch(in: "no links here", range: NSRange(location: 0, length: 13)) == nil)
    }

    @Test("NSDataDetector refuses the types it does not detect, naming them")
    func otherTypes() {
        let phone = NSTextCheckingResult.CheckingType.phoneNumber.rawValue
        #expect {
            _ = try NSDataDetector(types: phone)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == 2048
                && error.localizedDescription.contains("checking types \(phone) are not supported")
        }
    }

    @Test("Data's legacy reading options, as notification services pass them: mappedRead and dataReadingMapped are mappedIfSafe, uncachedRead is uncached")
    func legacyReadingOptions() throws {
        #expect(NSData.ReadingOptions.mappedRead == .mappedIfSafe && NSData.ReadingOptions.dataReadingMapped == .mappedIfSafe)
        #expect(NSData.ReadingOptions.uncachedRead == .uncached)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("attachment".utf8).write(to: file)
        #expect(try Data(contentsOf: file, options: .mappedRead) == Data("attachment".utf8))
    }

    @Test("an app group container is a directory under the host's, made on demand; a name that is not one gives nil")
    func appGroupContainer() throws {
        // The same directory as the compatibility harness gives this process, so the two never disagree.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-compatibility-\(Processes.current)")
        Processes.setEnvironment("OPENSHARING_APP_GROUP_CONTAINERS", to: root.path)
        let container = try #require(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.example.shim"))
        defer { try? FileManager.default.removeItem(at: container) }
        #expect(container.standardizedFileURL.path == root.appendingPathComponent("group.org.example.shim").standardizedFileURL.path)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: container.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        for name in ["", ".", "..", "group/../../etc", "a\0b"] {
            #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: name) == nil, "\(name)")
        }
    }
}
#endif
