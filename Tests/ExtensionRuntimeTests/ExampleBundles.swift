import ExtensionRuntime
import Foundation
import HostProfiles
import OpenItemProvider

/// Bundles of the example extensions made for a test: `Name.appex` in a temporary directory, holding the
/// example's Info.plist, its resources and a copy of its executable from this build (a copy, not a link: Foundation finds
/// `Bundle.main`'s Info.plist beside the executable's real path).
enum ExampleBundles {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where this build put the executables: beside the test runner.
    static let products = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()

    /// A fresh directory for one test's bundles, removed by the caller.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("extension-bundles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Makes `Name.appex` in `directory` from the example `example`, its Info.plist optionally edited.
    @discardableResult
    static func make(_ example: String, in directory: URL, named name: String? = nil,
                     editing edit: (inout [String: Any]) -> Void = { _ in }) throws -> URL {
        let bundle = directory.appendingPathComponent("\(name ?? example).appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let source = repository.appendingPathComponent("Examples/Extensions/\(example)/Info.plist")
        var plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: source), format: nil) as! [String: Any]
        edit(&plist)
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: bundle.appendingPathComponent("Info.plist"))
        let executable = bundle.appendingPathComponent(plist["CFBundleExecutable"] as? String ?? example)
        try FileManager.default.copyItem(at: products.appendingPathComponent(example), to: executable)
        let sources = repository.appendingPathComponent("Examples/Extensions/\(example)")
        // Its resources, as `swift package appex` copies them: the files beside its sources that are neither; its
        // entitlements as the plugin puts them in the bundle.
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !file.hasSuffix(".swift") && file != "Info.plist" {
            let name = file.hasSuffix(".entitlements") ? "archived-expanded-entitlements.xcent" : file
            try FileManager.default.copyItem(at: sources.appendingPathComponent(file), to: bundle.appendingPathComponent(name))
        }
        return bundle
    }

    /// An executable script as an extension: a bundle whose program is `script` (with its #! line), its
    /// Info.plist `example`'s (a share extension's, or `NotificationProber` for a notification service).
    @discardableResult
    static func script(_ script: String, in directory: URL, named name: String, as example: String = "NeverCompletes") throws -> URL {
        try make(example, in: directory, named: name) { $0["CFBundleExecutable"] = name }
        let bundle = directory.appendingPathComponent("\(name).appex")
        let program = bundle.appendingPathComponent(name)
        try FileManager.default.removeItem(at: program)
        try script.write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        return bundle
    }

    /// The items a host profile's share fixture (`Examples/shares/NAME.json`) makes.
    static func share(_ name: String) throws -> [NSExtensionItem] {
        let shares = repository.appendingPathComponent("Examples/shares")
        return try ShareFixture.read(from: shares.appendingPathComponent("\(name).json")).makeItems(relativeTo: shares)
    }

    /// Items with one text attachment, as Notes shares it.
    static func text(_ text: String) throws -> [NSExtensionItem] {
        guard let host = HostProfile.named("notes") else { return [] }
        return try host.share(SharedContent(texts: [text])).makeItems(relativeTo: URL(fileURLWithPath: "/"))
    }
}
