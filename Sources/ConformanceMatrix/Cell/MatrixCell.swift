public import ExtensionRuntime
import Foundation
public import HostProfiles
public import OpenExtensionUI

/// One run of one extension, named completely: the bundle, what it is given (a host's share, or push payloads
/// for a notification service), the device played, what the person does, the faults, the limits and the app
/// group directory. `sharing run` and `sharing notify` parse their options into a cell, the matrix plans
/// cells, a report holds them, and `arguments` renders one back into the command that runs it alone.
///
/// A cell is data: read from a report, it names nothing that is run but through these fields, each checked
/// against its vocabulary as it is decoded (`MatrixReport.read(from:)`).
public struct MatrixCell: Sendable, Hashable {
    /// The extension bundle's path, as given.
    public var bundle: String

    /// The host profile whose way of sharing makes the share; `nil` with a fixture, or for content shared as it is.
    public var host: HostProfile?
    /// A share fixture (JSON) to share, in place of a host and content.
    public var fixture: String?
    /// What the host shares (or, with no host, what is shared as it is).
    public var content: CellContent
    /// The extension runs even when its activation rule would hide it for the share.
    public var ignoresActivation: Bool

    /// For a notification service: the push payloads, in order. Empty for a share.
    public var payloads: [String]
    /// Where a notification's attachments are moved (a new temporary directory when `nil`).
    public var dataStore: String?
    /// The notification service has the filtering entitlement.
    public var allowsFiltering: Bool

    /// The device played: its screen, and its memory limit for the point.
    public var device: DeviceClass?
    /// What the person using the extension does.
    public var user: ExtensionUser
    /// How the host or the device treats the extension badly, in order (none is the empty list).
    public var faults: [Fault]
    /// The memory limit in bytes, when not the device's or the point's.
    public var memoryLimit: Int?
    /// The disk budget in bytes, when not the default.
    public var diskLimit: Int?
    /// Seconds the extension has to end its request (each notification, for a notification service), when
    /// not the point's.
    public var timeout: Double?
    /// The directory of app group containers the extension is given.
    public var appGroup: String?

    /// A share or action extension's cell: `host`'s share of `content` (or the content as it is, or a fixture).
    public init(bundle: String, host: HostProfile? = nil, fixture: String? = nil, content: CellContent = CellContent(),
                device: DeviceClass? = .default, user: ExtensionUser = .post, faults: [Fault] = [], memoryLimit: Int? = nil,
                diskLimit: Int? = nil, timeout: Double? = nil, appGroup: String? = nil, ignoresActivation: Bool = false) {
        self.init(bundle: bundle, host: host, fixture: fixture, content: content, ignoresActivation: ignoresActivation, payloads: [],
                  dataStore: nil, allowsFiltering: false, device: device, user: user, faults: faults, memoryLimit: memoryLimit,
                  diskLimit: diskLimit, timeout: timeout, appGroup: appGroup)
    }

    /// A notification service's cell: `payloads` delivered in order.
    public init(bundle: String, payloads: [String], dataStore: String? = nil, allowsFiltering: Bool = false, device: DeviceClass? = .default,
                faults: [Fault] = [], memoryLimit: Int? = nil, timeout: Double? = nil, appGroup: String? = nil) {
        self.init(bundle: bundle, host: nil, fixture: nil, content: CellContent(), ignoresActivation: false, payloads: payloads,
                  dataStore: dataStore, allowsFiltering: allowsFiltering, device: device, user: .none, faults: faults,
                  memoryLimit: memoryLimit, diskLimit: nil, timeout: timeout, appGroup: appGroup)
    }

    init(bundle: String, host: HostProfile?, fixture: String?, content: CellContent, ignoresActivation: Bool, payloads: [String],
         dataStore: String?, allowsFiltering: Bool, device: DeviceClass?, user: ExtensionUser, faults: [Fault], memoryLimit: Int?,
         diskLimit: Int?, timeout: Double?, appGroup: String?) {
        self.bundle = bundle
        self.host = host
        self.fixture = fixture
        self.content = content
        self.ignoresActivation = ignoresActivation
        self.payloads = payloads
        self.dataStore = dataStore
        self.allowsFiltering = allowsFiltering
        self.device = device
        self.user = user
        // No fault is the empty list, however it was said.
        self.faults = faults.filter { $0 != .none }
        self.memoryLimit = memoryLimit
        self.diskLimit = diskLimit
        self.timeout = timeout
        self.appGroup = appGroup
    }

    /// Which extension point's run the cell is.
    public enum Kind: String, Sendable {
        /// A share or action extension, given a share.
        case share
        /// A notification service, given push payloads.
        case notifications
    }

    public var kind: Kind { payloads.isEmpty ? .share : .notifications }

    /// The faults as one name: `none`, a spec, or specs joined by `+`.
    public var faultName: String { faults.isEmpty ? "none" : faults.map(\.description).joined(separator: "+") }

    /// The bundle's name (`Name` of `Name.appex`).
    public var bundleName: String { URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent }

    /// What the bundle is run on: the host profile's name, `payload NAME`, `share NAME` (a fixture), or `content`.
    public var subject: String {
        if let host { return host.name }
        if let payload = payloads.first { return "payload \(Self.stem(payload))" }
        if let fixture { return "share \(Self.stem(fixture))" }
        return "content"
    }

    /// The grid's row: the bundle and what it is run on.
    public var row: String { "\(bundleName) \(subject)" }

    /// The cell's name within its row: its device, user and faults, so that no two collide.
    public var name: String { "device=\(device?.name ?? "none") user=\(user.rawValue) fault=\(faultName)" }

    /// Bundle, host or payload, device, user and faults: unique in a matrix, and what expectations match.
    public var identifier: String { "\(row) \(name)" }

    /// The cell's fault kills its host: it can run only as a process of its own.
    public var killsHost: Bool {
        faults.contains { if case .hostKilled = $0 { true } else { false } }
    }

    private static func stem(_ path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }
}
