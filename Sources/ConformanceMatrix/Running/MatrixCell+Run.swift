public import ExtensionManifest
public import ExtensionRuntime
public import Foundation
import HostProfiles
public import OpenItemProvider
import SharingSystem

extension MatrixCell {
    /// Runs a share or action extension's cell with this process as its host, the extension as its own
    /// process: the limits (an explicit one wins over the device's, which wins over the point's; a fault's
    /// last), then the activation rule, as the system evaluates it — a share the extension would not be
    /// offered is reported `not-activated` and not started unless `ignoresActivation` — then the run, and
    /// its report. A `host-killed` fault is the caller's to play (it kills the caller); `sharing run` does.
    ///
    /// - Parameter cgroup: a delegated, writable cgroup v2 directory, whose child cgroup's `memory.max` then
    ///   enforces the memory limit.
    /// - Throws: `CellError` when the cell cannot run: its fields disagree, the bundle or the share is bad, the
    ///   activation rule does not parse, the extension cannot be started.
    public func runShare(cgroup: URL? = nil) async throws(CellError) -> RunReport {
        try validate()
        guard kind == .share else { throw CellError(.invalidCell, field: "payloads", "a notification service's cell: run it with runNotifications()") }
        let bundle = try openBundle()
        guard bundle.extensionPointIdentifier != DeviceClass.notificationService else {
            throw CellError(.badBundle, field: "bundle", "\(self.bundle) is a notification service: it is given push payloads, not a share; "
                            + "run it with sharing notify \(self.bundle) --payload FILE")
        }
        let items = try shareItems()
        let attachments = items.reduce(0) { $0 + ($1.attachments?.count ?? 0) }
        let limits = limits(for: bundle)
        let activation: ActivationResult?
        do {
            activation = try bundle.activation(for: items)
        } catch {
            throw CellError(.badActivationRule, field: "bundle", "\(self.bundle): NSExtensionActivationRule does not parse: \(error)")
        }
        if let activation, !activation.matches && !ignoresActivation {
            return RunReport(notActivated: self, bundle: bundle, attachments: attachments, reasons: activation.reasons, limit: limits.memory)
        }
        let (groups, scratch) = try appGroups()
        defer { scratch?.remove() }
        var hostFaults = HostFaults()
        var unused = limits
        for fault in faults { fault.apply(to: &unused, &hostFaults) }
        var host = ExtensionHost(limits: limits, device: device, user: user, appGroupContainers: groups, cgroup: cgroup,
                                 openURL: { _ in true }, faults: hostFaults)
        host.backgroundUploader = BackgroundUploads.carry
        let run: ExtensionRun
        do {
            run = try await host.run(bundle, items: items)
        } catch {
            throw CellError(.cannotStart, field: "bundle", "\(error)")
        }
        return await RunReport(run, cell: self, bundle: bundle, attachments: attachments, limit: limits.memory)
    }

    /// Runs a notification service's cell with this process as its host: each payload, read as Apple's push
    /// service reads it, delivered in order to one extension process as iOS reuses it (a new one after a kill
    /// or a crash), each notification as shown, its attachments moved into the data store.
    ///
    /// - Throws: `CellError` when the cell cannot run: a bundle that is no notification service, a payload
    ///   Apple's push service would refuse, a data store that cannot be made, an extension that cannot start.
    public func runNotifications(cgroup: URL? = nil) async throws(CellError) -> NotificationRunReport {
        try validate()
        guard kind == .notifications else { throw CellError(.invalidCell, field: "payloads", "a share's cell: run it with runShare()") }
        let bundle = try openBundle()
        guard bundle.extensionPointIdentifier == DeviceClass.notificationService else {
            throw CellError(.badBundle, field: "bundle", "\(self.bundle) is a \(bundle.extensionPointIdentifier) extension, not a notification service (\(DeviceClass.notificationService))")
        }
        let pushes = try payloads.map { path throws(CellError) in try Self.readPayload(path) }
        for push in pushes {
            if let refusal = Self.misdirected(push, to: bundle) { throw CellError(.badPayload, field: "--payload", refusal) }
        }
        let store = try directory(dataStore, field: "dataStore")
            ?? FileManager.default.temporaryDirectory.appending(component: "opensharing-data-store-\(UUID().uuidString)")
        let (groups, scratch) = try appGroups()
        defer { scratch?.remove() }
        let limits = limits(for: bundle)
        var host = ExtensionHost(limits: limits, device: device, appGroupContainers: groups, cgroup: cgroup)
        host.backgroundUploader = BackgroundUploads.carry
        let runs: NotificationRuns
        do {
            runs = try await host.deliver(pushes, to: bundle, dataStore: store, allowsFiltering: allowsFiltering)
        } catch {
            throw CellError(.cannotStart, field: "bundle", "\(error)")
        }
        return NotificationRunReport(cell: self, runs: runs, dataStore: store, limit: limits.memory)
    }

    /// A payload file read as Apple's push service reads it.
    ///
    /// - Throws: `CellError` (`.badPayload`) naming the file and what is wrong.
    static func readPayload(_ path: String) throws(CellError) -> PushPayload {
        let data: Data
        do {
            data = try OpenFile.reading(URL(fileURLWithPath: path)).readAll(limit: 1 << 20)
        } catch {
            throw CellError(.badPayload, field: "--payload", "\(path): cannot read it: \(error)")
        }
        do {
            return try PushPayload(json: data, name: path)
        } catch {
            throw CellError(.badPayload, field: "--payload", "\(error)")
        }
    }

