// The peer of the runtime's start-up and memory: a Swift program with Foundation, doing what any extension's
// process does before its principal runs (Foundation loaded, Bundle.main read, the main queue run once), then
// printing its own footprint (private dirty memory plus swap, as the runtime's supervisor counts it) and exiting.
import Foundation

_ = Bundle.main.infoDictionary
DispatchQueue.main.async {
    let text = (try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)) ?? ""
    let kilobytes = text.split(separator: "\n").filter { $0.hasPrefix("Private_Dirty:") || $0.hasPrefix("Swap:") }
        .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } }
        .reduce(0, +)
    print(kilobytes * 1024)
    exit(0)
}
dispatchMain()
