#if os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SharingSystem
import Testing

/// The matrix's web server: every connection served at once, each within its deadline.
@Suite("The loopback file server")
struct LoopbackFileServerTests {
    /// A connected socket to the server's port.
    func connect(_ server: LoopbackFileServer) throws -> FileHandle {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(server.base.port!).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    @Test("a client that sends nothing holds only its own connection: another gets its file meanwhile, and the stalled one is closed at its deadline")
    func slowClientAlone() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "opensharing-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
        try bytes.write(to: directory.appending(path: "photo.jpg"))
        try Data("secret".utf8).write(to: directory.appending(path: ".hidden"))
        let server = try LoopbackFileServer(serving: directory, connectionDeadline: .seconds(2))
        defer { server.stop() }
        // Connections that say nothing, more than one thread of a one-at-a-time server would outlast.
        let stalled = try (0..<8).map { _ in try connect(server) }
        let (data, response) = try await URLSession.shared.data(from: server.base.appending(path: "photo.jpg"))
        #expect(data == bytes)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        // A name outside the directory, or hidden, is not served.
        for name in ["..%2Fetc%2Fpasswd", ".hidden"] {
            let (_, refused) = try await URLSession.shared.data(from: URL(string: "\(server.base.absoluteString)/\(name)")!)
            #expect((refused as? HTTPURLResponse)?.statusCode == 404)
        }
        // The stalled ones are closed by the server at their deadline: reading gives end of file, not a wait.
        for connection in stalled { #expect(connection.readDataToEndOfFile().isEmpty) }
    }
}
#endif