    /// Why a simulator push file names another app than the one `bundle` extends, if it does.
    static func misdirected(_ push: PushPayload, to bundle: ExtensionBundle) -> String? {
        guard !push.isFor(extensionIdentifier: bundle.bundleIdentifier), let app = push.simulatorTargetBundle else { return nil }
        return "\(push.name): its Simulator Target Bundle is \(app), and \(bundle.name) (\(bundle.bundleIdentifier)) extends no such app: the simulator "
            + "would deliver it to \(app), never to this extension; name the extension's app there, or leave the key out"
    }

    /// The bundle, opened and checked.
    func openBundle() throws(CellError) -> ExtensionBundle {
        do {
            return try ExtensionBundle(url: URL(fileURLWithPath: bundle, isDirectory: true))
        } catch {
            throw CellError(.badBundle, field: "bundle", "\(error)")
        }
    }

    /// The share's items, as the host makes them, with a large share's files added.
    func shareItems() throws(CellError) -> [NSExtensionItem] {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var content = SharedContent(files: self.content.files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
                                    urls: self.content.urls.compactMap(URL.init(string:)), texts: self.content.texts, title: self.content.title)
        for case .largeShare(let kind) in faults {
            do {
                content.files += try DefaultShare.writeLarge(kind)
            } catch {
                throw CellError(.badShare, field: "faults", "large-share(kind=\(kind.rawValue)): \(error)")
            }
        }
        let source: ShareSource = if let fixture { .fixture(URL(fileURLWithPath: fixture, relativeTo: cwd)) }
            else if let host { .host(host, content) } else { .plain(content) }
        do {
            return try source.items(relativeTo: cwd).items
        } catch let error as ShareFixtureError where (error.code == .notShared || error.code == .noSuchFile) && fixture == nil {
            throw CellError(.badShare, field: "--file", error.message)
        } catch let error as HostProfileError {
            let option = switch error.missing {
            case .file: "--file PATH"
            case .url: "--url URL"
            case .text: "--text TEXT"
            }
            throw CellError(.badShare, field: "host", "\(error.profile) \(error.message.replacingOccurrences(of: " and was given none", with: "")): "
                            + "give \(error.missing == .file ? "one" : "it") with \(option)")
        } catch let error as ShareFixtureError where fixture != nil {
            // A fixture's file, named with the fixture and the place in it.
            var named = error
            if named.file == nil { named.file = fixture }
            throw CellError(.badShare, field: "--share", "\(named)")
        } catch {
            throw CellError(.badShare, field: fixture == nil ? nil : "--share", "\(error)")
        }
    }

    /// The run's limits: an explicit one wins over the device's, which wins over the point's; a fault's last,
    /// as the matrix cell it reproduces.
    func limits(for bundle: ExtensionBundle) -> ExtensionLimits {
        var limits = ExtensionLimits.defaults(forExtensionPoint: bundle.extensionPointIdentifier, device: device)
        if let memoryLimit { limits.memory = memoryLimit }
        if let diskLimit { limits.disk = diskLimit }
        if let timeout { limits.request = .milliseconds(Int((timeout * 1000).rounded())) }
        var unused = HostFaults()
        for fault in faults { fault.apply(to: &limits, &unused) }
        return limits
    }

    /// The directory of app group containers the run gives the extension: `appGroup`, or a directory of the
    /// run's own (returned to be removed after it), so that every command gives a cell the same setting as the
    /// matrix, which gives each cell one.
    private func appGroups() throws(CellError) -> (URL, TemporaryDirectory?) {
        if let given = try directory(appGroup, field: "appGroup") { return (given, nil) }
        do {
            let scratch = try TemporaryDirectory(prefix: "opensharing-app-groups-")
            return (scratch.url, scratch)
        } catch {
            throw CellError(.badDirectory, field: "appGroup", "cannot make a directory for the app groups: \(error)")
        }
    }

    /// The directory a path names, made when missing; `nil` for none.
    private func directory(_ path: String?, field: String) throws(CellError) -> URL? {
        guard let path else { return nil }
        let url = URL(fileURLWithPath: path, isDirectory: true)
        do {
            if let status = try FileSystem.status(url) {
                guard status.kind == .directory else { throw CellError(.badDirectory, field: field, "\(path): not a directory") }
            } else {
                try FileSystem.createDirectories(url)
            }
        } catch let error as CellError {
            throw error
        } catch {
            throw CellError(.badDirectory, field: field, "\(path): cannot make the directory: \(error)")
        }
        return url
    }
}

extension ExtensionBundle {
    /// The extension's activation rule evaluated on a share's items, for an extension point that has one (share
    /// and action extensions); `nil` for the others (a notification service is asked by payloads).
    ///
    /// - Throws: `PredicateSyntaxError` for a rule that does not parse.
    public func activation(for items: [NSExtensionItem]) throws(PredicateSyntaxError) -> ActivationResult? {
        guard ExtensionPoint.named(extensionPointIdentifier)?.usesActivationRule == true else { return nil }
        return try manifest.activation(for: ActivationInput(items))
    }
}
