#if os(Linux)
import Foundation
import Testing

/// `sharing notify` on the example notification services, through the binary.
@Suite("sharing notify")
struct NotifyCommandTests {
    private func write(_ payload: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appending(path: name)
        try Data(payload.utf8).write(to: url)
        return url.path
    }

    private static let push = #"{"aps": {"alert": {"title": "Ana", "body": "At noon?"}, "mutable-content": 1, "badge": 2, "thread-id": "chat-7"}}"#

    @Test("--json: the cell run and one object per payload, the extension's content with its attachment in the data store, and a payload not asking for it as it is; exit 0")
    func json() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("BundledAttachment", in: directory)
            let store = directory.appending(path: "store")
            let result = try await Sharing.run(["notify", bundle.path, "--payload", try write(Self.push, named: "push.json", in: directory),
                                                "--payload", try write(#"{"aps": {"alert": "Plain"}}"#, named: "plain.json", in: directory),
                                                "--data-store", store.path, "--json"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let run = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect((run["cell"] as? [String: Any])?["payloads"] as? [String] == [directory.appending(path: "push.json").path, directory.appending(path: "plain.json").path])
            #expect(run["dataStore"] as? String == store.path)
            let reports = try #require(run["notifications"] as? [[String: Any]])
            #expect(reports.count == 2)
            #expect(reports[0]["delivered"] as? String == "modified" && reports[0]["status"] as? String == "completed")
            #expect(reports[0]["expired"] as? Bool == false && reports[0]["handlerCalls"] as? Int == 1)
            #expect((reports[0]["peakFootprint"] as? Int ?? 0) > 0)
            let content = try #require(reports[0]["content"] as? [String: Any])
            #expect(content["title"] as? String == "Ana" && content["badge"] as? Int == 2 && content["threadIdentifier"] as? String == "chat-7")
            let attachment = try #require((content["attachments"] as? [[String: Any]])?.first)
            #expect(attachment["identifier"] as? String == "banner" && attachment["type"] as? String == "public.jpeg")
            let path = try #require(attachment["path"] as? String)
            #expect(path.hasPrefix(store.path + "/") && FileManager.default.fileExists(atPath: path))
            #expect(FileManager.default.fileExists(atPath: bundle.appending(path: "banner.jpg").path), "a bundled file is copied, not moved")
            #expect(reports[1]["delivered"] as? String == "original" && reports[1]["status"] == nil)
            #expect(reports[1]["reason"] as? String == "the payload has no mutable-content")
        }
    }

    @Test("a service that never calls its handler: the original, out of time, its last words printed; exit 1")
    func silent() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("SilentService", in: directory)
            let result = try await Sharing.run(["notify", bundle.path, "--payload", try write(Self.push, named: "push.json", in: directory),
                                                "--timeout", "1"])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("notification 1 (\(directory.appending(path: "push.json").path)): the original, interrupted-timeout: "
                                                   + "the content handler was not called in time, nor from serviceExtensionTimeWillExpire()"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("serviceExtensionTimeWillExpire on the main thread: false; not calling the handler"))
            #expect(result.standardOutput.contains("attachments in: "))
        }
    }

    @Test("BannerRenderer on the device classes: fine at scale 2, killed at 24 MB at scale 3 (exit 1), and at 3× with no --device: the default is a 3× phone",
          arguments: [(["--device", "iphone-se-2"], 0), (["--device", "iphone-13"], 1), ([], 1)] as [([String], Int32)])
    func devices(device: [String], exit: Int32) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("BannerRenderer", in: directory)
            let result = try await Sharing.run(["notify", bundle.path, "--payload", try write(Self.push, named: "push.json", in: directory),
                                                "--data-store", directory.appending(path: "store").path] + device)
            #expect(result.status == exit, "\(result.standardOutput)\(result.standardError)")
            if exit == 0 {
                #expect(result.standardOutput.contains("attachment banner: public.jpeg"), "\(result.standardOutput)")
            } else {
                #expect(result.standardOutput.contains("the original, interrupted-memory: over its memory limit of 24.0 MB"), "\(result.standardOutput)")
                #expect(result.standardOutput.hasPrefix("device: iphone-13 (iPhone 13, 3×, 390 × 844 points)\n"), "\(result.standardOutput)")
            }
        }
    }

    @Test("the prober through the binary: suppressed with --allow-filtering (exit 0) and the original without it (exit 1); a double call counted; a crash's last words printed")
    func outcomes() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let probe = { (name: String) in
                try self.write(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}, "probe": "\#(name)"}"#,
                               named: "\(name).json", in: directory)
            }
            var result = try await Sharing.run(["notify", bundle.path, "--payload", try probe("suppress"), "--allow-filtering"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("suppressed, completed: the extension passed content with no title, subtitle or body, and has the filtering entitlement"))
            result = try await Sharing.run(["notify", bundle.path, "--payload", try probe("suppress")])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("the original, completed: the extension passed content with no title, subtitle or body"))
            result = try await Sharing.run(["notify", bundle.path, "--payload", try probe("double"), "--payload", try probe("crash")])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("  finding: handler-called-twice: the content handler was called 2 times for this notification"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("the original, crashed"))
            #expect(result.standardOutput.contains("the probe crashes on purpose"), "\(result.standardOutput)")
        }
    }

    @Test("os_log and Logger write to the extension's log, one line each, formatted as the os module formats them: a crash's last words show them")
    func logging() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let payload = try write(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}, "probe": "log-crash"}"#,
                                    named: "log.json", in: directory)
            let result = try await Sharing.run(["notify", bundle.path, "--payload", payload])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("the original, crashed"), "\(result.standardOutput)")
            let lines = [
                "org.opensharing.prober:service error: Ana has 0 attachments",
                "info: a constant message with a 100% sign",
                "org.opensharing.prober:crash error: code 0xBEEF, [Ana   ] YES 1.50",
                "org.opensharing.prober:crash fault: about to crash: Ana \(CocoaError(.fileNoSuchFile))",
            ]
            for line in lines { #expect(result.standardOutput.contains(line), "\(line) in \(result.standardOutput)") }
        }
    }

    @Test("a communication notification: the content updated from an INSendMessageIntent shows its sender, avatar and group, in the text and the JSON")
    func communication() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let payload = try write(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}, "probe": "communication"}"#,
                                    named: "message.json", in: directory)
            let result = try await Sharing.run(["notify", bundle.path, "--payload", payload])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("  from Ana (ana@example.com), avatar: image data, 2048 bytes, in Lunch crew "
                                                   + "(image at https://example.com/group.png), conversation room-7\n"), "\(result.standardOutput)")
            let json = try await FindingsTests.report(["notify", bundle.path, "--payload", payload])
            let content = ((json.report?["notifications"] as? [[String: Any]])?.first?["content"] as? [String: Any])
            let message = content?["communication"] as? [String: Any]
            #expect(message?["sender"] as? String == "Ana" && message?["avatar"] as? String == "image data, 2048 bytes", "\(json.said)")
            #expect(message?["conversationIdentifier"] as? String == "room-7" && message?["recipients"] as? Int == 0)
            // The interaction it donated reaches the host: in the text and the JSON.
            let donation = "INSendMessageIntent, incoming, from Ana (ana@example.com), in Lunch crew"
            #expect(result.standardOutput.contains("  donated \(donation)\n"), "\(result.standardOutput)")
            #expect((json.report?["notifications"] as? [[String: Any]])?.first?["donated"] as? [String] == [donation], "\(json.said)")

            // An ordinary notification has none.
            let plain = try write(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}}"#, named: "plain.json", in: directory)
            let ordinary = try await Sharing.run(["notify", bundle.path, "--payload", plain])
            #expect(!ordinary.standardOutput.contains("  from ") && !ordinary.standardOutput.contains("donated"), "\(ordinary.standardOutput)")
        }
    }

    @Test("a Darwin notification the service posts reaches its own observer and the report: posted NAME in the text, posted in the JSON")
    func darwinNotification() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let payload = try write(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}, "probe": "darwin"}"#,
                                    named: "darwin.json", in: directory)
            let result = try await Sharing.run(["notify", bundle.path, "--payload", payload])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("  title: heard org.opensharing.prober.newMessage"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("  posted org.opensharing.prober.newMessage\n"), "\(result.standardOutput)")
            let json = try await FindingsTests.report(["notify", bundle.path, "--payload", payload])
            let shown = (json.report?["notifications"] as? [[String: Any]])?.first
            #expect(shown?["posted"] as? [String] == ["org.opensharing.prober.newMessage"], "\(json.said)")
        }
    }

    @Test("a simulator push file (.apns) runs unchanged when its Simulator Target Bundle is the extension's app; naming another app is bad input, exit 2, saying why")
    func simulatorFile() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let mine = try write(#"{"Simulator Target Bundle": "org.opensharing.examples", "aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}}"#,
                                 named: "mine.apns", in: directory)
            var result = try await Sharing.run(["notify", bundle.path, "--payload", mine, "--json"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            let shown = (report?["notifications"] as? [[String: Any]])?.first
            #expect(shown?["delivered"] as? String == "modified" && shown?["status"] as? String == "completed", "\(result.standardOutput)")
            let theirs = try write(#"{"Simulator Target Bundle": "com.example.other", "aps": {"alert": "Hi", "mutable-content": 1}}"#, named: "theirs.apns", in: directory)
            result = try await Sharing.run(["notify", bundle.path, "--payload", theirs])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --payload \(theirs): its Simulator Target Bundle is com.example.other, and NotificationProber "
                    + "(org.opensharing.examples.NotificationProber) extends no such app: the simulator would deliver it to com.example.other, never to this "
                    + "extension; name the extension's app there, or leave the key out\n", "\(result.standardError)")
            let number = try write(#"{"Simulator Target Bundle": 7, "aps": {"alert": "Hi"}}"#, named: "number.apns", in: directory)
            result = try await Sharing.run(["notify", bundle.path, "--payload", number])
            #expect(result.status == 2)
            #expect(result.standardError.contains("Simulator Target Bundle is a number, not an app's bundle identifier"), "\(result.standardError)")
        }
    }

    @Test("a payload Apple accepts but no message could carry to the extension (nested 70 deep, or expanding past 64 KiB) is refused before any process starts, exit 2, saying why")
    func uncarried() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            let deep = String(repeating: #"{"a":"#, count: 70) + "1" + String(repeating: "}", count: 70)
            let nested = try write(#"{"aps": {"alert": {"title": "T"}, "mutable-content": 1}, "deep": \#(deep)}"#, named: "deep.json", in: directory)
            var result = try await Sharing.run(["notify", bundle.path, "--payload", nested])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --payload \(nested) nests 72 deep; the runtime carries a payload at most 64 levels deep to the extension\n", "\(result.standardError)")
            let format = String(repeating: "%1$@", count: 60), argument = String(repeating: "x", count: 1700)
            let expanding = try write(#"{"aps": {"alert": {"title-loc-key": "\#(format)", "title-loc-args": ["\#(argument)"]}, "mutable-content": 1}}"#,
                                      named: "expanding.json", in: directory)
            result = try await Sharing.run(["notify", bundle.path, "--payload", expanding])
            #expect(result.status == 2)
            #expect(result.standardError.contains("once its localization arguments are expanded; the runtime carries at most 65536"), "\(result.standardError)")
        }
    }

    @Test("listing the delivered notifications after several large ones: the answer the host sends fits a message, the newest kept; the extension completes")
    func deliveredFits() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            // Each title expands to 18,000 characters: four of them are more than one message holds.
            let format = String(repeating: "%1$@", count: 60), argument = String(repeating: "y", count: 300)
            var payloads: [String] = []
            for index in 0..<5 {
                let probe = index == 4 ? #", "probe": "center""# : ""
                payloads += ["--payload", try write(#"{"aps": {"alert": {"title-loc-key": "\#(format)", "title-loc-args": ["\#(argument)"], "body": "n\#(index)"}, "mutable-content": 1}\#(probe)}"#,
                                                    named: "large-\(index).json", in: directory)]
            }
            let result = try await Sharing.run(["notify", bundle.path] + payloads + ["--json"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let run = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let last = try #require((run["notifications"] as? [[String: Any]])?.last)
            #expect(last["status"] as? String == "completed")
            let subtitle = try #require((last["content"] as? [String: Any])?["subtitle"] as? String)
            let listed = subtitle.dropFirst("delivered ".count).split(separator: "|")
            #expect(listed.count >= 1 && listed.count < 4, "\(subtitle.prefix(200))")
        }
    }

    @Test("bad input is exit 2 naming what is wrong: a payload over 4096 bytes, one that is not JSON (a trailing comma too), a bundle that is no notification service")
    func badInput() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("SilentService", in: directory)
            let large = try write(#"{"aps": {"alert": "x"}, "p": ""# + String(repeating: "a", count: 5000) + #""}"#, named: "large.json", in: directory)
            var result = try await Sharing.run(["notify", bundle.path, "--payload", large])
            #expect(result.status == 2)
            #expect(result.standardError.contains("--payload \(large) holds 5032 bytes; Apple's push service refuses a payload over 4096"), "\(result.standardError)")
            let broken = try write("{", named: "broken.json", in: directory)
            result = try await Sharing.run(["notify", bundle.path, "--payload", broken])
            #expect(result.status == 2 && result.standardError.contains("--payload \(broken) is not JSON"), "\(result.standardError)")
            // Foundation reads a trailing comma; Apple's push service does not, and neither does notify.
            let trailing = try write("{\"aps\": {\"alert\": \"x\",\n  \"mutable-content\": 1,}}", named: "trailing.json", in: directory)
            result = try await Sharing.run(["notify", bundle.path, "--payload", trailing])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("--payload \(trailing) is not JSON at line 2, column 23: a trailing comma before }: JSON has none"),
                    "\(result.standardError)")
            let share = try ExampleBundle.make("Uppercase", in: directory)
            result = try await Sharing.run(["notify", share.path, "--payload", try write(Self.push, named: "push.json", in: directory)])
            #expect(result.status == 2 && result.standardError.contains("not a notification service (com.apple.usernotifications.service)"), "\(result.standardError)")
            result = try await Sharing.run(["notify", bundle.path])
            #expect(result.status == 2 && result.standardError.contains("Give at least one --payload FILE."))
        }
    }
}
#endif
