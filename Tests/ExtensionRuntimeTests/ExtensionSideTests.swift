@testable import ExtensionRuntime
import Foundation
import SharingSystem
import Testing

/// The extension's end of the protocol, driven by a test standing in for the host: a host message the
/// extension's runtime cannot read ends the extension with `ExtensionEndpoint.unreadableHostStatus`, after it
/// says why in its log, and the real host reports that as a protocol violation.
@Suite("The extension's side: a host it cannot read")
struct ExtensionSideTests {
    /// How a conversation ended: the program's termination and its log.
    struct Ending: Sendable {
        var termination: ProcessTree.Termination?
        var log: String
    }

    /// Starts the example `Uppercase` as a host would, takes the channel its `ready` hands over, lets `talk`
    /// speak on it, and waits for the program to end (ending it after 30 s).
    private func converse(_ talk: @escaping @Sendable (PacketChannel) throws -> Void) async throws -> Ending {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory))
        return try await BlockingThreads.run {
            let logURL = directory.appendingPathComponent("log")
            let (host, guest) = try PacketChannel.pair(name: "the extension")
            let specification = ProcessTree.Specification(
                executable: bundle.executable, environment: ["HOME": directory.path, "TMPDIR": directory.path],
                directory: directory, channel: guest, output: try OpenFile.creating(logURL))
            let tree = try ProcessTree.start(specification, name: "Uppercase")
            defer { tree.end() }
            guard try host.waitUntilReadable(timeout: .seconds(30)), let packet = try host.receive(capacity: 1 << 16),
                  case .ready = try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count), let socket = packet.files.first
            else {
                return Ending(termination: nil, log: "no ready: " + ((try? String(contentsOf: logURL, encoding: .utf8)) ?? ""))
            }
            try talk(try PacketChannel(duplicating: socket, name: "the extension"))
            let termination = tree.waitForTermination(timeout: .seconds(30))
            return Ending(termination: termination, log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
        }
    }

    @Test("a first message that is no request: status 76, and the log says what was wrong")
    func garbledRequest() async throws {
        let ending = try await converse { channel in
            try channel.send(Array("OS\u{1}\u{20}garbage".utf8))
        }
        #expect(ending.termination == .exited(ExtensionEndpoint.unreadableHostStatus), "\(ending.log)")
        #expect(ending.log.contains("the request"), "\(ending.log)")
    }

    @Test("an answer this runtime cannot read, mid-request: status 76, and the log names the fault")
    func garbledAnswer() async throws {
        let ending = try await converse { channel in
            let items = [WireItem(attachments: [WireAttachment(suggestedName: nil, representations: [
                WireRepresentation(type: "public.plain-text", form: .item),
            ])])]
            try channel.send(RuntimeMessage.request(items: items).encoded().bytes)
            // Uppercase loads the text; the answer comes back in a version this runtime does not speak.
            guard try channel.waitUntilReadable(timeout: .seconds(30)), let load = try channel.receive(capacity: 1 << 16),
                  case .load = try RuntimeMessage.decode(load.bytes, descriptors: load.files.count) else { return }
            try channel.send(Array("OS".utf8) + [9, 33])
        }
        #expect(ending.termination == .exited(ExtensionEndpoint.unreadableHostStatus), "\(ending.log)")
        #expect(ending.log.contains("the host sent a message this runtime cannot read (message version 9; this runtime speaks version 1)"),
                "\(ending.log)")
    }
}
