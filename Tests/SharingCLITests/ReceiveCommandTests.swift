import Foundation
@testable import ShareInbox
import Testing

/// Reads an inbox the way the app would, from its files (the tests run the real binary, as users do).
struct InboxOnDisk {
    let url: URL

    func ids(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(directory).path)) ?? []).sorted()
    }

    func manifest(_ id: String, in directory: String = "new") throws -> [String: Any] {
        let data = try Data(contentsOf: url.appendingPathComponent("\(directory)/\(id)/manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Files of unique content, so that every payload in an inbox can be traced to its source.
func makeSources(_ count: Int, in directory: URL, size: Int = 64 << 10) throws -> [URL] {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try (0..<count).map { index in
        let url = directory.appendingPathComponent(String(format: "source-%04d.bin", index))
        var bytes = [UInt8](repeating: 0, count: size)
        var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        for offset in bytes.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            bytes[offset] = UInt8(truncatingIfNeeded: state)
        }
        try Data(bytes).write(to: url)
        return url
    }
}

@Suite("sharing receive and sharing inbox")
struct ReceiveCommandTests {
    @Test("files and a URL into an inbox: a table, exit status 0; then list, claim, ack")
    func receiveAndCollect() async throws {
        try await withTemporaryDirectory { directory in
            let inbox = directory.appendingPathComponent("inbox").path
            let result = try await Sharing.run(["receive", "Examples/files/sunset.jpg", "Examples/files/notes.txt", "https://example.com/a", "--inbox", inbox], in: repositoryRoot)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput == """
                1.1   received  public.jpeg          31.1 KB  sunset.jpg
                1.2   received  public.plain-text       24 B  notes.txt
                1.3   received  public.url             244 B  example.com.webloc
                3 received, 0 skipped, 0 failed

                """)
            let listed = try await Sharing.run(["inbox", "list", inbox, "--verify"])
            #expect(listed.status == 0 && listed.standardOutput.hasSuffix("3 pending, 0 claimed\n"))
            #expect(listed.standardOutput.components(separatedBy: "  intact").count == 4)
            // Attachments are received two at a time, so which began first varies; the claim takes the oldest.
            let oldest = String(listed.standardOutput.prefix { $0 != " " })
            let claimed = try await Sharing.run(["inbox", "claim", inbox])
            let id = String(claimed.standardOutput.prefix { $0 != " " })
            #expect(claimed.status == 0 && id == oldest && claimed.standardOutput.contains("/payload/"))
            #expect(try await Sharing.run(["inbox", "ack", inbox, id]).status == 0)
            #expect(try await Sharing.run(["inbox", "ack", inbox, id]).status == 1)
            #expect(try await Sharing.run(["inbox", "list", inbox]).standardOutput.hasSuffix("2 pending, 0 claimed\n"))
        }
    }

    @Test("--json, a host profile, and --accept: the report as JSON; a failure is exit status 1")
    func jsonAndFailure() async throws {
        try await withTemporaryDirectory { directory in
            let inbox = directory.appendingPathComponent("inbox").path
            let ok = try await Sharing.run(["receive", "--host", "photos", "--file", "Examples/files/sunset.jpg", "--inbox", inbox, "--json"], in: repositoryRoot)
            #expect(ok.status == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(ok.standardOutput.utf8)) as? [String: Any])
            let entry = try #require((report["entries"] as? [[String: Any]])?.first)
            let outcome = try #require(entry["outcome"] as? [String: Any])
            #expect(outcome["status"] as? String == "received")
            #expect((outcome["received"] as? [String: Any])?["type"] as? String == "public.jpeg")
            let failed = try await Sharing.run(["receive", "--host", "messages", "--file", "Examples/files/sunset.jpg", "--accept", "public.url", "--inbox", inbox, "--timeout", "2"], in: repositoryRoot)
            #expect(failed.status == 1)
            #expect(failed.standardOutput.contains("1.1   FAILED"))
        }
    }
}

@Suite("The inbox under crashes and concurrency", .serialized)
struct InboxRobustnessTests {
    @Test("SIGKILL at random moments over hundreds of deliveries: every item in new/ whole, none twice, gc leaves nothing")
    func killedWriters() async throws {
        try await withTemporaryDirectory { directory in
            let inbox = directory.appendingPathComponent("inbox")
            let runs = 40, perRun = 10
            let sources = try makeSources(runs * perRun, in: directory.appendingPathComponent("sources"))
            var hashes: [String: String] = [:]
            for source in sources { hashes[try hash(of: source)] = source.lastPathComponent }
            // How long one whole run takes, so that kills land anywhere in it: start-up, copying, delivering.
            // A run slowed by a busy machine overstates it, so the quickest run so far is what counts.
            let calibration = try ChildProcess(["receive", "--inbox", inbox.path] + sources[0..<perRun].map(\.path))
            #expect(await calibration.exitStatus == 0)
            var runTime = await calibration.runTime
            var killed = 0
            for index in 1..<runs {
                let child = try ChildProcess(["receive", "--inbox", inbox.path] + sources[(index * perRun)..<((index + 1) * perRun)].map(\.path))
                child.kill(after: runTime * Double.random(in: 0...1.2))
                if await child.exitStatus == 0 {
                    runTime = min(runTime, await child.runTime)
                } else {
                    killed += 1
                }
            }
            #expect(killed > runs / 4, "most runs should have been killed part-way, \(killed) were")
            let disk = InboxOnDisk(url: inbox)
            let delivered = disk.ids(in: "new")
            #expect(delivered.count >= perRun && delivered.count < runs * perRun)
            var seen: Set<String> = []
            for id in delivered {
                let manifest = try disk.manifest(id)
                let hash = try #require(manifest["hash"] as? String)
                let payload = inbox.appendingPathComponent("new/\(id)/payload/\(try #require(manifest["name"] as? String))")
                #expect(try self.hash(of: payload) == hash, "\(id) is not whole")
                #expect(hashes[hash] != nil, "\(id) is no source's content")
                #expect(seen.insert(hash).inserted, "\(id) repeats a source")
            }
            #expect(disk.ids(in: "cur").isEmpty)
            let gc = try await Sharing.run(["inbox", "gc", inbox.path])
            #expect(gc.status == 0)
            #expect(disk.ids(in: "tmp").isEmpty, "left in tmp/: \(disk.ids(in: "tmp"))")
            #expect(disk.ids(in: "new") == delivered)
        }
    }

    @Test("four writer processes and a claiming reader at once: every item claimed exactly once, nothing lost")
    func concurrentProcesses() async throws {
        try await withTemporaryDirectory { directory in
            let inbox = directory.appendingPathComponent("inbox")
            let writers = 4, perWriter = 25
            let sources = try makeSources(writers * perWriter, in: directory.appendingPathComponent("sources"), size: 8 << 10)
            let processes = try (0..<writers).map { writer in
                try ChildProcess(["receive", "--inbox", inbox.path] + sources[(writer * perWriter)..<((writer + 1) * perWriter)].map(\.path))
            }
            var claimed: [String] = []
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                let writing = processes.contains(where: \.isRunning)
                let result = try await Sharing.run(["inbox", "claim", inbox.path])
                if result.status == 0 {
                    let id = String(result.standardOutput.prefix { $0 != " " })
                    claimed.append(try #require(try InboxOnDisk(url: inbox).manifest(id, in: "cur")["hash"] as? String))
                    #expect(try await Sharing.run(["inbox", "ack", inbox.path, id]).status == 0)
                } else if !writing {
                    break
                }
            }
            for process in processes { #expect(await process.exitStatus == 0) }
            #expect(claimed.count == writers * perWriter)
            #expect(Set(claimed).count == claimed.count)
            #expect(Set(claimed) == Set(try sources.map(hash(of:))))
        }
    }

    func hash(of url: URL) throws -> String {
        try ContentHash.of(fileAt: url).description
    }
}
