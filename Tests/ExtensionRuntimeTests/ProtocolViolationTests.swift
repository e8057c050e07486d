import ExtensionRuntime
import Foundation
import OpenItemProvider
import Testing

/// Python for the wire form of empty notification content (`WireContent()`).
private let emptyContent = "struct.pack('<III', 0, 0, 0) + b'\\x00\\x00' + struct.pack('<I', 0) + b'\\x08' + struct.pack('<II', 0, 0) "
    + "+ struct.pack('<II', 0, 0) + b'\\x00\\x01' + struct.pack('<d', 0) + b'\\x00' + struct.pack('<IQ', 0, 0) + b'\\x00'"

/// Extensions that break the protocol, written in Python so that they can send what a Swift extension
/// built on the runtime never would. Each must end in one interrupted outcome naming the violation, with
/// the host unharmed: the next request runs as usual.
@Suite("Extensions that break the protocol")
struct ProtocolViolationTests {
    /// Python that connects as the runtime does (a socket pair of its own, one end handed over with ready)
    /// unless told not to, then runs `body` with `host` the connected socket.
    static func script(_ body: String, ready: Bool = true) -> String {
        """
        #!/usr/bin/env python3
        import array, os, socket, struct, time
        boot = socket.socket(fileno=3)
        def message(kind, body=b""):
            return b"OS\\x01" + bytes([kind]) + body
        def ready_with(process):
            mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            boot.sendmsg([message(1, struct.pack("<I", process) + b"\\x01")], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [theirs.fileno()]))])
            theirs.close()
            return mine
        \(ready ? "host = ready_with(os.getpid())\nrequest = host.recv(70000)" : "")
        \(body)
        time.sleep(30)
        """
    }

    @Test("each violation interrupts the request, names what was wrong, and leaves the host serving the next", arguments: [
        ("garbage", script("boot.send(b'XX')", ready: false), "not a runtime message (no OS magic)"),
        ("oversized", script("boot.send(b'OS' + bytes(70000))", ready: false), "a message larger than 65536 bytes or with more than 16 descriptors"),
        ("load-before-ready", script("boot.send(message(2, struct.pack('<II', 1, 0) + struct.pack('<I', 10) + b'public.url' + b'\\x03'))", ready: false),
         "a load before ready"),
        ("foreign-process", script("host = ready_with(1)", ready: false), "ready from process 1; the extension is process 2 in its namespace"),
        ("host-message", script("host.send(message(35, struct.pack('<I', 7) + b'request'))"), "a host's message (timeWarning) from the extension"),
        ("no-such-attachment", script("host.send(message(2, struct.pack('<II', 1, 99) + struct.pack('<I', 10) + b'public.url' + b'\\x03'))"),
         "a load of attachment 99; the request has 1"),
        ("hangs-up", script("host.close()"), "the extension closed its connection before ending the request"),
        ("content-from-a-share", script("host.send(message(8, struct.pack('<I', 0) + \(emptyContent)))"),
         "notification content from an extension sent no notification"),
        ("center-from-a-share", script("host.send(message(9, struct.pack('<I', 1) + b'\\x02'))"),
         "a notification center call from an extension sent no notification"),
    ])
    func violation(name: String, script: String, expected: String) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.script(script, in: directory, named: name))
        let run = try await ExtensionHost().run(bundle, items: try ExampleBundles.share("safari"))
        guard case .interrupted(.protocolViolation(let detail)) = run.outcome else {
            Issue.record("expected a protocol violation, got \(run.outcome); log: \(run.log)")
            return
        }
        #expect(detail.hasPrefix(expected))
        // The host is unharmed: the next request runs.
        let next = try await ExtensionHost().run(try ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory)),
                                                 items: try ExampleBundles.text("again"))
        guard case .completed = next.outcome else { Issue.record("the next request: \(next.outcome)"); return }
    }

    @Test("a notification service that sends content for a notification it was not sent, or completes like a share, is ended; the next payload starts a new process", arguments: [
        ("unsent", "host.send(message(8, struct.pack('<I', 5) + \(emptyContent)))", "content for notification 5, which was not sent"),
        ("completes", "host.send(message(5, struct.pack('<I', 0)))", "completeRequest from a notification service"),
    ])
    func notificationViolation(name: String, body: String, expected: String) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.script(Self.script(body), in: directory, named: name))
        let push = try PushPayload(json: Data(#"{"aps": {"alert": "hi", "mutable-content": 1}}"#.utf8), name: "push.json")
        let runs = try await ExtensionHost().deliver([push, push], to: bundle, dataStore: directory.appendingPathComponent("store"))
        #expect(runs.processes.count == 2)
        #expect(runs.deliveries.map(\.shown) == [.original, .original])
        #expect(runs.deliveries.map(\.status) == [.protocolViolation, .protocolViolation])
        #expect(runs.deliveries[0].reason?.hasPrefix("protocol violation: \(expected)") == true, "\(runs.deliveries[0].reason ?? "")")
    }
}
