// The extension runtime beside its peers (Benchmarks/compare-runtime.sh): a small load's round trip beside a
// bare 64-byte SOCK_SEQPACKET round trip, launch to beginRequest beside spawning a Swift program with
// Foundation that exits, the extension's footprint at beginRequest beside that program's, and how far over
// its limit a runaway allocation gets.
//   RuntimeTiming BUNDLES BARE_FOUNDATION PINGPONG_MEDIAN_NS [RUNS]
import ExtensionRuntime
import Foundation
import OpenItemProvider

func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }

/// Spawns `path` and waits for it: the wall time, and what it printed.
func spawnAndWait(_ path: String) -> (nanoseconds: Int, output: String) {
    var pipe: [Int32] = [0, 0]
    _ = Glibc.pipe(&pipe)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    var child: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
    let start = monotonicNanoseconds()
    posix_spawn(&child, path, &actions, nil, argv, environ)
    close(pipe[1])
    var status: Int32 = 0
    waitpid(child, &status, 0)
    let elapsed = monotonicNanoseconds() - start
    let output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true).readDataToEndOfFile()
    posix_spawn_file_actions_destroy(&actions)
    argv.forEach { free($0) }
    return (elapsed, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: RuntimeTiming BUNDLES BARE_FOUNDATION PINGPONG_MEDIAN_NS [RUNS]\n".utf8))
    exit(2)
}
let bundles = URL(fileURLWithPath: arguments[1])
let bare = arguments[2]
let pingPong = Int(arguments[3]) ?? 0
let runs = arguments.count > 4 ? Int(arguments[4]) ?? 11 : 11
let roundTrip = try ExtensionBundle(url: bundles.appendingPathComponent("RoundTrip.appex"))
let hog = try ExtensionBundle(url: bundles.appendingPathComponent("MemoryHog.appex"))

func sixtyFourBytes() -> [NSExtensionItem] {
    let provider = NSItemProvider()
    provider.registerDataRepresentation(forTypeIdentifier: "public.data", visibility: .all) { completion in
        completion(Data(repeating: 7, count: 64), nil)
        return nil
    }
    let item = NSExtensionItem()
    item.attachments = [provider]
    return [item]
}

var launches: [Int] = [], footprints: [Int] = [], trips: [Int] = [], peerLaunches: [Int] = [], peerFootprints: [Int] = []
// The two alternate, run by run, so that both see the same machine.
for run in 0...runs {
    let start = monotonicNanoseconds()
    let result = try await ExtensionHost().run(roundTrip, items: sixtyFourBytes())
    guard case .completed(let items) = result.outcome, let provider = items.first?.attachments?.first else {
        FileHandle.standardError.write(Data("RoundTrip: \(result.outcome)\n\(result.log)\n".utf8))
        exit(1)
    }
    let item: any NSSecureCoding = try await provider.loadItem(forTypeIdentifier: "public.plain-text", options: nil)
    let text = item as Any as? String ?? ""
    let fields = text.split(separator: " ").compactMap { Int($0) }
    guard fields.count == 3 else {
        FileHandle.standardError.write(Data("RoundTrip returned \"\(text)\"\n".utf8))
        exit(1)
    }
    let peer = spawnAndWait(bare)
    if run == 0 { continue }  // the first of each warms the page cache
    launches.append(fields[0] - start)
    footprints.append(fields[1])
    trips.append(fields[2])
    peerLaunches.append(peer.nanoseconds)
    peerFootprints.append(Int(peer.output) ?? 0)
}
var overshoots: [Int] = []
let limit = 120 << 20
for _ in 0..<5 {
    let result = try await ExtensionHost(limits: ExtensionLimits(memory: limit)).run(hog, items: sixtyFourBytes())
    guard case .interrupted(.memoryLimit(_, let peak)) = result.outcome else {
        FileHandle.standardError.write(Data("MemoryHog: \(result.outcome)\n".utf8))
        exit(1)
    }
    overshoots.append(peak - limit)
}

func microseconds(_ nanoseconds: Int) -> String { String(format: "%.1f µs", Double(nanoseconds) / 1000) }
func milliseconds(_ nanoseconds: Int) -> String { String(format: "%.1f ms", Double(nanoseconds) / 1_000_000) }
func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / Double(1 << 20)) }
print("medians of \(runs) runs (each alternating with its peer); the round trip is the median of 1,000 loads per run")
print(String(repeating: " ", count: 34) + "OpenSharing".padding(toLength: 14, withPad: " ", startingAt: 0) + "peer".padding(toLength: 14, withPad: " ", startingAt: 0) + "ratio / difference")
func row(_ name: String, _ ours: String, _ peer: String, _ comparison: String) {
    print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + ours.padding(toLength: 14, withPad: " ", startingAt: 0)
          + peer.padding(toLength: 14, withPad: " ", startingAt: 0) + comparison)
}
row("small load round trip", microseconds(median(trips)), microseconds(pingPong), String(format: "%.2fx (target <= 20 µs)", Double(median(trips)) / Double(pingPong)))
row("launch to beginRequest", milliseconds(median(launches)), milliseconds(median(peerLaunches)),
    String(format: "%.2fx (target <= 25 ms; peer: spawn to exit)", Double(median(launches)) / Double(median(peerLaunches))))
row("footprint at beginRequest", megabytes(median(footprints)), megabytes(median(peerFootprints)),
    "+" + megabytes(median(footprints) - median(peerFootprints)) + " (target <= 3 MB)")
row("runaway 500 MB/s over 120 MB", "+" + megabytes(overshoots.max() ?? 0) + " max", "-", "target <= 16 MB over (5 runs)")
