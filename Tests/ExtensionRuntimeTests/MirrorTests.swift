@testable import ExtensionRuntime
import Foundation
import HostProfiles
import OpenItemProvider
import Testing

/// What a host's share gives an extension must be the same in one process and across the boundary: the
/// extension `ShareProber` probes every representation three ways (data, file, item) inside its process, and
/// the test probes the same share here.
@Suite("Every host behaviour survives the boundary")
struct MirrorTests {
    static let shares = ((try? FileManager.default.contentsOfDirectory(atPath: ExampleBundles.repository.appendingPathComponent("Examples/shares").path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    /// A probe's outcome as it can be compared across processes: a file the host can read reaches the
    /// extension as a copy in its container, so only its name counts; a path the host cannot read must be
    /// the same path exactly (Messages' unreadable attachment paths).
    private static func comparable(_ outcome: ShareProbe.Outcome) -> String {
        guard case .delivered(let text) = outcome, text.hasPrefix("NSURL file://"), let url = URL(string: String(text.dropFirst(6))),
              FileManager.default.fileExists(atPath: url.path) || url.path.hasPrefix(Container.root.path + "/") else { return outcome.description }
        return "NSURL file://…/\(url.lastPathComponent)"
    }

    private static func comparable(_ probe: ShareProbe) -> [String] {
        probe.items.flatMap { item -> [String] in
            ["item \(item.title ?? "-") \(item.contentText ?? "-") \(item.attachments.map { "\($0.count) attachments" } ?? "no attachments")"]
                + (item.attachments ?? []).flatMap { attachment in
                    attachment.representations.map { representation in
                        "\(attachment.suggestedName ?? "-") \(representation.type): data \(comparable(representation.data)); "
                            + "file \(comparable(representation.file)); item \(comparable(representation.item))"
                    }
                }
        }
    }

    @Test("a host profile's share gives an extension process what it gives in one process, load by load", arguments: shares)
    func sameAcrossTheBoundary(share: String) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let here = await ShareProbe.probe(try ExampleBundles.share(share))
        let bundle = try ExtensionBundle(url: ExampleBundles.make("ShareProber", in: directory))
        let run = try await ExtensionHost().run(bundle, items: try ExampleBundles.share(share))
        guard case .completed(let items) = run.outcome, let provider = items.first?.attachments?.first else {
            Issue.record("\(run.outcome): \(run.log)")
            return
        }
        let json = try #require(try await provider.loadItem(forTypeIdentifier: "public.json", options: nil) as Any as? String)
        let there = try JSONDecoder().decode(ShareProbe.self, from: Data(json.utf8))
        #expect(Self.comparable(there) == Self.comparable(here))
    }

    @Test("property-list items cross both ways: Safari's JavaScript results in, a dictionary back out")
    func propertyListsBothWays() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("ShareProber", in: directory))
        let run = try await ExtensionHost().run(bundle, items: try ExampleBundles.share("safari-javascript"))
        guard case .completed(let items) = run.outcome, let attachments = items.first?.attachments, attachments.count == 2 else {
            Issue.record("\(run.outcome): \(run.log)")
            return
        }
        // In: the extension's loadItem gave it a dictionary.
        let json = try #require(try await attachments[0].loadItem(forTypeIdentifier: "public.json", options: nil) as Any as? String)
        #expect(json.contains("NSDictionary keys NSExtensionJavaScriptPreprocessingResultsKey"))
        // Out: the dictionary it returned loads here as one.
        let returned = try #require(try await attachments[1].loadItem(forTypeIdentifier: "com.apple.property-list", options: nil) as? NSDictionary)
        #expect(returned["items"] as? NSNumber == 1)
        #expect(returned["probe"] as? NSString == json as NSString)
        #expect(run.returned.map(\.form) == [.item, .item])
    }

    @Test("strings and property lists too large for a message cross in a sealed memory file, both ways, as an XPC message carries them")
    func largeItemsBothWays() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("ShareProber", in: directory))
        // A note of 60,000 characters: over the 48 KiB an item crosses in a message.
        let note = String(repeating: "Lorem ipsum dolor sit amet. ", count: 2143)
        let item = NSExtensionItem()
        item.attachments = [NSItemProvider(item: note as NSString, typeIdentifier: "public.utf8-plain-text")]
        let run = try await ExtensionHost().run(bundle, items: [item])
        guard case .completed(let items) = run.outcome, let attachments = items.first?.attachments, attachments.count == 2 else {
            Issue.record("\(run.outcome): \(run.log)")
            return
        }
        // In: the extension's loadItem gave it the whole string.
        let json = try #require(try await attachments[0].loadItem(forTypeIdentifier: "public.json", options: nil) as Any as? String)
        #expect(json.contains("NSString \\\"\(note)\\\""))
        // Out: the JSON it returned (over the item limit itself) and the dictionary holding it load here whole.
        #expect(json.utf8.count > 48 << 10)
        let returned = try #require(try await attachments[1].loadItem(forTypeIdentifier: "com.apple.property-list", options: nil) as? NSDictionary)
        #expect(returned["probe"] as? NSString == json as NSString)
        #expect(!run.log.contains("the request completes with none"), "\(run.log)")
    }

    @Test("returned items that together outgrow a message have their largest payloads carried in memory files: the completion keeps every one")
    func returnedItemsOutgrowingAMessage() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("ShareProber", in: directory))
        // A note of 11,200 characters as the item and as the content text, under a title outside ASCII (as the fuzzer's
        // share that found it): the probe's JSON is under the item limit, and it is returned twice, as JSON and in a
        // dictionary whose binary property list keeps the string as UTF-16: more than a message holds in all.
        let note = String(repeating: "Lorem ipsum dolor sit amet. ", count: 400)
        let item = NSExtensionItem()
        item.attributedTitle = NSAttributedString(string: "Ünïcödé title")
        item.attributedContentText = NSAttributedString(string: note)
        item.attachments = [NSItemProvider(item: note as NSString, typeIdentifier: "public.utf8-plain-text")]
        let run = try await ExtensionHost().run(bundle, items: [item])
        guard case .completed(let items) = run.outcome, let attachments = items.first?.attachments, attachments.count == 2 else {
            Issue.record("\(run.outcome): \(run.log)")
            return
        }
        let json = try #require(try await attachments[0].loadItem(forTypeIdentifier: "public.json", options: nil) as Any as? String)
        let returned = try #require(try await attachments[1].loadItem(forTypeIdentifier: "com.apple.property-list", options: nil) as? NSDictionary)
        #expect(returned["probe"] as? NSString == json as NSString)
        let plist = try PropertyListSerialization.data(fromPropertyList: returned, format: .binary, options: 0)
        #expect(json.utf8.count < 48 << 10 && plist.count < 48 << 10 && json.utf8.count + plist.count > 64 << 10, "\(json.utf8.count) + \(plist.count)")
    }
}
