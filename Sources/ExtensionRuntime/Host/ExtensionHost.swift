public import Foundation
public import OpenExtensionUI
public import OpenItemProvider
import OpenUserNotifications
import SharingSystem

/// Runs extensions as their own processes, one request each, under limits, and reports exactly one outcome
/// per request, whatever the extension does.
///
/// Each run gets a process tree the host owns whole (a PID namespace of its own where the kernel allows it), a
/// container directory of its own (its HOME and TMPDIR), a clean environment, no capabilities, and only the
/// descriptors the runtime passes; when the run ends, every process of the tree has ended and the container is
/// removed with everything in it. The extension's loads are the same calls on `items`' providers, made as it
/// asks: files cross as descriptors, data inline or in a sealed memory file, never copied through the socket.
public struct ExtensionHost: Sendable {
    /// The limits; when `nil`, the extension point's on `device` (`ExtensionLimits.defaults(forExtensionPoint:device:)`).
    public var limits: ExtensionLimits?
    /// The device the host plays: its screen's scale and size reach the extension (`UIScreen`), its limits
    /// apply unless `limits` are given, and its baseline is charged against the memory limit in every case;
    /// `DeviceClass.default` unless another is named, `nil` for none (each point's own limits).
    public var device: DeviceClass?
    /// The person using the extension: what they do with a compose sheet and with alerts.
    public var user: ExtensionUser
    /// The directory of app group containers the extension is given (`OPENSHARING_APP_GROUP_CONTAINERS`).
    public var appGroupContainers: URL?
    /// What the host does when the extension asks it to open a URL; `nil` refuses every URL. Called on the
    /// supervisor's thread: it must answer at once.
    public var openURL: (@Sendable (URL) -> Bool)?
    /// A delegated, writable cgroup v2 directory, if the host was given one: each extension then runs in a
    /// child cgroup of it whose `memory.max` enforces the memory limit (see `docs/runtime.md`).
    public var cgroup: URL?
    /// How the host misbehaves when the extension loads (none by default).
    public var faults: HostFaults
    /// What carries the uploads the extension's background sessions hand over, to their end, after its process
    /// has ended if need be (`ExtensionRun.backgroundTransfers`); `nil`: each fails, as with no network.
    public var backgroundUploader: BackgroundUploader?
    /// Whether the tree may have a PID namespace of its own; the tests turn it off to show the fallback.
    var allowsPIDNamespace = true

    public init(limits: ExtensionLimits? = nil, device: DeviceClass? = .default, user: ExtensionUser = .post, appGroupContainers: URL? = nil,
                cgroup: URL? = nil, openURL: (@Sendable (URL) -> Bool)? = nil, faults: HostFaults = HostFaults()) {
        self.limits = limits
        self.faults = faults
        self.device = device
        self.user = user
        self.appGroupContainers = appGroupContainers
        self.cgroup = cgroup
        self.openURL = openURL
    }

    /// Starts `bundle`'s extension with a request about `items` and waits for the request's one outcome.
    ///
    /// - Throws: `ExtensionRuntimeError` when the extension cannot be started at all (no container, no
    ///   process, a request too large); everything that happens once it runs is in the outcome.
    public func run(_ bundle: ExtensionBundle, items: [NSExtensionItem]) async throws(ExtensionRuntimeError) -> ExtensionRun {
        let (limits, environment, baseline) = setting(for: bundle)
        // Starting the process and watching it block: never on Swift concurrency's few threads, which other
        // tasks (the host's own) need meanwhile.
        let transfers = try carrier()
        var run = try await BlockingThreads.run { [self, environment] () throws(ExtensionRuntimeError) -> ExtensionRun in
            let supervisor = try Supervisor(bundle: bundle, work: .share(items), user: user, limits: limits, baseline: baseline, environment: environment,
                                            appGroupContainers: appGroupContainers, cgroup: cgroup, pidNamespace: allowsPIDNamespace, openURL: openURL,
                                            transfers: transfers, faults: faults)
            return supervisor.supervise()
        }
        run.backgroundTransfers = await transfers.finish()
        return run
    }

    /// A carrier of one process's background transfers, with this host's uploader.
    private func carrier() throws(ExtensionRuntimeError) -> TransferCarrier {
        do {
            return try TransferCarrier(uploader: backgroundUploader)
        } catch {
            throw ExtensionRuntimeError(.spawnFailed, bundle: "", "cannot carry background transfers", underlying: error)
        }
    }

    /// Delivers each payload's notification, in order, through `bundle`'s notification service extension, as
    /// iOS would: a payload that does not ask for the extension is shown as it is; the others go to one
    /// process in turn, each under the request's time limit, with `serviceExtensionTimeWillExpire()` called on
    /// another thread when it runs out and the process ended a moment later; after a kill or a crash, the next
    /// goes to a new process. Attachments move into `dataStore`. Empty content suppresses the notification
    /// when `allowsFiltering` (the filtering entitlement), and is otherwise ignored for the original.
    ///
    /// - Throws: `ExtensionRuntimeError` when a process cannot be started at all.
    public func deliver(_ payloads: [PushPayload], to bundle: ExtensionBundle, dataStore: URL,
                        allowsFiltering: Bool = false) async throws(ExtensionRuntimeError) -> NotificationRuns {
        let (limits, environment, baseline) = setting(for: bundle)
        let desk = NotificationDesk(payloads: payloads, dataStore: dataStore, allowsFiltering: allowsFiltering, diskLimit: limits.disk)
        var processes: [ExtensionRun] = []
        while desk.needsProcess {
            let transfers = try carrier()
            var run = try await BlockingThreads.run { [self] () throws(ExtensionRuntimeError) -> ExtensionRun in
                desk.beginProcess()
                let supervisor = try Supervisor(bundle: bundle, work: .notifications(desk), limits: limits, baseline: baseline, environment: environment,
                                                appGroupContainers: appGroupContainers, cgroup: cgroup, pidNamespace: allowsPIDNamespace, openURL: openURL,
                                                transfers: transfers)
                let run = supervisor.supervise()
                desk.interrupted(run)
                return run
            }
            run.backgroundTransfers = await transfers.finish()
            processes.append(run)
        }
        return NotificationRuns(deliveries: desk.results, processes: processes)
    }

    /// The limits, environment and baseline a run of `bundle` gets.
    private func setting(for bundle: ExtensionBundle) -> (ExtensionLimits, [String: String], Int) {
        let limits = limits ?? .defaults(forExtensionPoint: bundle.extensionPointIdentifier, device: device)
        var environment = ["OPENSHARING_USER": user.rawValue]
        if let device {
            environment["OPENSHARING_SCREEN_SCALE"] = String(device.screenScale)
            environment["OPENSHARING_SCREEN_POINTS"] = "\(device.screenWidth)x\(device.screenHeight)"
            environment["OPENSHARING_SYSTEM_VERSION"] = device.systemVersion
        }
        return (limits, environment, device?.baseline(forExtensionPoint: bundle.extensionPointIdentifier) ?? 0)
    }
}
