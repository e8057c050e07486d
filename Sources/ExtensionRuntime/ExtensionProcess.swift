import ExtensionManifest
public import Foundation
public import OpenItemProvider
import PackageSupport
import SharingSystem

/// The entry point of an extension's executable: there is no Objective-C runtime to find
/// `NSExtensionPrincipalClass` by name, so the program gives its principal class's initializer, and the
/// runtime checks that the bundle's Info.plist names that class.
///
/// ```swift
/// // main.swift of the Uppercase extension
/// ExtensionProcess.run(UppercaseRequestHandler.init)
/// ```
///
/// The runtime connects to the host (descriptor 3, given by the host), makes the context with the host's
/// items (their providers load from the host when asked), creates the principal and calls
/// `beginRequest(with:)` on the main thread, and runs the main queue. When the extension ends the request,
/// its outcome and returned items go to the host, and the process exits once the main queue has run what
/// was queued before. If the host goes away, the process ends.
public enum ExtensionProcess {
    /// Runs the extension whose principal `makePrincipal` creates. Never returns.
    public static func run<Principal: NSObject & NSExtensionRequestHandling>(_ makePrincipal: @escaping @Sendable () -> Principal) -> Never {
        let named = String(reflecting: Principal.self)
        let declared = declaredPrincipal()
        guard let declared, Self.names(declared, named) else {
            fail("the Info.plist beside \(CommandLine.arguments.first ?? "the executable") names NSExtensionPrincipalClass "
                 + "\(declared.map { "\"\($0)\"" } ?? "nowhere"), but the program runs \(named)")
        }
        let connection: HostConnection
        let request: [WireItem]
        do {
            connection = try HostConnection.connect()
            request = try connection.awaitRequest()
        } catch let violation as ProtocolViolation {
            say("cannot start the request: \(violation.message)")
            exit(HostConnection.unreadableHostStatus)
        } catch {
            fail("cannot start the request: \(error)")
        }
        let context = NSExtensionContext(inputItems: connection.inputItems(request))
        context.openURLHandler = { url, reply in connection.open(url, reply) }
        // The process ends when its host goes away before the request has ended; else once the request has
        // ended, what the main queue held then has run, and the host, having read the outcome (and measured the
        // process), has closed the connection.
        let ending = Locked((requestEnded: false, drained: false, hostGone: false))
        connection.startReading {
            if ending.withLock({ state in state.hostGone = true; return !state.requestEnded || state.drained }) { exit(0) }
        }
        Task.detached {
            let outcome = await context.requestEnded()
            ending.withLock { $0.requestEnded = true }
            // The returned items load through callbacks; nothing here waits on a thread.
            connection.send(outcome) {
                // What the extension queued on the main queue before it ended the request still runs.
                DispatchQueue.main.async {
                    if ending.withLock({ state in state.drained = true; return state.hostGone }) { exit(0) }
                }
            }
        }
        DispatchQueue.main.async {
            makePrincipal().beginRequest(with: context)
        }
        dispatchMain()
    }

    /// The principal class the bundle's Info.plist names (`NSExtension.NSExtensionPrincipalClass`).
    private static func declaredPrincipal() -> String? {
        let plist = Bundle.main.bundleURL.appendingPathComponent("Info.plist")
        return (try? ExtensionManifest.read(contentsOf: plist))?.principalClass
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
