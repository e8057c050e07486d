#if os(Linux)
@testable import ConformanceMatrix
@testable import ExtensionRuntime
import Foundation
import MachineLoad
import Testing

/// How `sharing` carries an extension's background uploads: the server's answer costs the host its status, not
/// its body — beside two busy loops, where a queue of the answer's pieces for a delegate fell furthest behind.
/// `make test` runs the busy machine's tests one at a time in a process of their own, so the peak measured is
/// this test's alone.
@Suite("A busy machine: background uploads the host carries")
struct BusyMachineUploadTests {
    /// A server on 127.0.0.1 that takes a POST's body and answers 201 with `megabytes` of zeros, a megabyte at a
    /// time; it prints its port, serves one request, and prints how many megabytes of the answer it wrote before
    /// the client went away.
    private static let server = """
        import http.server, sys
        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                megabytes = int(sys.argv[1])
                self.send_response(201)
                self.send_header("Content-Length", str(megabytes << 20))
                self.end_headers()
                chunk = bytes(1 << 20)
                written = 0
                try:
                    for _ in range(megabytes):
                        self.wfile.write(chunk)
                        written += 1
                except (BrokenPipeError, ConnectionResetError):
                    pass
                print(written, flush=True)
            def log_message(self, *arguments):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
        print(server.server_address[1], flush=True)
        server.handle_request()
        """

    @Test("a server that answers an upload with 4 GB: the host keeps its status and cancels the task, and keeps none of the answer")
    func largeAnswer() async throws {
        let loops = try BusyLoops(2)
        defer { loops.stop() }
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.server, "4096"]
        process.standardOutput = output
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "the server said \(line)")

        let directory = FileManager.default.temporaryDirectory.appending(component: "uploads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = directory.appending(component: "body")
        try Data(repeating: 7, count: 64 << 10).write(to: body)
        let transfer = BackgroundTransfer(session: "uploads", sharedContainer: nil, method: "POST", url: "http://127.0.0.1:\(port)/add",
                                          headers: ["Content-Type: application/octet-stream"], bytes: 64 << 10)

        // The peak resident size, from here: 5 in clear_refs sets it to what is resident now.
        try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        let before = try Self.resident("VmHWM")
        let status = try await BackgroundUploads.carry(transfer, body)
        let grown = try Self.resident("VmHWM") - before
        #expect(status == 201)
        // Foundation's own buffers, the session's and the task's, and the 64 KB body's copy: the answer's pieces
        // are dropped as they are read (with a data delegate queued for them, the peak grew by up to 698 MB).
        #expect(grown < 16 << 20, "the host's peak grew by \(grown) bytes while a 4 GB answer was sent")
        let written = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let megabytes = try #require(Int(written.trimmingCharacters(in: .whitespacesAndNewlines)), "the server said \(written)")
        #expect(megabytes < 4096, "the host read the whole answer: the server wrote \(megabytes) MB")
    }

    /// A figure of `/proc/self/status`, in bytes.
    private static func resident(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes << 10
    }
}

/// Where the host carries an upload: this machine's loopback only, as for the extension's own connections.
@Suite("Background uploads go to this machine's loopback only")
struct CarriedUploadNetworkTests {
    @Test("an upload beyond loopback fails at once, not connected to the internet, saying why and what to do", arguments: [
        "https://api.example.com/v1/shares", "http://10.255.255.1:8080/add",
    ])
    func refused(url: String) async throws {
        let body = FileManager.default.temporaryDirectory.appending(component: "refused-\(UUID().uuidString)")
        try Data("hello".utf8).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let transfer = BackgroundTransfer(session: "uploads", sharedContainer: nil, method: "POST", url: url, headers: [], bytes: 5)
        let host = try #require(URL(string: url)?.host)
        do {
            _ = try await BackgroundUploads.carry(transfer, body)
            Issue.record("carried to \(url)")
        } catch {
            let refusal = error as NSError
            #expect(refusal.domain == NSURLErrorDomain)
            #expect(refusal.code == NSURLErrorNotConnectedToInternet)
            #expect(refusal.localizedDescription == "refused, as every run's network beyond this machine's loopback is: \(host) is not 127.0.0.1; "
                    + "serve the upload's endpoint on 127.0.0.1 to test it")
        }
    }
}
#endif
