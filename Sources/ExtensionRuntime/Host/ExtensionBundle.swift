public import ExtensionManifest
public import Foundation
import SharingSystem

/// An extension as installed: a directory `Name.appex` holding its `Info.plist` and its executable, as in an
/// app's `PlugIns` directory.
public struct ExtensionBundle: Sendable {
    /// The bundle directory.
    public let url: URL
    /// The Info.plist.
    public let manifest: ExtensionManifest
    /// `CFBundleIdentifier`.
    public let bundleIdentifier: String
    /// The program `CFBundleExecutable` names, inside the bundle.
    public let executable: URL
    /// `NSExtensionPointIdentifier`.
    public let extensionPointIdentifier: String
    /// The clauses of the extension's own sources that iOS compiles and this build left out, as the Appex
    /// plugin found them (`LeftOutCode.json`); nil for a bundle made without that look at its sources.
    public let leftOut: [LeftOutBlock]?
    /// The app groups it is entitled to (`com.apple.security.application-groups` in the entitlements the Appex
    /// plugin put in the bundle), whose containers the host makes before it starts; empty without entitlements.
    public let applicationGroups: [String]

    /// The bundle's name: its directory's, less `.appex`.
    public var name: String { url.deletingPathExtension().lastPathComponent }

    /// Opens a bundle directory and checks what the runtime needs from it: an Info.plist with
    /// `CFBundleIdentifier`, `CFBundleExecutable` naming an executable file in the bundle, and `NSExtension`
    /// with its point identifier.
    ///
    /// - Throws: `ExtensionRuntimeError` naming the bundle and what is wrong.
    public init(url: URL) throws(ExtensionRuntimeError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ExtensionRuntimeError(.noSuchBundle, bundle: path, "no such bundle")
        }
        guard isDirectory.boolValue else { throw ExtensionRuntimeError(.notABundle, bundle: path, "not a directory (an extension is a Name.appex directory)") }
        let plist = url.appendingPathComponent("Info.plist")
        guard FileManager.default.fileExists(atPath: plist.path) else { throw ExtensionRuntimeError(.unreadableInfoPlist, bundle: path, "no Info.plist") }
        let manifest: ExtensionManifest
        do {
            manifest = try ExtensionManifest.read(contentsOf: plist)
        } catch {
            throw ExtensionRuntimeError(.unreadableInfoPlist, bundle: path, "Info.plist: \(error.message)", underlying: error)
        }
        guard let identifier = manifest.bundleIdentifier, !identifier.isEmpty else {
            throw ExtensionRuntimeError(.missingKey, bundle: path, "Info.plist has no CFBundleIdentifier")
        }
        guard let executableName = manifest.executableName, !executableName.isEmpty else {
            throw ExtensionRuntimeError(.missingKey, bundle: path, "Info.plist has no CFBundleExecutable")
        }
        guard !executableName.contains("/"), executableName != ".", executableName != ".." else {
            throw ExtensionRuntimeError(.notExecutable, bundle: path, "CFBundleExecutable \"\(executableName)\" is not a file name in the bundle")
        }
        let executable = url.appendingPathComponent(executableName)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ExtensionRuntimeError(.notExecutable, bundle: path, "CFBundleExecutable \"\(executableName)\" is not an executable file in the bundle")
        }
        guard let point = manifest.extensionPointIdentifier, !point.isEmpty else {
            throw ExtensionRuntimeError(.missingKey, bundle: path, "Info.plist has no NSExtension dictionary with NSExtensionPointIdentifier")
        }
        do {
            leftOut = try Self.fileIfPresent(LeftOutBlock.fileName, in: url, limit: 4 << 20).map(LeftOutBlock.list(from:))
        } catch let error as SystemError {
            throw ExtensionRuntimeError(.unreadableLeftOutList, bundle: path, "\(LeftOutBlock.fileName): cannot be read: \(error)")
        } catch {
            throw ExtensionRuntimeError(.unreadableLeftOutList, bundle: path, "\(LeftOutBlock.fileName): \(error)")
        }
        do {
            applicationGroups = try Self.fileIfPresent(Entitlements.fileName, in: url, limit: 1 << 20).map(Entitlements.applicationGroups(from:)) ?? []
        } catch let error as SystemError {
            throw ExtensionRuntimeError(.unreadableEntitlements, bundle: path, "\(Entitlements.fileName): cannot be read: \(error)")
        } catch {
            throw ExtensionRuntimeError(.unreadableEntitlements, bundle: path, "\(Entitlements.fileName): \(error)")
        }
        self.url = url
        self.manifest = manifest
        self.bundleIdentifier = identifier
        self.executable = executable
        self.extensionPointIdentifier = point
    }

    /// The bytes of the file `name` a bundle may carry (at most `limit` of them), never through a link; `nil` when
    /// the bundle carries none.
    private static func fileIfPresent(_ name: String, in bundle: URL, limit: Int) throws(SystemError) -> Data? {
        let url = bundle.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try OpenFile.reading(url, followingLinks: false).readAll(limit: limit)
    }

    /// Every `.appex` bundle directly inside `directories`, in order of directory then name.
    ///
    /// - Throws: `ExtensionRuntimeError` for a directory that cannot be listed or a bundle that does not open:
    ///   a broken bundle is reported, never skipped.
    public static func discover(in directories: [URL]) throws(ExtensionRuntimeError) -> [ExtensionBundle] {
        var bundles: [ExtensionBundle] = []
        for directory in directories {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            } catch {
                throw ExtensionRuntimeError(.unreadableDirectory, bundle: directory.path, "cannot list the directory: \((error as NSError).localizedDescription)")
            }
            for name in names.sorted() where name.hasSuffix(".appex") {
                bundles.append(try ExtensionBundle(url: directory.appendingPathComponent(name, isDirectory: true)))
            }
        }
        return bundles
    }
}
