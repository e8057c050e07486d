import ExtensionManifest
public import ExtensionRuntime
public import Foundation
public import HostProfiles
public import OpenExtensionUI
import OpenItemProvider
import ShareInbox
import SharingSystem

/// A matrix's axes: bundles × host profiles (or, for a notification service, payloads) × devices × users ×
/// faults, what the hosts share, and the directory the cells are planned in. `plan()` makes its cells;
/// `MatrixRunner` runs them, each as a process of its own.
public struct Matrix: Sendable {
    /// The extension bundles' paths, as given.
    public var bundles: [String]
    public var hosts: [HostProfile]
    /// What every host shares, whole; `nil` for each host's part of the default share (`DefaultShare`).
    public var content: CellContent?
    /// Share fixtures (their paths) each share extension is run on in place of the hosts and their content:
    /// what an app wrote of its own shares (`ShareFixture(items:…)`); `nil` to run on the hosts.
    public var shares: [String]?
    /// The payload files every notification service is sent; `nil` for the default set (`DefaultShare`).
    public var payloads: [String]?
    /// The devices to play (`DeviceClass.standard` unless others are named); `nil` in the list plays none
    /// (each point's own limits).
    public var devices: [DeviceClass?]
    public var users: [ExtensionUser]
    public var faults: [Fault]
    /// Seconds each cell's extension has to end its request; `nil` for each point's own.
    public var timeout: Double?
    /// Where the default share, the default payloads and each cell's directories go. The matrix makes and
    /// removes nothing outside it.
    public var work: URL

    public init(bundles: [String], hosts: [HostProfile] = HostProfile.all, content: CellContent? = nil, shares: [String]? = nil,
                payloads: [String]? = nil, devices: [DeviceClass?] = DeviceClass.standard, users: [ExtensionUser] = [.post],
                faults: [Fault] = Fault.standard, timeout: Double? = nil, work: URL) {
        self.bundles = bundles
        self.hosts = hosts
        self.content = content
        self.shares = shares
        self.payloads = payloads
        self.devices = devices
        self.users = users
        self.faults = faults
        self.timeout = timeout
        self.work = work
    }

    /// The axes of the run a report describes, for running its cells again under `work` (this run's, never
    /// the report's). Content, share fixtures and payloads the report's run was given are not taken from the
    /// report: they must be given again (`content`, `shares`, `payloads`), equal to the report's, so a report
    /// cannot make a run share files of its choosing.
    ///
    /// - Throws: `ReportError` (`.inconsistent`) naming what must be given again, or what differs.
    public init(rerunning info: MatrixReport.RunInfo, content: CellContent?, shares: [String]? = nil, payloads: [String]?, work: URL,
                file: String) throws(ReportError) {
        if let given = info.content, given != content {
            throw ReportError(.inconsistent, file: file, field: "runInfo.content",
                              content == nil ? "the report's run shared content it was given: give it again (--file, --url, --text) to rerun its cells"
                                             : "the content given is not what the report's run shared")
        }
        if let given = info.givenPayloads, given != payloads {
            throw ReportError(.inconsistent, file: file, field: "runInfo.givenPayloads",
                              payloads == nil ? "the report's run was given payloads: give them again (--payload) to rerun its cells"
                                              : "the payloads given are not what the report's run was given")
        }
        if let given = info.shares, given != shares {
            throw ReportError(.inconsistent, file: file, field: "runInfo.shares",
                              shares == nil ? "the report's run shared fixtures it was given: give them again (--share) to rerun its cells"
                                            : "the share fixtures given are not what the report's run shared")
        }
        self.init(bundles: info.bundles.map(\.path), hosts: info.hosts, content: info.content, shares: info.shares, payloads: info.givenPayloads,
                  devices: info.devices, users: info.users, faults: info.faults, timeout: info.timeout, work: work)
    }

