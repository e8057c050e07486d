import Foundation
import Testing

@Suite("sharing share")
struct ShareCommandTests {
    @Test("--list-hosts names every profile")
    func listHosts() async throws {
        let result = try await Sharing.run(["share", "--list-hosts", "--json"])
        #expect(result.status == 0)
        let hosts = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: String]])
        #expect(hosts.count == 18)
        #expect(hosts.map { $0["name"] }.contains("live-photo-bundle"))
        #expect(hosts.allSatisfy { $0["report"]?.hasPrefix("https://") == true })
    }

    @Test("a host profile applied to files, loaded: what arrives, exactly")
    func hostLoad() async throws {
        let result = try await Sharing.run(["share", "--host", "screenshot", "--file", "Examples/files/diagram.png", "--load"], in: repositoryRoot)
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            screenshot: the screenshot editor sharing a screenshot
            item 1, 1 attachment
              attachment 1
                public.png
                  data: 1544 bytes
                  file: PNG image.png, 1544 bytes
                  item: UIImage

            """)
    }

    @Test("--write then --share: the same share")
    func writeAndRead() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = directory.appendingPathComponent("firefox.json")
            let written = try await Sharing.run(["share", "--host", "firefox", "--url", "https://example.com/", "--write", fixture.path])
            #expect(written.status == 0 && written.standardOutput.isEmpty)
            let shown = try await Sharing.run(["share", "--share", fixture.path])
            #expect(shown.standardOutput == """
                firefox: Firefox sharing https://example.com/
                item 1, 2 attachments
                  attachment 1
                    public.url  item  https://example.com/
                  attachment 2
                    public.plain-text  item  text "https://example.com/"

                """)
        }
    }

    @Test("a malformed fixture is bad input: the JSON path of the problem, exit status 2")
    func malformed() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = directory.appendingPathComponent("broken.json")
            try Data(#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "public.jpeg", "provide": "file", "payload": {"file": "missing.jpg"}}]}]}]}"#.utf8).write(to: fixture)
            let result = try await Sharing.run(["share", "--share", fixture.path, "--load"])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: $.items[0].attachments[0].representations[0].payload: no such file: \(directory.path)/missing.jpg\n")
        }
    }

    @Test("usage errors: both sources, an unknown host, a relative URL")
    func usage() async throws {
        #expect(try await Sharing.run(["share", "--share", "a.json", "--host", "safari"]).status == 2)
        let unknown = try await Sharing.run(["share", "--host", "netscape"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("Unknown host 'netscape'. Hosts: safari, safari-javascript"))
        #expect(try await Sharing.run(["share", "--host", "safari", "--url", "example.com"]).status == 2)
        let refused = try await Sharing.run(["share", "--host", "safari"])
        #expect(refused.status == 2)
        #expect(refused.standardError == "sharing: error: --host safari: shares a page URL and was given none: give one with --url\n")
    }
}
