#if os(Linux)
import BackgroundTransfers
import Foundation
import SharingSystem
import Testing

/// Background sessions compiled as iOS code writes them; what a task of one does outside an extension's process
/// (no host to hand an upload to). Through a host, `ReadLaterShare` in the compatibility suite.
@Suite("Background sessions")
struct BackgroundTransfersTests {
    @Test("background(withIdentifier:) and sharedContainerIdentifier compile as on iOS, and a session's copy of the configuration keeps both")
    func configuration() {
        let configuration = URLSessionConfiguration.background(withIdentifier: "org.example.upload")
        #expect(configuration.identifier == "org.example.upload")
        #expect(configuration.sharedContainerIdentifier == nil)
        configuration.sharedContainerIdentifier = "group.org.example"
        configuration.sessionSendsLaunchEvents = false
        #expect(configuration.sharedContainerIdentifier == "group.org.example")
        #expect(!configuration.sessionSendsLaunchEvents)
        let session = URLSession(configuration: configuration)
        #expect(session.configuration.identifier == "org.example.upload")
        #expect(session.configuration.sharedContainerIdentifier == "group.org.example")
        #expect(URLSessionConfiguration.default.identifier == nil)
    }

    @Test("an upload from a file is handed to the host: with none (this is no extension's process) it fails as with no network; without a shared container, as iOS fails it",
          arguments: [("group.org.example", URLError.Code.notConnectedToInternet), (nil, .backgroundSessionRequiresSharedContainer)] as [(String?, URLError.Code)])
    func uploadWithoutHost(shared: String?, code: URLError.Code) async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let body = directory.url.appendingPathComponent("body.txt")
        try Data("page".utf8).write(to: body)
        let configuration = URLSessionConfiguration.background(withIdentifier: "org.example.upload")
        configuration.sharedContainerIdentifier = shared
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:9/add")!)
        request.httpMethod = "POST"
        let error: URLError? = await withCheckedContinuation { continuation in
            session.uploadTask(with: request, fromFile: body) { _, _, error in continuation.resume(returning: error as? URLError) }.resume()
        }
        #expect(error?.code == code, "\(String(describing: error))")
    }

    @Test("a task that is not an upload from a file loads in the process, as through a default session")
    func dataTaskInProcess() async throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        try Data("served".utf8).write(to: directory.url.appendingPathComponent("page.txt"))
        let server = try LoopbackFileServer(serving: directory.url)
        defer { server.stop() }
        let session = URLSession(configuration: URLSessionConfiguration.background(withIdentifier: "org.example.fetch"))
        let (data, status): (Data?, Int?) = await withCheckedContinuation { continuation in
            session.dataTask(with: server.base.appendingPathComponent("page.txt")) { data, response, _ in
                continuation.resume(returning: (data, (response as? HTTPURLResponse)?.statusCode))
            }.resume()
        }
        #expect(status == 200)
        #expect(data == Data("served".utf8))
    }
}
#endif
