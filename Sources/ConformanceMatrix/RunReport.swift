public import ExtensionManifest
public import ExtensionRuntime
public import Foundation
public import OpenExtensionUI
public import OpenItemProvider
import OpenUniformTypeIdentifiers
import PackageSupport

/// What a run of a share or action extension came to, as `sharing run` prints it and the conformance matrix
/// records it: the loads, the one status and why, the returned items, the extension's last log lines when it
/// did not end the request itself, the footprint and the sandbox.
public struct RunReport: Codable, Sendable {
    public struct Load: Codable, Sendable {
        public var type: String
        public var form: String
        public var size: Int?
        public var failure: String?
    }
    public struct Returned: Codable, Sendable {
        public var type: String
        public var text: String?
        public var size: Int?
        public var failure: String?

        public init(type: String, text: String? = nil, size: Int? = nil, failure: String? = nil) {
            self.type = type
            self.text = text
            self.size = size
            self.failure = failure
        }
    }
    public var bundle: String
    public var status: ExtensionStatus
    public var reason: String?
    public var error: [String: String]?
    public var loads: [Load]
    public var returned: [Returned]
    public var openedURLs: [String]
    public var peakFootprint: Int
    public var exitStatus: String?
    public var sandbox: String
    /// The extension's last words, when it crashed, was interrupted or broke the protocol.
    public var log: [String]?
    public var user: String
    public var device: String?
    public var memoryLimit: Int
    public struct Alert: Codable, Sendable {
        public var title: String?
        public var message: String?
        public var actions: [String]
        public var chosen: String?
    }
    public var alerts: [Alert]
    /// Seconds the process lived after it ended the request, and whether the time after completion ran out.
    public var livedAfterCompletion: Double?
    public var afterCompletionExpired: Bool

    /// Runs `bundle` on `items` as one cell of the matrix does, in one call: the extension point's limits
    /// (on `device`, unless `limits` are given), then each fault's; the activation rule first, as the system
    /// evaluates it, a run that would not be offered reported `not-activated` and not started unless
    /// `ignoringActivation`; then the run, as its own process, and its report. (A large share is the caller's:
    /// its files, `DefaultShare.writeLarge`, go into `items`; a host killed is a process's death, which `sharing
    /// run` plays.)
    ///
    /// - Throws: `PredicateSyntaxError` when the activation rule does not parse; `ExtensionRuntimeError` when the
    ///   extension cannot be started at all.
    public static func run(_ bundle: ExtensionBundle, items: [NSExtensionItem], faults: [Fault] = [], limits: ExtensionLimits? = nil,
                           device: DeviceClass? = nil, user: ExtensionUser = .post, appGroupContainers: URL? = nil, cgroup: URL? = nil,
                           ignoringActivation: Bool = false) async throws -> RunReport {
        var limits = limits ?? .defaults(forExtensionPoint: bundle.extensionPointIdentifier, device: device)
        var hostFaults = HostFaults()
        for fault in faults { fault.apply(to: &limits, &hostFaults) }
        if let activation = try bundle.activation(for: items), !activation.matches && !ignoringActivation {
            return RunReport(notActivated: bundle, reasons: activation.reasons, user: user, device: device, limit: limits.memory)
        }
        let host = ExtensionHost(limits: limits, device: device, user: user, appGroupContainers: appGroupContainers, cgroup: cgroup,
                                 openURL: { _ in true }, faults: hostFaults)
        return await RunReport(try await host.run(bundle, items: items), bundle: bundle, user: user, device: device, limit: limits.memory)
    }

    /// The report of a run that did not happen: the extension's activation rule hides it for the share, for
    /// `reasons` (the clauses that fail).
    init(notActivated bundle: ExtensionBundle, reasons: [String], user: ExtensionUser, device: DeviceClass?, limit: Int) {
        self.bundle = bundle.name
        status = .notActivated
        reason = reasons.isEmpty ? "its activation rule does not match the share" : reasons.joined(separator: "; ")
        loads = []
        returned = []
        openedURLs = []
        peakFootprint = 0
        sandbox = "not started"
        self.user = user.rawValue
        self.device = device?.name
        memoryLimit = limit
        alerts = []
        afterCompletionExpired = false
    }

    public init(_ run: ExtensionRun, bundle: ExtensionBundle, user: ExtensionUser, device: DeviceClass?, limit: Int) async {
        self.bundle = bundle.name
        self.user = user.rawValue
        self.device = device?.name
        memoryLimit = limit
        alerts = run.alerts.map { alert in
            Alert(title: alert.title, message: alert.message, actions: alert.actions.map { "\($0.title ?? "") (\($0.style))" },
                  chosen: alert.chosen.flatMap { alert.actions[$0].title })
        }
        livedAfterCompletion = run.livedAfterCompletion.map(\.inSeconds)
        afterCompletionExpired = run.afterCompletionExpired
        status = run.status
        reason = run.reason
        loads = run.loads.map { Load(type: $0.typeIdentifier, form: $0.form, size: $0.size, failure: $0.failure) }
        returned = []
        switch run.outcome {
        case .completed(let items):
            // One line per attachment: its first representation, its size as the runtime recorded it, and
            // for text its words, loaded only when they are few.
            var records = run.returned[...]
            for provider in items.flatMap({ $0.attachments ?? [] }) {
                let forms = provider.registeredForms
                let taken = records.prefix(forms.count)
                records = records.dropFirst(forms.count)
                guard let (type, form) = forms.first, let record = taken.first else { continue }
                returned.append(await Self.describe(provider, type: type, form: form, record: record))
            }
        case .cancelled(let error):
            self.error = ["domain": error.domain, "code": String(error.code), "description": error.localizedDescription]
        case .interrupted:
            log = run.lastWords()
        }
        openedURLs = run.openedURLs.map(\.absoluteString)
        peakFootprint = run.peakFootprint
        exitStatus = run.exitStatus?.description
        sandbox = run.sandbox.description
    }

    /// What a returned representation holds: its size as recorded, and for a text type of at most 64 KiB (or
    /// an item, which is small) its words.
    private static func describe(_ provider: NSItemProvider, type: String, form: NSItemProvider.RepresentationForm,
                                 record: ExtensionLoad) async -> Returned {
        var returned = Returned(type: type, size: record.size, failure: record.failure)
        let isText = UTType(type)?.conforms(to: .text) == true
        guard record.failure == nil, form == .item || (isText && (record.size ?? .max) <= 64 << 10) else { return returned }
        let text: String? = await withCheckedContinuation { continuation in
            guard form == .item else {
                provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
                    continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) })
                }
                return
            }
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                switch item {
                case let string as NSString: continuation.resume(returning: string as String)
                case let url as NSURL: continuation.resume(returning: (url as URL).absoluteString)
                case let data as NSData where isText: continuation.resume(returning: String(decoding: data as Data, as: UTF8.self))
                case let item?: continuation.resume(returning: isText ? nil : "\(Swift.type(of: item))")
                case nil: continuation.resume(returning: nil)
                }
            }
        }
        returned.text = text
        return returned
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
