import ExtensionRuntime
import Foundation
import OpenItemProvider
import Testing

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
            boot.sendmsg([message(1, struct.pack("<I", process))], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [theirs.fileno()]))])
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
}
