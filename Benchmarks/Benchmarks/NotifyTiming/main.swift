// A notification's round trip through a service that only edits the title (Benchmarks/compare-notify.sh):
// payload bytes to the shown notification, for the first notification (the process started for it) beside
// spawning a bare Foundation program that exits, and for each later one through the same process; and the
// service's peak footprint beside that program's.
//   NotifyTiming TITLE_EDITOR.appex BARE_FOUNDATION [RUNS]
#if os(Linux)
import ExtensionRuntime
import Foundation

func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }

/// Runs `path` and waits for it: the wall time, and what it printed.
func spawnAndWait(_ path: String) throws -> (nanoseconds: Int, output: String) {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: path)
    process.standardOutput = output
    let start = monotonicNanoseconds()
    try process.run()
    process.waitUntilExit()
    let elapsed = monotonicNanoseconds() - start
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    return (elapsed, String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: NotifyTiming TITLE_EDITOR.appex BARE_FOUNDATION [RUNS]\n".utf8))
    exit(2)
}
let bundle = try ExtensionBundle(url: URL(fileURLWithPath: arguments[1]))
let bare = arguments[2]
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 11 : 11
let json = Data(#"{"aps": {"alert": {"title": "Ana", "body": "Lunch at noon?"}, "mutable-content": 1, "thread-id": "chat-7"}, "id": 42}"#.utf8)
let store = FileManager.default.temporaryDirectory.appendingPathComponent("notify-timing-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: store) }
let host = ExtensionHost()

var firsts: [Int] = [], peers: [Int] = [], footprints: [Int] = [], peerFootprints: [Int] = [], laters: [Int] = []
for _ in 0..<runs {
    // The first notification: payload bytes read, a process started, the content shown.
    var start = monotonicNanoseconds()
    var runsOfOne = try await host.deliver([try PushPayload(json: json, name: "push.json")], to: bundle, dataStore: store)
    firsts.append(monotonicNanoseconds() - start)
    guard runsOfOne.deliveries[0].content.title == "Edited: Ana" else { fatalError("not edited: \(runsOfOne.deliveries[0])") }
    footprints.append(runsOfOne.deliveries[0].peakFootprint)
    let peer = try spawnAndWait(bare)
    peers.append(peer.nanoseconds)
    peerFootprints.append(Int(peer.output) ?? 0)
    // A hundred through one process: each after the first costs the round trip alone.
    let hundred = try (0..<101).map { index in try PushPayload(json: json, name: "push-\(index).json") }
    start = monotonicNanoseconds()
    runsOfOne = try await host.deliver(Array(hundred.prefix(1)), to: bundle, dataStore: store)
    let one = monotonicNanoseconds() - start
    start = monotonicNanoseconds()
    let many = try await host.deliver(hundred, to: bundle, dataStore: store)
    let all = monotonicNanoseconds() - start
    guard many.processes.count == 1, many.deliveries.allSatisfy({ $0.shown == .modified }) else { fatalError("not one process") }
    laters.append((all - one) / 100)
}

func milliseconds(_ nanoseconds: Int) -> String { String(format: "%.2f ms", Double(nanoseconds) / 1e6) }
func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / Double(1 << 20)) }
func row(_ name: String, _ ours: String, _ peer: String, _ note: String) {
    print(name.padding(toLength: 40, withPad: " ", startingAt: 0), ours.padding(toLength: 12, withPad: " ", startingAt: 0),
          peer.padding(toLength: 12, withPad: " ", startingAt: 0), note)
}
row("(median of \(runs))", "ours", "peer", "")
row("first notification: payload to shown", milliseconds(median(firsts)), milliseconds(median(peers)),
    String(format: "%.2fx a bare Foundation program's spawn and exit", Double(median(firsts)) / Double(median(peers))))
row("each later one, same process", milliseconds(median(laters)), "", "(100 through one process, less the first)")
row("service's peak footprint", megabytes(median(footprints)), megabytes(median(peerFootprints)),
    "+" + megabytes(median(footprints) - median(peerFootprints)) + " (target <= 3 MB)")
#endif
