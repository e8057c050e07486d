#if canImport(ExtensionRuntime)
import ExtensionRuntime
import Foundation
import SharingShim

/// An extension run as its own process, as `sharing run` runs it, and the check that it ended as it did in
/// the test's process.
enum ProcessHarness {
    /// Runs the bundle at `url` on `items`, the scripted user posting, opened URLs granted and recorded.
    static func run(_ url: URL, items: [NSExtensionItem], appGroupContainers: URL) async throws -> ExtensionRuntime.ExtensionRun {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MissingBundle(path: url.path)
        }
        let host = ExtensionHost(appGroupContainers: appGroupContainers, openURL: { _ in true })
        return try await host.run(ExtensionBundle(url: url), items: items)
    }

    /// Whether the process ended as the in-process run did: the same outcome (for a cancellation, the same
    /// domain and code), and the same URLs opened — their queries' names, not their values, which may name
    /// files each run makes.
    static func expectAlike(_ here: ExtensionRun, _ there: ExtensionRuntime.ExtensionRun, bundle: String) throws {
        let hereOutcome: String
        switch here.outcome {
        case .completed?: hereOutcome = "completed"
        case .cancelled(let error)?: hereOutcome = "cancelled \((error as NSError).domain) \((error as NSError).code)"
        case nil: hereOutcome = "not ended"
        }
        let thereOutcome: String
        switch there.outcome {
        case .completed: thereOutcome = "completed"
        case .cancelled(let error): thereOutcome = "cancelled \(error.domain) \(error.code)"
        case .interrupted(let reason): thereOutcome = "interrupted: \(reason)"
        }
        // The URLs in any order: loads an extension starts together answer in any order, here as on a device.
        func shape(_ url: URL) -> String {
            guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
            parts.queryItems = parts.queryItems?.map { URLQueryItem(name: $0.name, value: nil) }
            return parts.string ?? url.absoluteString
        }
        guard hereOutcome == thereOutcome, here.openedURLs.map(shape).sorted() == there.openedURLs.map(shape).sorted() else {
            throw Unalike(bundle: bundle, here: "\(hereOutcome), opened \(here.openedURLs)",
                          there: "\(thereOutcome), opened \(there.openedURLs); its log: \(there.lastWords().joined(separator: " | "))")
        }
    }
}

/// A bundle `swift package appex` has not made.
struct MissingBundle: Error, CustomStringConvertible {
    var path: String
    var description: String {
        "\(path) is missing: make the extensions' bundles first (swift package --allow-writing-to-package-directory appex --product NAME …; make test does)"
    }
}

/// An extension that ended one way in the test's process and another as a process of its own.
struct Unalike: Error, CustomStringConvertible {
    var bundle: String, here: String, there: String
    var description: String { "\(bundle) ended otherwise as a process: in this process \(here); as a process \(there)" }
}
#endif
