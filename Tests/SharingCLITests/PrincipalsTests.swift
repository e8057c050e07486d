#if os(Linux)
import Foundation
import Testing

/// What `sharing run` reports of a view-controller principal, its user, its alerts, its work after completion,
/// and the device it runs on: through the binary, on the example extensions.
@Suite("sharing run: view controllers, users, alerts, work after completion, devices")
struct PrincipalsTests {
    private static let photo = repositoryRoot.appending(path: "Examples/files/sunset.jpg").path

    private func json(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test("the compose sheet's scripted user: post completes (the photo saved), cancel cancels (as expected: exit 0), none runs out of time", arguments: [
        ("post", "completed", 0), ("cancel", "cancelled", 0), ("none", "interrupted-timeout", 1),
    ])
    func composeSheetUsers(user: String, status: String, exit: Int32) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("DownsamplingResizer", in: directory)
            let groups = directory.appending(path: "groups")
            // Time runs out only for the user who does nothing.
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--user", user,
                                                "--app-group", groups.path, "--json"] + (user == "none" ? ["--timeout", "3"] : []))
            #expect(result.status == exit, "\(result.standardOutput)\(result.standardError)")
            let report = try json(result.standardOutput)
            #expect(report["status"] as? String == status)
            #expect((report["cell"] as? [String: Any])?["user"] as? String == user)
            let saved = FileManager.default.fileExists(atPath: groups.appending(path: "group.org.opensharing.examples/Uploads/resized.jpg").path)
            #expect(saved == (user == "post"))
            if user == "cancel" {
                let error = try #require(report["error"] as? [String: String])
                #expect(error["domain"] == "NSCocoaErrorDomain" && error["code"] == "3072")
            }
        }
    }

    @Test("an alert the extension presents is in the report with the action the user chose; Cancel there cancels the request")
    func alerts() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("UploadShare", in: directory)
            for (user, chosen, status) in [("post", "Upload", "completed"), ("cancel", "Cancel", "cancelled")] {
                let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--user", user,
                                                    "--app-group", directory.appending(path: "groups-\(user)").path, "--json"])
                let report = try json(result.standardOutput)
                #expect(report["status"] as? String == status)
                let alert = try #require((report["alerts"] as? [[String: Any]])?.first)
                #expect(alert["title"] as? String == "Upload 1 file?")
                #expect(alert["message"] as? String == "1 preview")
                #expect(alert["actions"] as? [String] == ["Cancel (cancel)", "Upload (default)"])
                #expect(alert["chosen"] as? String == chosen)
            }
            let text = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--user", "none", "--timeout", "3",
                                              "--app-group", directory.appending(path: "groups-none").path])
            #expect(text.standardOutput.contains("alert: \"Upload 1 file?\" \"1 preview\" [Cancel (cancel), Upload (default)]: the user chose nothing"),
                    "\(text.standardOutput)")
            #expect(text.standardOutput.contains("UploadShare: interrupted-timeout"))
        }
    }

    @Test("a share with nothing it can upload (its file's load fails) is cancelled, saying so, never completed with nothing kept")
    func nothingToUpload() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("UploadShare", in: directory)
            // Photos' second representation is the file itself: its load fails, and only the preview's succeeds.
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--fault", "load-fails(nth=2)",
                                                "--app-group", directory.appending(path: "groups").path, "--json"])
            let report = try json(result.standardOutput)
            #expect(report["status"] as? String == "cancelled", "\(result.standardOutput)")
            let error = try #require(report["error"] as? [String: String])
            #expect(error["domain"] == "NSCocoaErrorDomain" && error["code"] == "3328" && error["description"] == "Nothing in this share can be uploaded.")
            #expect((report["alerts"] as? [Any])?.isEmpty == true)
            #expect((report["findings"] as? [[String: Any]])?.contains { $0["code"] as? String == "nothing-kept" } == false)
        }
    }

    @Test("work after completion: the upload runs after the request completed; one longer than the time after completion is told it expired, and is work lost at exit, in run and in test")
    func afterCompletion() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("UploadShare", in: directory)
            let groups = directory.appending(path: "groups")
            let quick = try json(try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--app-group", groups.path,
                                                        "--json"]).standardOutput)
            #expect(quick["status"] as? String == "completed")
            // One file, a quarter second a megabyte: it lived on after completing (how long, as the host saw it, is
            // the machine's load's to say), and finished.
            #expect((quick["livedAfterCompletion"] as? Double ?? 0) > 0)
            #expect(quick["afterCompletionExpired"] as? Bool == false)
            #expect((quick["findings"] as? [[String: Any]])?.contains { $0["code"] as? String == "work-lost-at-exit" } == false)
            #expect(FileManager.default.fileExists(atPath: groups.appending(path: "group.org.opensharing.examples/Uploads/sunset.jpeg").path))
            // 24 MB at 4 MB a second outlasts the 5 seconds after completion: the upload is told, stops, and says where.
            let large = directory.appending(path: "large.bin")
            try Data(repeating: 7, count: 24 << 20).write(to: large)
            let slowRun = try await Sharing.run(["run", bundle.path, "--host", "files", "--file", large.path, "--app-group", groups.path, "--json"])
            let slow = try json(slowRun.standardOutput)
            #expect(slow["status"] as? String == "completed")
            #expect(slow["afterCompletionExpired"] as? Bool == true)
            // Completed, and its upload lost: a finding that fails the run.
            let lost = (slow["findings"] as? [[String: Any]])?.first { $0["code"] as? String == "work-lost-at-exit" }
            #expect(lost?["severity"] as? String == "fail" && slowRun.status == 1, "\(slowRun.standardOutput)")
            // At least its five seconds; how much longer, as the host's clock saw it, is the machine's load's to say
            // (the budget is charged as a device charges it, never the time it waited for a core).
            let lived = try #require(slow["livedAfterCompletion"] as? Double)
            #expect(lived >= 5, "\(lived)")
            let note = try String(contentsOf: groups.appending(path: "group.org.opensharing.examples/Uploads/INCOMPLETE"), encoding: .utf8)
            #expect(note.hasPrefix("stopped at large.bin, byte "))
            // The matrix of the same share: its cell not as expected by default, the finding under it.
            let matrix = try await Sharing.run(["test", bundle.path, "--hosts", "files", "--file", large.path, "--faults", "none",
                                                "--devices", "iphone-13", "--work", directory.appending(path: "work").path])
            #expect(matrix.status == 1, "\(matrix.standardOutput)")
            #expect(matrix.standardOutput.contains("UploadShare files device=iphone-13 user=post fault=none: completed\n  finding: work-lost-at-exit: "),
                    "\(matrix.standardOutput)")
        }
    }

    @Test("a device's screen scale reaches the extension: the naive resize renders at it (800 × 1200 points); with no --device at 3×, and with --device none too", arguments: [
        (["--device", "iphone-se-2"], "1600x2400"), (["--device", "iphone-13"], "2400x3600"), ([], "2400x3600"), (["--device", "none"], "2400x3600"),
    ] as [([String], String)])
    func deviceScale(device: [String], pixels: String) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NaiveResizer", in: directory)
            let groups = directory.appending(path: "groups")
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--app-group", groups.path] + device)
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let output = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", "import sys; from PIL import Image; print('%dx%d' % Image.open(sys.argv[1]).size)",
                                 groups.appending(path: "group.org.opensharing.examples/Uploads/resized.jpg").path]
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "\(pixels)\n")
        }
    }

    @Test("a compose sheet whose Post never ends the request is out of time with what the user did named; with no user, the bare timeout",
          arguments: [("post", "interrupted-timeout: out of time (request): Post was tapped and the request was never ended (didSelectPost() must complete or cancel it)"),
                      ("none", "interrupted-timeout: out of time (request)\n")])
    func postNeverEnded(user: String, said: String) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ForgetfulPost", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "milk", "--user", user, "--timeout", "2"])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("ForgetfulPost: " + said), "\(result.standardOutput)")
        }
    }

    @Test("with no --device a phone is played: a 10 MP photo resized through UIImage is ended for memory on the default 3× phone (iPhone 13, 120 MB) and completes on iphone-se-2",
          arguments: [([], 1), (["--device", "iphone-se-2"], 0)] as [([String], Int32)])
    func defaultDevice(device: [String], exit: Int32) async throws {
        try await withTemporaryDirectory { directory in
            let photo = directory.appending(path: "photo-10mp.jpg")
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            make.arguments = ["python3", "-c", """
                import sys
                from PIL import Image
                size = (3600, 2700)
                ramp = Image.linear_gradient("L").resize(size)
                Image.merge("RGB", (ramp, ramp.rotate(90).resize(size), Image.new("L", size, 128))).save(sys.argv[1], quality=85)
                """, photo.path]
            try make.run()
            make.waitUntilExit()
            let bundle = try ExampleBundle.make("NaiveResizer", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", photo.path, "--app-group", directory.appending(path: "groups").path,
                                                "--json"] + device)
            #expect(result.status == exit, "\(result.standardOutput)\(result.standardError)")
            let report = try json(result.standardOutput)
            #expect(report["status"] as? String == (exit == 0 ? "completed" : "interrupted-memory"))
            #expect((report["cell"] as? [String: Any])?["device"] as? String == (device.isEmpty ? "iphone-13" : "iphone-se-2"))
        }
    }

    @Test("the memory limit: an explicit --memory-limit wins over the device's, which wins over the extension point's", arguments: [
        ([String](), 120 << 20), (["--device", "iphone-15-pro"], 180 << 20), (["--device", "iphone-se-2"], 110 << 20),
        (["--device", "iphone-15-pro", "--memory-limit", "64MB"], 64 << 20),
    ])
    func limitPrecedence(options: [String], limit: Int) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let report = try json(try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi", "--json"] + options).standardOutput)
            #expect(report["memoryLimit"] as? Int == limit)
        }
    }

    @Test("--list-devices prints each device with its figures' sources; an unknown device or user is bad input")
    func devicesAndBadInput() async throws {
        let list = try await Sharing.run(["run", "--list-devices"])
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("iphone-13: iPhone 13, iOS 26.0, scale 3, 390 × 844 points; memory: share 120.0 MB, notification service 24.0 MB"))
        #expect(list.standardOutput.contains("iphone-5s: iPhone 5s (iOS 12 at most), iOS 12.5.7, scale 2"))
        #expect(list.standardOutput.contains("source: https://github.com/signalapp/Signal-iOS/issues/4220"))
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let device = try await Sharing.run(["run", bundle.path, "--text", "hi", "--device", "nokia-3310"])
            #expect(device.status == 2)
            #expect(device.standardError.contains("--device nokia-3310 is not a device known here"))
            let user = try await Sharing.run(["run", bundle.path, "--text", "hi", "--user", "maybe"])
            #expect(user.status == 2)
            #expect(user.standardError.contains("--user takes post, cancel or none, not maybe."))
        }
    }
}
#endif
