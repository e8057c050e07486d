#if os(Linux)
import CompatibilityHarness
import Foundation
import Glibc
import Testing

/// The read-later extension that sends the page to its app's service with `URLSession.shared`, run with `sharing
/// run` against a service on 127.0.0.1: waiting for the answer before completing passes; completing, then
/// uploading from the completion handler (issue 38: 3 of 5 reached the server on a device) fails with
/// work-lost-at-exit, the connection named.
@Suite("Compatibility: a read-later share extension uploading with URLSession, run with sharing run")
struct ReadLaterShareTests {
    @Test("waiting for the service's answer before completing: completed, the connection listed, the page received, no finding")
    func waits() throws {
        let service = try Service()
        defer { service.stop() }
        let result = try Self.share(sending: "wait", to: service)
        #expect(result.status == 0 && result.report["status"] as? String == "completed", "\(result.report)")
        #expect(result.report["connections"] as? [String] == ["127.0.0.1:\(service.port)"])
        #expect(result.findings.allSatisfy { $0["severity"] != "fail" }, "\(result.findings)")
        #expect(service.bodies.contains("https://www.swift.org/"), "\(service.bodies)")
    }

    @Test("completing first and uploading from the completion handler: completed, and the run fails with work-lost-at-exit naming the connection")
    func uploadsAfterCompleting() throws {
        let service = try Service()
        defer { service.stop() }
        let result = try Self.share(sending: nil, to: service)
        #expect(result.status == 1 && result.report["status"] as? String == "completed", "\(result.report)")
        let lost = result.findings.first { $0["code"] == "work-lost-at-exit" }
        #expect(lost?["severity"] == "fail", "\(result.findings)")
        #expect(lost?["message"]?.hasPrefix("it opened a network connection (to 127.0.0.1:\(service.port)) after its request had ended") == true,
                "\(result.findings)")
        #expect(!result.findings.contains { $0["code"] == "nothing-kept" }, "a connection is what it kept: \(result.findings)")
    }

    @Test("a background session with the app group as its shared container: completed at once, the upload carried by the host after the process has gone and in the report, no connection of the extension's own")
    func background() throws {
        let service = try Service(answeringOnceGone: "ReadLaterShare")
        defer { service.stop() }
        let result = try Self.share(sending: "background", to: service)
        #expect(result.status == 0 && result.report["status"] as? String == "completed", "\(result.report)")
        #expect(result.findings.allSatisfy { $0["severity"] != "fail" }, "\(result.findings)")
        #expect(result.report["connections"] as? [String] == [])
        let transfers = (result.report["backgroundTransfers"] as? [[String: Any]]) ?? []
        #expect(transfers.count == 1, "\(result.report)")
        #expect(transfers.first?["session"] as? String == "org.opensharing.compatibility.read-later")
        #expect(transfers.first?["method"] as? String == "POST")
        #expect(transfers.first?["url"] as? String == "http://127.0.0.1:\(service.port)/add")
        #expect(transfers.first?["status"] as? Int == 200)
        #expect(transfers.first?["bytes"] as? Int == "https://www.swift.org/".utf8.count)
        #expect(((transfers.first?["endedAfterExtension"] as? Double) ?? -1) >= 0, "the service answered only once the process was gone: \(transfers)")
        #expect(service.bodies == ["https://www.swift.org/"])
    }
}

extension ReadLaterShareTests {
    /// `sharing run` of a page from Safari, the app group's `service.txt` naming `service`'s endpoint and how to send
    /// (`wait`, `background`, or `nil`: complete, then upload).
    static func share(sending mode: String?, to service: Service) throws -> SharingCommand.Result {
        try SharingCommand.run("ReadLaterShare", ["--host", "safari", "--url", "https://www.swift.org/"], group: "group.org.opensharing.compatibility") {
            container in
            let settings = "http://127.0.0.1:\(service.port)/add\n" + (mode.map { $0 + "\n" } ?? "")
            try Data(settings.utf8).write(to: container.appendingPathComponent("service.txt"))
        }
    }
}

/// An HTTP service on 127.0.0.1 that answers every request 200 and keeps each request's body.
final class Service: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private let done = DispatchSemaphore(value: 0)

    var bodies: [String] { lock.withLock { received } }

    /// Answers a request only once no program named `gone` (when given) runs, within 60 seconds.
    private let gone: String?

    init(answeringOnceGone gone: String? = nil) throws {
        self.gone = gone
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    /// Stops accepting, and returns once the serving thread has ended.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }

    /// Waits until no process named `name` runs, looking every 10 ms, at most 60 seconds. A process has ended
    /// when all its threads have, as the kernel tells a process descriptor: its first thread a zombie and no
    /// other left (`Threads: 1`). Not when its command line goes: that goes as the first thread exits, while
    /// the others may still wait for a core to exit too.
    private static func wait(untilNoProcessNamed name: String) {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let running = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
                guard entry.allSatisfy(\.isNumber), let status = FileManager.default.contents(atPath: "/proc/\(entry)/status") else { return false }
                let fields = Dictionary(String(decoding: status, as: UTF8.self).split(separator: "\n").map { line in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
                }) { first, _ in first }
                let ended = fields["State"].map { $0.hasPrefix("Z") || $0.hasPrefix("X") } == true && fields["Threads"] == "1"
                return fields["Name"] == name && !ended
            }
            if !running { return }
            usleep(10_000)
        }
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            // The headers, then as many bytes as Content-Length says.
            while true {
                let text = String(decoding: request, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    let length = text[..<end.lowerBound].split(separator: "\r\n")
                        .first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    let body = text[end.upperBound...]
                    if body.utf8.count >= length {
                        lock.withLock { received.append(String(body)) }
                        break
                    }
                }
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                request += buffer.prefix(count)
            }
            if let gone { Self.wait(untilNoProcessNamed: gone) }
            let answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = answer.withCString { write(connection, $0, strlen($0)) }
            close(connection)
        }
    }
}
#endif