    /// The cells, the notes a person should see (hosts and bundles left out), and the run information.
    ///
    /// - Parameter imageBase: where the default payloads' image is served (`LoopbackFileServer`), when they are
    ///   used; the planner writes it into them.
    /// - Throws: `CellError` for a bundle that does not open, a file that is not there, a default share or
    ///   payload set that cannot be written, an activation rule that does not parse.
    public func plan(imageBase: URL? = nil) throws(CellError) -> MatrixPlan {
        var opened: [(path: String, bundle: ExtensionBundle)] = []
        for path in bundles {
            do {
                opened.append((path, try ExtensionBundle(url: URL(fileURLWithPath: path, isDirectory: true))))
            } catch {
                throw CellError(.badBundle, field: "bundle", "\(error)")
            }
        }
        var notes: [String] = []
        let asksShares = opened.contains { ExtensionPoint.named($0.bundle.extensionPointIdentifier)?.usesActivationRule == true }
        let asksPayloads = opened.contains { $0.bundle.extensionPointIdentifier == DeviceClass.notificationService }
        // Each host's share as that host makes it; a host that cannot share the content is left out, and said so.
        // Share fixtures given stand in for the hosts.
        var shares: [(profile: HostProfile?, fixture: String?, content: CellContent, items: [NSExtensionItem])] = []
        if asksShares, let fixtures = self.shares {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            for path in fixtures {
                do {
                    shares.append((nil, path, CellContent(), try ShareSource.fixture(URL(fileURLWithPath: path, relativeTo: cwd)).items().items))
                } catch let error as ShareFixtureError {
                    var named = error
                    if named.file == nil { named.file = path }
                    throw CellError(.badShare, field: "--share", "\(named)")
                } catch {
                    throw CellError(.badShare, field: "--share", "\(path): \(error)")
                }
            }
        } else if asksShares {
            let all = try sharedContent()
            for profile in hosts {
                let part = content == nil ? DefaultShare.content(for: profile, from: all) : all
                do {
                    let items = try ShareSource.host(profile, part).items(relativeTo: work).items
                    shares.append((profile, nil, CellContent(files: part.files.map(\.path), urls: part.urls.map(\.absoluteString),
                                                             texts: part.texts, title: part.title), items))
                } catch {
                    notes.append("\(profile.name): left out: \(error)")
                }
            }
        }
        var payloadFiles: [String] = []
        if asksPayloads { payloadFiles = try payloadPaths(imageBase: imageBase) }

        var cells: [PlannedCell] = []
        // The cells' folders are this process's own beneath the work directory: two matrices sharing it (two CI
        // jobs, two users) never touch each other's.
        func directory(_ number: Int) -> URL { work.appending(components: Self.cellsFolder(of: Processes.current), String(number)) }
        for (path, bundle) in opened {
            if bundle.extensionPointIdentifier == DeviceClass.notificationService {
                for file in payloadFiles {
                    // A payload Apple's push service would refuse reaches no device: decided here, no process started.
                    var refusal: String?
                    do {
                        refusal = MatrixCell.misdirected(try MatrixCell.readPayload(file), to: bundle).map { "never delivered to the extension: \($0)" }
                    } catch {
                        refusal = "refused before the extension: \(error.message)"
                    }
                    for device in devices {
                        for fault in faults where fault.appliesToNotifications {
                            let folder = directory(cells.count)
                            let cell = MatrixCell(bundle: path, payloads: [file], dataStore: folder.appending(component: "store").path, device: device,
                                                  faults: [fault], timeout: timeout, appGroup: folder.appending(component: "groups").path)
                            cells.append(PlannedCell(cell: cell, directory: folder, decided: refusal.map { (.run(.notActivated), $0) }, attachments: 0))
                        }
                    }
                }
                continue
            }
            guard let point = ExtensionPoint.named(bundle.extensionPointIdentifier), point.usesActivationRule else {
                let name = ExtensionPoint.named(bundle.extensionPointIdentifier)?.name ?? bundle.extensionPointIdentifier
                notes.append("\(bundle.name): left out: a \(name) is run neither on shares nor on payloads")
                continue
            }
            for (profile, fixture, shared, items) in shares {
                let activation: ActivationResult?
                do {
                    activation = try bundle.activation(for: items)
                } catch {
                    throw CellError(.badActivationRule, field: "bundle", "\(path): NSExtensionActivationRule does not parse: \(error)")
                }
                let attachments = items.reduce(0) { $0 + ($1.attachments?.count ?? 0) }
                for device in devices {
                    for user in users {
                        // A large share adds files to a host's share; a fixture is shared as it was written.
                        for fault in faults where fixture == nil || !fault.isLargeShare {
                            let folder = directory(cells.count)
                            let cell = MatrixCell(bundle: path, host: profile, fixture: fixture, content: shared, device: device, user: user,
                                                  faults: [fault], timeout: timeout, appGroup: folder.appending(component: "groups").path)
                            // A large share changes what is shared: the activation rule decides again in the run.
                            let hidden = !fault.isLargeShare && activation?.matches == false
                            let decided: (CellStatus, String)? = hidden ? (.run(.notActivated), activation?.reasons.joined(separator: "; ") ?? "") : nil
                            cells.append(PlannedCell(cell: cell, directory: folder, decided: decided, attachments: attachments))
                        }
                    }
                }
            }
        }
        let info = MatrixReport.RunInfo(
            sharingVersion: "", started: ISO8601DateFormatter().string(from: Date()), host: ProcessInfo.processInfo.hostName,
            cpu: Machine.processorModel, cores: ProcessInfo.processInfo.activeProcessorCount, jobs: 1, timeout: timeout, work: work.path,
            content: content, givenPayloads: payloads, shares: self.shares, hosts: shares.compactMap(\.profile), payloads: payloadFiles, faults: faults, devices: devices,
            users: users, bundles: opened.map { Self.bundleInfo(path: $0.path, bundle: $0.bundle) }, seed: 0, repeats: 1, shard: nil, expectations: nil)
        return MatrixPlan(cells: cells, notes: notes, runInfo: info, servesImage: asksPayloads && payloads == nil)
    }

