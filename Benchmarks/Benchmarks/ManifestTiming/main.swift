// Times reading, linting and matching extension manifests, each beside a peer where one exists:
// Foundation's PropertyListSerialization for reading, and the same activation decision written by hand in
// Swift for evaluating a rule. Prints one row per operation: microseconds per operation for us, for the
// peer, and the ratio (ours / peer's).
import ExtensionManifest
import Foundation
import HostProfiles
import SharingShim

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// Microseconds per call of `body`, run for at least half a second after a warm-up.
func microseconds(_ body: () -> Int) -> Double {
    var checksum = 0
    for _ in 0..<10 { checksum &+= body() }
    var calls = 0
    let start = ContinuousClock.now
    var elapsed = Duration.zero
    while elapsed < .milliseconds(500) {
        for _ in 0..<10 { checksum &+= body() }
        calls += 10
        elapsed = ContinuousClock.now - start
    }
    precondition(checksum != 42, "keeps the work from being optimized away")
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(calls)
}

func row(_ name: String, _ ours: Double, _ peer: Double?) {
    let peerText = peer.map { String(format: "%10.2f µs", $0) } ?? String(repeating: " ", count: 13)
    let ratio = peer.map { String(format: "%7.2fx", ours / $0) } ?? "       -"
    print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%10.2f µs", ours) + " " + peerText + " " + ratio)
}

// The corpus: 34 extension Info.plists from public apps, and each as a binary property list.
let corpusDirectory = repository.appendingPathComponent("Tests/Fixtures/extension-manifests")
let folders = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path).filter { !$0.hasSuffix(".md") }.sorted()
let xml = try folders.map { try Data(contentsOf: corpusDirectory.appendingPathComponent("\($0)/Info.plist")) }
let binary = try xml.map { data in
    try PropertyListSerialization.data(fromPropertyList: try PropertyListSerialization.propertyList(from: data, format: nil),
                                       format: .binary, options: 0)
}
let manifests = try xml.map { try ExtensionManifest(data: $0) }
let rules = manifests.compactMap(\.activationRule)

// The shares: every host profile's example fixture.
let sharesDirectory = repository.appendingPathComponent("Examples/shares")
let inputs = try FileManager.default.contentsOfDirectory(atPath: sharesDirectory.path).filter { $0.hasSuffix(".json") }.sorted().map { name in
    ActivationInput(try ShareFixture.read(from: sharesDirectory.appendingPathComponent(name)).makeItems(relativeTo: sharesDirectory))
}

print("operation".padding(toLength: 34, withPad: " ", startingAt: 0) + "   OpenSharing          peer    ratio")
print("corpus: \(xml.count) Info.plists, \(rules.count) rules; \(inputs.count) host shares")

row("read an Info.plist (XML)",
    microseconds { xml.reduce(0) { $0 + ((try? ExtensionManifest(data: $1)) == nil ? 0 : 1) } } / Double(xml.count),
    microseconds { xml.reduce(0) { $0 + ((try? PropertyListSerialization.propertyList(from: $1, format: nil)) == nil ? 0 : 1) } } / Double(xml.count))
row("read an Info.plist (binary)",
    microseconds { binary.reduce(0) { $0 + ((try? ExtensionManifest(data: $1)) == nil ? 0 : 1) } } / Double(binary.count),
    microseconds { binary.reduce(0) { $0 + ((try? PropertyListSerialization.propertyList(from: $1, format: nil)) == nil ? 0 : 1) } } / Double(binary.count))
row("lint an Info.plist (read first)",
    microseconds { xml.reduce(0) { $0 + ((try? ExtensionManifest(data: $1)).map { ManifestLinter.lint($0).count } ?? 0) } } / Double(xml.count),
    nil)
row("match a rule against a share",
    microseconds { rules.reduce(0) { sum, rule in inputs.reduce(sum) { $0 + ((try? rule.evaluate($1).matches) == true ? 1 : 0) } } }
        / Double(rules.count * inputs.count),
    nil)

// A typical rule, beside the same decision hand-written: what an app checks when it has no rule engine.
let photos = try ActivationInput(ShareFixture.read(from: sharesDirectory.appendingPathComponent("photos.json")).makeItems(relativeTo: sharesDirectory))
let safari = try ActivationInput(ShareFixture.read(from: sharesDirectory.appendingPathComponent("safari.json")).makeItems(relativeTo: sharesDirectory))
let photoSaver = try ExtensionManifest.read(contentsOf: repository.appendingPathComponent("Examples/manifests/PhotoSaver.plist")).activationRule!
let linkSaver = try ExtensionManifest.read(contentsOf: repository.appendingPathComponent("Examples/manifests/LinkSaver.plist")).activationRule!

/// PhotoSaver's dictionary (images up to 10, movies up to 1, strict), by hand.
func photoSaverAccepts(_ items: [[[String]]]) -> Bool {
    var images = 0, movies = 0, total = 0
    for attachment in items.joined() {
        total += 1
        let types = attachment.compactMap { UTType($0) }
        if types.contains(where: { $0.conforms(to: .image) }) { images += 1 }
        else if types.contains(where: { $0.conforms(to: .movie) }) { movies += 1 }
        else { return false }
    }
    return total > 0 && images <= 10 && movies <= 1
}

/// LinkSaver's predicate (some item whose attachments are all web URLs), by hand.
func linkSaverAccepts(_ items: [[[String]]]) -> Bool {
    items.contains { attachments in
        attachments.allSatisfy { types in
            let resolved = types.compactMap { UTType($0) }
            return resolved.contains { $0.conforms(to: .url) } && !resolved.contains { $0.conforms(to: .fileURL) }
        }
    }
}

// Both ways must decide alike, on every share, before their times mean anything.
for input in inputs {
    let (photoSaverMatches, linkSaverMatches) = (try photoSaver.evaluate(input).matches, try linkSaver.evaluate(input).matches)
    precondition(photoSaverMatches == photoSaverAccepts(input.items), "PhotoSaver on \(input.items)")
    precondition(linkSaverMatches == linkSaverAccepts(input.items), "LinkSaver on \(input.items)")
}
row("dictionary rule, Photos share",
    microseconds { (try? photoSaver.evaluate(photos).matches) == true ? 1 : 0 },
    microseconds { photoSaverAccepts(photos.items) ? 1 : 0 })
row("predicate rule, Safari share",
    microseconds { (try? linkSaver.evaluate(safari).matches) == true ? 1 : 0 },
    microseconds { linkSaverAccepts(safari.items) ? 1 : 0 })
