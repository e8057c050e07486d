public import ExtensionRuntime
import Foundation
import OpenExtensionUI
import OpenItemProvider
import OpenUniformTypeIdentifiers
import PackageSupport

/// What a run of a share or action extension came to, as `sharing run --json` prints it and the conformance
/// matrix records it: the cell that was run, the loads, the one status and why, the returned items, the
/// extension's last log lines when it did not end the request itself, the footprint and the sandbox.
public struct RunReport: Codable, Sendable {
    public struct Load: Codable, Sendable, Equatable {
        public var type: String
        public var form: LoadForm
        public var size: Int?
        public var failure: String?
    }
    public struct Returned: Codable, Sendable, Equatable {
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
    /// An upload a background session handed to the host, as it ended.
    public struct Transfer: Codable, Sendable, Equatable {
        public var session: String
        public var method: String
        public var url: String
        public var bytes: Int
        public var status: Int?
        public var error: String?
        /// Seconds after the extension's process ended that it ended (negative: before); `nil`: it had not.
        public var endedAfterExtension: Double?

        init(_ transfer: BackgroundTransfer) {
            session = transfer.session
            method = transfer.method
            url = transfer.url
            bytes = transfer.bytes
            status = transfer.status
            error = transfer.error
            endedAfterExtension = transfer.endedAfterExtension?.inSeconds
        }
    }
    public struct Alert: Codable, Sendable, Equatable {
        public var title: String?
        public var message: String?
        /// Each action's title and style.
        public var actions: [String]
        public var chosen: String?
    }

    /// The cell that was run.
    public var cell: MatrixCell
    /// The bundle's name.
    public var bundle: String
    public var status: ExtensionStatus
    public var reason: String?
    /// For a cancelled request, its error: `domain`, `code`, `description`.
    public var error: [String: String]?
    /// How many attachments the share held.
    public var attachments: Int
    public var loads: [Load]
    public var returned: [Returned]
    public var openedURLs: [String]
    /// The names the extension posted to the Darwin notify center, in order.
    public var posted: [String]
    /// The interactions the extension donated, in order (`ExtensionRun.donated`).
    public var donated: [String]
    /// The network connections the extension opened, in order, each `host:port`.
    public var connections: [String]
    /// The host names the extension looked up, in order (`ExtensionRun.lookups`).
    public var lookups: [String]
    /// What the scripted user tapped, in order (`ExtensionRun.taps`).
    public var taps: [String]
    /// The uploads its background sessions handed to the host, each as it ended.
    public var backgroundTransfers: [Transfer]
    public var peakFootprint: Int
    public var exitStatus: String?
    public var sandbox: String
    /// The extension's last words, when it crashed, was interrupted or broke the protocol.
    public var log: [String]?
    /// The memory limit it ran under, in bytes.
    public var memoryLimit: Int
    public var alerts: [Alert]
    /// Seconds the process lived after it ended the request, and whether the time after completion ran out.
    public var livedAfterCompletion: Double?
    public var afterCompletionExpired: Bool
    /// Seconds the requests ran, start to end, and how many of them the machine kept the extension waiting for
    /// a core: time its budgets were not charged.
    public var requestTime: Double?
    public var waitedForCore: Double?
    /// What the runtime found beside the status (`docs/conformance.md`, Findings).
    public var findings: [Finding]

    /// The report of a run that did not happen: the extension's activation rule hides it for the share, for
    /// `reasons` (the clauses that fail).
    init(notActivated cell: MatrixCell, bundle: ExtensionBundle, attachments: Int, reasons: [String], limit: Int) {
        self.cell = cell
        self.attachments = attachments
        self.bundle = bundle.name
        status = .notActivated
        reason = reasons.isEmpty ? "its activation rule does not match the share" : reasons.joined(separator: "; ")
        loads = []
        returned = []
        openedURLs = []
        posted = []
        donated = []
        connections = []
        lookups = []
        taps = []
        backgroundTransfers = []
        peakFootprint = 0
        sandbox = "not started"
        memoryLimit = limit
        alerts = []
        afterCompletionExpired = false
        findings = []
    }

    init(_ run: ExtensionRun, cell: MatrixCell, bundle: ExtensionBundle, attachments: Int, limit: Int) async {
        self.cell = cell
        self.attachments = attachments
        self.bundle = bundle.name
        memoryLimit = limit
        alerts = run.alerts.map { alert in
            Alert(title: alert.title, message: alert.message, actions: alert.actions.map { "\($0.title ?? "") (\($0.style))" },
                  chosen: alert.chosen.flatMap { alert.actions[$0].title })
        }
        livedAfterCompletion = run.livedAfterCompletion.map(\.inSeconds)
        afterCompletionExpired = run.afterCompletionExpired
        requestTime = run.requestTime.inSeconds
        waitedForCore = run.waitedForCore.inSeconds
        status = run.status
        reason = run.reason
        findings = run.findings
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
        posted = run.posted
        donated = run.donated
        connections = run.connections
        lookups = run.lookups
        taps = run.taps
        backgroundTransfers = run.backgroundTransfers.map(Transfer.init)
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