    /// The folder of the cells of the matrix run by process `process`, in the work directory.
    static func cellsFolder(of process: Int32) -> String { "cells-\(process)" }

    /// Whether planning needs the default payloads' image served: a notification service with no payloads given.
    var needsImageServer: Bool {
        payloads == nil && bundles.contains { path in
            (try? ExtensionBundle(url: URL(fileURLWithPath: path, isDirectory: true)))?.extensionPointIdentifier == DeviceClass.notificationService
        }
    }

    /// The content given, its files checked; or the default share, written into the work directory.
    private func sharedContent() throws(CellError) -> SharedContent {
        guard let content else {
            do {
                return try DefaultShare.write(into: work.appending(component: "share"))
            } catch {
                throw CellError(.badDirectory, field: "--work", "\(work.path): cannot write the default share: \(error)")
            }
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let files = content.files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
        for (given, file) in zip(content.files, files) where (try? FileSystem.status(file)) == nil {
            throw CellError(.badShare, field: "--file", "\(given): no such file or directory")
        }
        return SharedContent(files: files, urls: content.urls.compactMap(URL.init(string:)), texts: content.texts, title: content.title)
    }

    /// The payload files: given (each must be there), or the default set written into the work directory with
    /// the image at `imageBase`.
    private func payloadPaths(imageBase: URL?) throws(CellError) -> [String] {
        if let payloads {
            for path in payloads where (try? FileSystem.status(URL(fileURLWithPath: path))) == nil {
                throw CellError(.badPayload, field: "--payload", "\(path): no such file")
            }
            return payloads
        }
        guard let imageBase else { throw CellError(.badPayload, field: "--payload", "the default payloads need their image served: plan with an image base") }
        do {
            // The image they name is the default share's photo, served from the share's folder.
            _ = try DefaultShare.write(into: work.appending(component: "share"))
            return try DefaultShare.writePayloads(into: work.appending(component: "payloads"), image: imageBase.appending(component: "photo.jpg")).map(\.path)
        } catch {
            throw CellError(.badDirectory, field: "--work", "\(work.path): cannot make the default payloads: \(error)")
        }
    }

    /// What a report records of a bundle: its identity, and hashes of its tree and its activation rule.
    static func bundleInfo(path: String, bundle: ExtensionBundle) -> MatrixReport.BundleInfo {
        MatrixReport.BundleInfo(path: path, name: bundle.name, bundleIdentifier: bundle.bundleIdentifier, extensionPoint: bundle.extensionPointIdentifier,
                                bundleHash: (try? ContentHash.of(treeAt: bundle.url).description) ?? "unreadable",
                                activationRuleHash: bundle.manifest.activationRule.map { rule in
                                    let hasher = ContentHasher()
                                    hasher.update(rule.predicateSource)
                                    return hasher.finalize().description
                                })
    }
}
