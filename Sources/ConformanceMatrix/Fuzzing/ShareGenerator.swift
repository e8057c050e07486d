import Foundation
import HostProfiles
import OpenItemProvider

/// Makes the shares the fuzzer runs: each one a host profile's own way of sharing (what a real app sends, its
/// types, forms and order) of content drawn from the materials, then changed the ways hosts are seen to differ —
/// an item with no `attachments` key or an empty list, no items at all, representations in another order, a
/// declared type that is dynamic or vague, loads that fail or answer late, an item object of another class,
/// names outside ASCII, 200 bytes long or with no or the wrong extension, content text missing, empty or outside
/// ASCII, several photos at once, an item twice.
///
/// Share `index` is a function of the seed and the index alone, so a run is replayed by its seed, and a shard
/// makes its own part of the same sequence.
struct ShareGenerator: Sendable {
    let hosts: [HostProfile]
    let materials: FuzzMaterials
    let seed: UInt64

    /// The most photos one share holds: more than any share extension's rule in the corpus admits at once.
    static let mostPhotos = 12

    /// The share numbered `index`.
    func share(_ index: Int) -> ShareFixture {
        var random = SeededGenerator(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        var fixture = base(&random)
        for _ in 0..<Int.random(in: 0...2, using: &random) { mutate(&fixture, &random) }
        return fixture
    }

    /// A host profile's share of content it shares (the first profile, from one drawn, that can share what was drawn).
    private func base(_ random: inout SeededGenerator) -> ShareFixture {
        let start = Int.random(in: 0..<hosts.count, using: &random)
        for offset in 0..<hosts.count {
            let host = hosts[(start + offset) % hosts.count]
            if let fixture = try? host.share(content(for: host, &random)) { return fixture }
        }
        return ShareFixture(summary: "nothing any of the hosts shares", items: [])
    }

    /// Content of the kinds `host` shares, drawn: photos from the library (most often one, up to
    /// `mostPhotos`), images, documents, a URL, a text and a title.
    private func content(for host: HostProfile, _ random: inout SeededGenerator) -> SharedContent {
        let kinds = host.shares
        func draw(_ pool: [URL], _ counts: ClosedRange<Int>) -> [URL] {
            (0..<Int.random(in: counts, using: &random)).map { _ in pool.randomElement(using: &random)! }
        }
        var files: [URL] = []
        if kinds.contains(.libraryPhoto) {
            files += draw([materials.largePhoto, materials.photo], Int.random(in: 0..<10, using: &random) < 7 ? 1...1 : 2...Self.mostPhotos)
        }
        if kinds.contains(.image) { files += draw(materials.images, 1...3) }
        if kinds.contains(.livePhotoStill) { files += draw([materials.still, materials.photo], 1...1) }
        if kinds.contains(.document) { files += draw(materials.documents, 1...2) }
        let urls = [URL(string: "https://example.com/articles/sharing")!, URL(string: "https://example.com/caf%C3%A9?q=%C3%BC&x=1")!,
                    URL(string: "https://example.com/" + String(repeating: "long/", count: 60))!, URL(string: "mailto:someone@example.com")!]
        let texts = ["Shopping: milk, bread, apples", "", "Grüße aus Köln — 東京 🎉", String(repeating: "Lorem ipsum dolor sit amet. ", count: 400)]
        let titles: [String?] = [nil, "Sharing", "Ünïcödé title", ""]
        return SharedContent(files: files, urls: kinds.contains(.webPage) ? [urls.randomElement(using: &random)!] : [],
                             texts: kinds.contains(.text) ? [texts.randomElement(using: &random)!] : [],
                             title: kinds.contains(.title) ? titles.randomElement(using: &random)! : nil)
    }

    /// One change of the ways hosts differ.
    private func mutate(_ fixture: inout ShareFixture, _ random: inout SeededGenerator) {
        let mutations: [(inout ShareFixture, inout SeededGenerator) -> Void] = [
            { fixture, random in Self.changeItem(&fixture, &random) { item, _ in item.attachments = nil } },
            { fixture, random in Self.changeItem(&fixture, &random) { item, _ in item.attachments = [] } },
            { fixture, _ in fixture.items = [] },
            { fixture, random in
                guard let item = fixture.items.randomElement(using: &random) else { return }
                fixture.items.append(item)
            },
            { fixture, random in Self.changeItem(&fixture, &random) { item, random in
                item.contentText = [nil, "", "Grüße 🎉"].randomElement(using: &random)!
            } },
            { fixture, random in Self.changeAttachment(&fixture, &random) { attachment, _ in attachment.representations.reverse() } },
            { fixture, random in Self.changeAttachment(&fixture, &random) { attachment, random in
                attachment.suggestedName = ([nil] + FuzzMaterials.awkwardNames).randomElement(using: &random)!
            } },
            { [materials] fixture, random in Self.changeAttachment(&fixture, &random) { attachment, random in
                // The same bytes as a file of an awkward name.
                guard let index = attachment.representations.indices.randomElement(using: &random),
                      case .file = attachment.representations[index].payload else { return }
                attachment.representations[index].payload = .file(materials.renamedPhotos.randomElement(using: &random)!.path)
            } },
            { fixture, random in Self.changeRepresentation(&fixture, &random) { representation, random in
                // An object registers the type its class does.
                guard representation.provide != .object else { return }
                representation.type = [FuzzMaterials.dynamicType, "public.image", "public.data", "public.item"].randomElement(using: &random)!
            } },
            { fixture, random in Self.changeRepresentation(&fixture, &random) { representation, _ in
                representation.fault = .fails(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.itemUnavailableError.rawValue,
                                              message: "the host could not provide it", whenAskedFor: nil)
            } },
            { fixture, random in Self.changeRepresentation(&fixture, &random) { representation, random in
                representation.fault = .slow(seconds: [0.05, 0.25].randomElement(using: &random)!)
            } },
            { fixture, random in Self.changeRepresentation(&fixture, &random) { representation, random in
                guard representation.provide == .item else { return }
                representation.fault = .unexpectedClass([.text("not what the type says"), .url("https://example.com/other")].randomElement(using: &random)!)
            } },
        ]
        mutations.randomElement(using: &random)!(&fixture, &random)
    }

    private static func changeItem(_ fixture: inout ShareFixture, _ random: inout SeededGenerator,
                                   _ change: (inout ShareFixture.Item, inout SeededGenerator) -> Void) {
        guard let index = fixture.items.indices.randomElement(using: &random) else { return }
        change(&fixture.items[index], &random)
    }

    private static func changeAttachment(_ fixture: inout ShareFixture, _ random: inout SeededGenerator,
                                         _ change: (inout ShareFixture.Attachment, inout SeededGenerator) -> Void) {
        changeItem(&fixture, &random) { item, random in
            guard let attachments = item.attachments, let index = attachments.indices.randomElement(using: &random) else { return }
            change(&item.attachments![index], &random)
        }
    }

    private static func changeRepresentation(_ fixture: inout ShareFixture, _ random: inout SeededGenerator,
                                             _ change: (inout ShareFixture.Representation, inout SeededGenerator) -> Void) {
        changeAttachment(&fixture, &random) { attachment, random in
            guard let index = attachment.representations.indices.randomElement(using: &random) else { return }
            change(&attachment.representations[index], &random)
        }
    }
}
