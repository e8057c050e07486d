public import Foundation
public import HostProfiles
public import SharingShim

/// What came of showing an extension a host's share.
public struct ExtensionRun: Sendable {
    /// How the request ended, or `nil` if the extension never ended it in the time allowed.
    public var outcome: NSExtensionContext.Outcome?
    /// The URLs the extension asked the host to open, in order.
    public var openedURLs: [URL]
    /// Mistakes the extension made with its context (ending the request twice), as the system logs them.
    public var misuses: [String]

    /// The error of a cancelled request as Cocoa sees it.
    public var cancellation: NSError? {
        if case .cancelled(let error)? = outcome { return error as NSError }
        return nil
    }

    /// Whether the request was completed (returning any items).
    public var completed: Bool {
        if case .completed? = outcome { return true }
        return false
    }

    /// The query items of the one URL the extension opened, by name (several values of a name in order).
    public func openedQuery() -> [String: [String]] {
        guard openedURLs.count == 1, let items = URLComponents(url: openedURLs[0], resolvingAgainstBaseURL: false)?.queryItems
        else { return [:] }
        return Dictionary(grouping: items, by: \.name).mapValues { $0.compactMap(\.value) }
    }
}

/// Shows extension view controllers the shares of OpenSharing's host profiles (`Examples/shares`) as the
/// system would, twice: in this process (the items go into an extension context, `ExtensionPresenter` makes the
/// controller appear, and the run ends when the extension completes or cancels the request), and, on Linux, as
/// its own process — the extension's bundle, made by `swift package appex`, run by `ExtensionRuntime` on the
/// same share. The two must end alike (the same outcome, error and opened URLs): a host's behaviour in one
/// process is its behaviour across the boundary. The in-process run is returned.
@MainActor
public enum ExtensionHarness {
    /// The repository's `Examples` directory.
    nonisolated public static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    /// Where `swift package appex` put the extensions' bundles.
    nonisolated public static let bundles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/appex")

    /// How long a run waits for the extension to end its request: long, because the whole suite shares two
    /// cores with it, and a request that ends returns at once.
    static let timeLimit: Duration = .seconds(60)

    /// Shows `controller` the share a host profile makes (`Examples/shares/NAME.json`) and waits for the
    /// request to end. URLs the extension asks to open are granted.
    public static func present(_ controller: UIViewController, share name: String) async throws -> ExtensionRun {
        let shares = examples.appendingPathComponent("shares")
        let fixture = try ShareFixture.read(from: shares.appendingPathComponent("\(name).json"))
        return try await present(controller) { try fixture.makeItems(relativeTo: shares) }
    }

    /// Shows `controller` what the host profile `profile` sends for `content` (files, URLs or texts).
    public static func present(_ controller: UIViewController, profile: String, sharing content: SharedContent) async throws -> ExtensionRun {
        guard let host = HostProfile.named(profile) else { throw UnknownHostProfile(name: profile) }
        let fixture = try host.share(content)
        return try await present(controller) { try fixture.makeItems(relativeTo: URL(fileURLWithPath: "/")) }
    }

    /// Shows `controller` the items `makeItems` makes, in this process and as a process of its own, and
    /// checks that the two ended alike.
    private static func present(_ controller: UIViewController, makeItems: () throws -> [NSExtensionItem]) async throws -> ExtensionRun {
        let here = await present(controller, items: try makeItems())
        #if canImport(ExtensionRuntime)
        let module = String(reflecting: type(of: controller)).split(separator: ".").first.map(String.init) ?? ""
        let there = try await ProcessHarness.run(bundles.appendingPathComponent("\(module).appex"), items: try makeItems(),
                                                  appGroupContainers: appGroupContainers)
        try ProcessHarness.expectAlike(here, there, bundle: module)
        #endif
        return here
    }

    /// Shows `controller` these items and waits up to `timeLimit` for the request to end.
    public static func present(_ controller: UIViewController, items: [NSExtensionItem]) async -> ExtensionRun {
        assignAppGroupContainers()
        let context = NSExtensionContext(inputItems: items)
        let opened = OpenedURLs()
        context.openURLHandler = { url, reply in
            opened.append(url)
            reply(true)
        }
        ExtensionPresenter.present(controller, with: context, user: .post)
        // Polled rather than awaited: an extension that never ends its request must not hang the test.
        let deadline = ContinuousClock.now + timeLimit
        while context.outcome == nil && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // What the extension does in the moment after it ends the request (opening its app, typically)
        // still reaches the host, as it does before the system tears the extension down.
        try? await Task.sleep(for: .milliseconds(200))
        return ExtensionRun(outcome: context.outcome, openedURLs: opened.urls, misuses: context.misuses)
    }

    /// Where this process's app group containers are: one temporary directory per test process, assigned
    /// as a host assigns an extension's (`OPENSHARING_APP_GROUP_CONTAINERS`).
    public static let appGroupContainers = FileManager.default.temporaryDirectory
        .appendingPathComponent("opensharing-compatibility-\(ProcessInfo.processInfo.processIdentifier)")

    /// The container of app group `group` in this process, as the extension sees it.
    public static func appGroupDirectory(_ group: String) -> URL? {
        assignAppGroupContainers()
        return FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)
    }

    private static func assignAppGroupContainers() {
        setenv("OPENSHARING_APP_GROUP_CONTAINERS", appGroupContainers.path, 1)
    }
}

/// The URLs an extension asked to open, from whatever thread asked.
final class OpenedURLs: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [URL] = []

    func append(_ url: URL) { lock.withLock { list.append(url) } }
    var urls: [URL] { lock.withLock { list } }
}

/// A host profile name that `HostProfile.named(_:)` does not know.
public struct UnknownHostProfile: Error, CustomStringConvertible {
    public var name: String
    public var description: String { "no host profile named \(name)" }
}
