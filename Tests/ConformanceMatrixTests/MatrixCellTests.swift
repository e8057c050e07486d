#if os(Linux)
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import Testing

/// A cell is one value: it codes as JSON, renders as the command that runs it, and refuses fields that
/// disagree, naming the field.
@Suite("Matrix cells")
struct MatrixCellTests {
    static let cells: [MatrixCell] = [
        MatrixCell(bundle: "/b/Saver.appex", host: .named("photos"), content: CellContent(files: ["/w/share/photo.jpg"]), faults: [.loadFails(nth: 1)],
                   timeout: 5, appGroup: "/w/cells/0/groups"),
        MatrixCell(bundle: "My Share.appex", host: .named("safari"), content: CellContent(urls: ["https://example.com/a?b=c&d"], texts: ["it's $HOME `x` \"q\"\n; rm -rf /"], title: "Ünïcode"),
                   device: .named("iphone-13"), user: .cancel, faults: [.slowHost(delay: .milliseconds(1500)), .memoryLimit(megabytes: 24)],
                   memoryLimit: 64 << 20, diskLimit: (8 << 20) + 1, timeout: 2.5, ignoresActivation: true),
        MatrixCell(bundle: "/b/Service.appex", payloads: ["/w/payloads/mutable-image.json"], dataStore: "/w/cells/3/store", allowsFiltering: true,
                   device: .named("iphone-se-2"), faults: [.timeLimit(seconds: 2)], timeout: 5, appGroup: "/w/cells/3/groups"),
        MatrixCell(bundle: "/b/Saver.appex", fixture: "Examples/shares/safari.json"),
    ]

    @Test("a cell codes as JSON and reads back the same", arguments: cells)
    func coding(cell: MatrixCell) throws {
        let data = try JSONEncoder().encode(cell)
        #expect(try JSONDecoder().decode(MatrixCell.self, from: data) == cell)
    }

    @Test("its reproduce command, split as a POSIX shell splits it, is its arguments word for word", arguments: cells)
    func reproduce(cell: MatrixCell) async throws {
        let words = try await shellWords(cell.reproduce(program: "/opt/sharing"))
        #expect(words == ["/opt/sharing"] + cell.arguments)
    }

    @Test("the arguments render every field: the share or payloads, device, user, each fault, limits, app group")
    func arguments() {
        #expect(Self.cells[1].arguments == [
            "run", "My Share.appex", "--host", "safari", "--url", "https://example.com/a?b=c&d", "--text", "it's $HOME `x` \"q\"\n; rm -rf /",
            "--title", "Ünïcode", "--user", "cancel", "--device", "iphone-13", "--fault", "slow-host(delay=1500ms)", "--fault", "memory-limit(mb=24)",
            "--memory-limit", "64MB", "--disk-limit", String((8 << 20) + 1), "--timeout", "2.5", "--ignore-activation",
        ])
        #expect(Self.cells[2].arguments == [
            "notify", "/b/Service.appex", "--payload", "/w/payloads/mutable-image.json", "--data-store", "/w/cells/3/store", "--allow-filtering",
            "--device", "iphone-se-2", "--fault", "time-limit(s=2)", "--timeout", "5", "--app-group", "/w/cells/3/groups",
        ])
        #expect(Self.cells[0].identifier == "Saver photos device=iphone-13 user=post fault=load-fails(nth=1)")
        #expect(Self.cells[0].arguments.suffix(8) == ["--device", "iphone-13", "--fault", "load-fails(nth=1)", "--timeout", "5", "--app-group", "/w/cells/0/groups"])
        #expect(MatrixCell(bundle: "/b/X.appex", host: .named("notes"), device: nil).arguments.suffix(2) == ["--device", "none"])
        #expect(Self.cells[2].identifier == "Service payload mutable-image device=iphone-se-2 user=none fault=time-limit(s=2)")
        #expect(MatrixCell(bundle: "/b/X.appex", host: .named("notes"), faults: [.none]).faults.isEmpty)
    }

    @Test("a cell whose fields disagree is refused, naming the field", arguments: [
        (MatrixCell(bundle: "/b/X.appex"), "content"),
        (MatrixCell(bundle: "/b/X.appex", host: .named("notes"), fixture: "f.json"), "fixture"),
        (MatrixCell(bundle: "/b/X.appex", fixture: "f.json", content: CellContent(texts: ["t"])), "fixture"),
        (MatrixCell(bundle: "/b/X.appex", host: .named("safari"), content: CellContent(urls: ["not a url"])), "urls"),
        (MatrixCell(bundle: "/b/X.appex", payloads: ["p.json"], faults: [.loadFails(nth: 1)]), "faults"),
        (MatrixCell(bundle: "/b/X.appex", host: .named("notes"), content: CellContent(texts: ["t"]), timeout: 0), "timeout"),
        (MatrixCell(bundle: "/b/X.appex", host: .named("notes"), content: CellContent(texts: ["t"]), memoryLimit: 1000), "memoryLimit"),
        (MatrixCell(bundle: "", host: .named("notes")), "bundle"),
    ])
    func invalid(cell: MatrixCell, field: String) {
        #expect {
            try cell.validate()
        } throws: { error in
            (error as? CellError)?.code == .invalidCell && (error as? CellError)?.field == field
        }
    }

    @Test("a host, device, user or fault the vocabulary lacks does not decode, and the error says which")
    func unknownValues() {
        for (key, value, said) in [("host", "\"myspace\"", "no host profile is named 'myspace'"), ("device", "\"pixel-9\"", "no device is named 'pixel-9'"),
                                   ("faults", "[\"crash\"]", "no fault is named 'crash'")] {
            let json = #"{"bundle": "/b/X.appex", "user": "post", "\#(key)": \#(value)}"#
            #expect {
                try JSONDecoder().decode(MatrixCell.self, from: Data(json.utf8))
            } throws: { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return false }
                return context.debugDescription.contains(said)
            }
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MatrixCell.self, from: Data(#"{"bundle": "/b/X.appex", "user": "someone"}"#.utf8)) }
    }

    /// The words a POSIX shell makes of `command` (Python's `shlex`, an independent reader).
    func shellWords(_ command: String) async throws -> [String] {
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import json, shlex, sys; print(json.dumps(shlex.split(sys.argv[1])))", command]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([String].self, from: data)
    }
}
#endif
