import ExtensionManifest
package import Foundation
import OpenCoreFoundation
public import OpenItemProvider
import OpenExtensionUI
import OpenIntents
public import OpenUserNotifications
import PackageSupport
import SharingSystem

/// The entry point of an extension's executable: there is no Objective-C runtime to find
/// `NSExtensionPrincipalClass` by name, so the program gives its principal class's initializer, and the
/// runtime checks that the bundle's Info.plist names that class.
///
/// ```swift
/// // main.swift of a share extension, beside its ShareViewController.swift
/// ExtensionProcess.run(ShareViewController.init)
/// ```
///
/// The runtime connects to the host (descriptor 3, given by the host), makes the context with the host's
/// items (their providers load from the host when asked), and creates the principal on the main thread. A view
/// controller (`UIViewController`, `SLComposeServiceViewController`) is presented as the system presents one —
/// the request begins on it, its view loads and appears — and the scripted user the host names acts on it;
/// any other principal gets `beginRequest(with:)`. Then the main queue runs. When the extension ends the
/// request, its outcome and returned items go to the host; the process ends once what the main queue held
/// then has run, the host has the outcome, and no work after completion (a completion handler, an expiring
/// activity) is still running — or when the host ends it. If the host goes away, the process ends.
public enum ExtensionProcess {
    /// Runs the extension whose principal `makePrincipal` creates, on the main actor. Never returns.
    public static func run<Principal: NSExtensionRequestHandling>(_ makePrincipal: @escaping @MainActor () -> Principal) -> Never {
        let (connection, first) = start(String(reflecting: Principal.self))
        guard case .request(let request) = first else {
            say("the host sent a notification to an extension that is not a notification service; ending")
            exit(ExtensionEndpoint.unreadableHostStatus)
        }
        let context = NSExtensionContext(inputItems: connection.inputItems(request))
        context.openURLHandler = { url, reply in connection.open(url, reply) }
        context.onEndedAgain = { call in connection.reportEndedAgain(by: call) }
        // The process ends when its host goes away before the request has ended; else once the request has
        // ended, what the main queue held then has run, the host has the outcome (and has measured the process),
        // no load is still on its way to the extension (iOS does not tear an extension down the instant it
        // completes: a load answered a moment later still reaches it), and no work after completion runs.
        // And no thread of its own is at work: a task resumed as the request ended (an upload begun after
        // `completeRequest`) reaches its lookup or connection, which the host sees, before the process ends —
        // as on a device, where it would have run until the system suspended it.
        let ending = Locked((requestEnded: false, drained: false, hostHasIt: false, hostGone: false, watching: false))
        @Sendable func endIfDone() {
            let done = ending.withLock { $0.requestEnded && $0.drained && ($0.hostHasIt || $0.hostGone) }
                && ProcessActivities.count == 0 && !connection.hasLoadsInFlight
            guard done, ending.withLock({ state in defer { state.watching = true }; return !state.watching }) else { return }
            // Once its threads are quiet (or the host, whose time after completion runs on, ends it).
            QuietWatch.shared.whenQuiet { waited in
                ending.withLock { $0.watching = false }
                guard !waited else { return endIfDone() }
                KeptPreferences.write()
                exit(0)
            }
        }
        ProcessActivities.observe { _ in endIfDone() }
        // Once the request has ended, what a load's handler queued on the main queue runs before the check
        // (before it, a load settling changes nothing, and costs no wake-up of the main thread).
        connection.onLoadSettled {
            if ending.withLock({ $0.requestEnded }) { DispatchQueue.main.async { endIfDone() } }
        }
        connection.startReading(ended: {
            ending.withLock { $0.hostHasIt = true }
            endIfDone()
        }, closed: {
            if ending.withLock({ state in state.hostGone = true; return !state.requestEnded }) {
                KeptPreferences.write()
                exit(0)
            }
            endIfDone()
        })
        Task.detached {
            let outcome = await context.requestEnded()
            ending.withLock { $0.requestEnded = true }
            KeptPreferences.write()
            // The returned items load through callbacks; nothing here waits on a thread.
            connection.send(outcome) {
                // What the extension queued on the main queue before it ended the request still runs.
                DispatchQueue.main.async {
                    ending.withLock { $0.drained = true }
                    endIfDone()
                }
            }
        }
        let user = ProcessInfo.processInfo.environment["OPENSHARING_USER"].flatMap(ExtensionUser.init(rawValue:)) ?? .post
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                let principal = makePrincipal()
                // The system holds the principal (a view controller is in its window) as long as the extension runs.
                HeldPrincipal.kept = principal
                if let controller = principal as? UIViewController {
                    ExtensionPresenter.alertObserver = { connection.report($0) }
                    ExtensionPresenter.tapObserver = { connection.reportTap($0) }
                    ExtensionPresenter.stuckObserver = { connection.reportStuck($0) }
                    ExtensionPresenter.process = ExtensionPresenter.ProcessProbe(whenQuiet: QuietWatch.shared.whenQuiet,
                                                                                 holdsConnection: ProcessActivity.holdsNetworkStream)
                    ExtensionPresenter.present(controller, with: context, user: user)
                } else {
                    principal.beginRequest(with: context)
                }
            }
        }
        runMainThread()
    }

    /// Runs the notification service extension `makeService` creates (once, on the main thread, when the first
    /// notification comes). Never returns.
    ///
    /// ```swift
    /// // main.swift of a notification service extension, beside its NotificationService.swift
    /// ExtensionProcess.run(NotificationService.init)
    /// ```
    ///
    /// Each notification the host sends becomes a `UNNotificationRequest` (its trigger a push trigger) that
    /// `didReceive(_:withContentHandler:)` gets on the main thread; each call of the handler goes to the host,
    /// which counts the first. When the host says the time runs out, `serviceExtensionTimeWillExpire()` is
    /// called on a thread of its own. The notification center the service sees is the host's. The process ends
    /// when the host has no more notifications for it, or goes away.
    public static func run<Service: UNNotificationServiceExtension>(_ makeService: @escaping () -> Service) -> Never {
        // Called on the main thread only.
        nonisolated(unsafe) let makeService = makeService
        let (connection, first) = start(String(reflecting: Service.self))
        guard case .notification(let index, let identifier, let content) = first else {
            say("the host sent a share request to a notification service; ending")
            exit(ExtensionEndpoint.unreadableHostStatus)
        }
        NotificationCenterStore.current = HostNotificationCenter(connection: connection)
        @Sendable func receive(_ index: UInt32, _ identifier: String, _ content: WireContent) {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    let service = heldService.withLock { held in
                        if held == nil { held = makeService() }
                        return held!
                    }
                    let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(fields: NotificationMirror.fields(content)),
                                                        trigger: UNPushNotificationTrigger())
                    service.didReceive(request) { content in connection.deliver(index, content) }
                }
            }
        }
        connection.serveNotifications(receive, expiring: {
            // On a thread of its own, as Apple documents: the main thread may be the one that is stuck.
            nonisolated(unsafe) let service = heldService.withLock { $0 }
            Thread.detachNewThread { service?.serviceExtensionTimeWillExpire() }
        })
        connection.startReading(ended: {
            KeptPreferences.write()
            exit(0)
        }, closed: {
            KeptPreferences.write()
            exit(0)
        })
        receive(index, identifier, content)
        runMainThread()
    }

    /// Serves the main queue on the main thread, as an app's run loop does: `Thread.isMainThread` is true in
    /// what the main queue runs (`dispatchMain()` would hand the queue to another thread on Linux).
    private static func runMainThread() -> Never {
        RunLoop.main.run()
        dispatchMain()
    }

    /// Checks the Info.plist's principal against `named`, the type the program runs; connects to the host, and
    /// waits for its first message.
    private static func start(_ named: String) -> (ExtensionEndpoint, RuntimeMessage) {
        // Every line the extension prints reaches its log as it is printed, even if it is killed a moment later.
        Processes.lineBufferStandardOutput()
        switch declaredPrincipal() {
        case .principal(let declared) where Self.names(declared, named):
            break
        case .storyboard:
            // The program's principal runs; `sharing bundle` said so when it made the bundle. The log stays the
            // extension's own words, its last ones not pushed aside by a note at every start.
            break
        case let declared:
            fail("the Info.plist beside \(CommandLine.arguments.first ?? "the executable") names NSExtensionPrincipalClass "
                 + "\(declared.principal.map { "\"\($0)\"" } ?? "nowhere"), but the program runs \(named)")
        }
        do {
            let connection = try ExtensionEndpoint.connect()
            // What the extension posts to the Darwin notify center from now on reaches the host's report.
            CFNotificationCenter.darwinPosts = { connection.reportPosted($0) }
            // And what it donates to the system (a communication notification's interaction).
            INInteraction.donations = { connection.reportDonated($0) }
            endpoint.withLock { $0 = connection }
            return (connection, try connection.awaitRequest())
        } catch let violation as ProtocolViolation {
            say("cannot start the request: \(violation.message)")
            exit(ExtensionEndpoint.unreadableHostStatus)
        } catch {
            fail("cannot start the request: \(error)")
        }
    }

    /// This process's connection to its host, once it has one.
    private static let endpoint = Locked<ExtensionEndpoint?>(nil)

    /// Hands an upload of a background session (`URLSessionConfiguration.background(withIdentifier:)`) to the
    /// host, which carries it to its end whether or not this process lives that long, as iOS carries an
    /// extension's background transfers: its session, method, URL and header fields, and the file at `body`,
    /// opened here for the host to read. `ended` gets the server's HTTP status, or the error that ended it, if the
    /// host says so while this process lives. `nil` once the host has it; else the error that fails the task: the
    /// file cannot be read, or this process is not an extension run by a host (or the host has gone).
    package static func handOff(_ transfer: WireTransfer, body: URL, ended: @escaping @Sendable (Int32, RemoteError?) -> Void) -> RemoteError? {
        let file: OpenFile
        do {
            file = try OpenFile.reading(body)
        } catch {
            return RemoteError(domain: NSURLErrorDomain, code: Int64(NSURLErrorFileDoesNotExist), message: "cannot read the upload's file: \(error)")
        }
        guard endpoint.withLock({ $0 })?.handOff(transfer, body: file, ended: ended) == true else {
            return RemoteError(domain: NSURLErrorDomain, code: Int64(NSURLErrorNotConnectedToInternet), message: "no host to carry the background transfer")
        }
        return nil
    }

    /// The notification service, made once (on the main thread) and reused for every notification, as iOS
    /// reuses it; the expiry reaches it from another thread.
    private static let heldService = Locked<UNNotificationServiceExtension?>(nil)

    /// The principal, held for the life of the process.
    @MainActor
    private enum HeldPrincipal {
        static var kept: AnyObject?
    }

    /// What the bundle's Info.plist says the principal is (`NSExtension.NSExtensionPrincipalClass`), or the
    /// storyboard that stands for it (`NSExtensionMainStoryboard`, Xcode's default for share extensions).
    private static func declaredPrincipal() -> DeclaredPrincipal {
        let plist = Bundle.main.bundleURL.appendingPathComponent("Info.plist")
        let manifest = try? ExtensionManifest.read(contentsOf: plist)
        if let principal = manifest?.principalClass { return .principal(principal) }
        if manifest?.mainStoryboard != nil { return .storyboard }
        return .none
    }

    private enum DeclaredPrincipal {
        case principal(String), storyboard, none

        var principal: String? {
            if case .principal(let name) = self { name } else { nil }
        }
    }

    /// Whether an Info.plist's principal class names the Swift type `named` ("Module.Type"): as written, or as
    /// Xcode's template spells it (`$(PRODUCT_MODULE_NAME).Type`), or unqualified.
    static func names(_ declared: String, _ named: String) -> Bool {
        let typeName = named.split(separator: ".").last.map(String.init) ?? named
        return declared == named || declared == typeName || declared == "$(PRODUCT_MODULE_NAME).\(typeName)"
    }

    /// Writes a line to standard error, which the host keeps in the run's log.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("extension: \(message)\n".utf8))
    }

    /// Says why, and ends the process with `EX_CONFIG` (78), which the host reports with the log's last lines.
    static func fail(_ message: String) -> Never {
        say(message)
        exit(78)
    }
}
