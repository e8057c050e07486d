import Foundation
import SharingShim

extension HostProfile {
    static let degenerateProfiles: [HostProfile] = [
        // The API allows a request with no input items at all; extensions that index inputItems[0] crash.
        // openradar 19425971 (lionheart/openradar-mirror#11232) shows hosts sending less than expected.
        HostProfile(
            name: "empty", host: "(degenerate) no items", shares: [], sends: "no extension items at all",
            trap: "inputItems[0] crashes", report: "https://github.com/lionheart/openradar-mirror/issues/11232"
        ) { _ throws(HostProfileError) in
            ShareFixture(summary: "a request with no items", items: [])
        },
        HostProfile(
            name: "no-attachments", host: "(degenerate) an item without attachments", shares: [.title],
            sends: "one item with a title and no attachments key",
            trap: "item.attachments is nil, not empty", report: "https://github.com/lionheart/openradar-mirror/issues/11232"
        ) { content throws(HostProfileError) in
            ShareFixture(summary: "an item with only a title", items: [.init(title: content.title ?? "Untitled")])
        },
        // No public report: the API allows a provider with nothing registered (NSItemProvider()), so an intake
        // must survive one.
        HostProfile(
            name: "empty-attachment", host: "(degenerate) an attachment with no representations", shares: [],
            sends: "one item, one attachment, no registered types",
            trap: "every load fails; there is nothing to choose from",
            report: "https://developer.apple.com/documentation/foundation/nsitemprovider/init()"
        ) { _ throws(HostProfileError) in
            ShareFixture(summary: "an attachment with nothing registered", items: [.init(attachments: [.init(representations: [])])])
        },
        // openradar 30184485 (lionheart/openradar-mirror#16786): items "are used to represent the same data in a
        // different way" — several items for one page.
        HostProfile(
            name: "duplicates", host: "(degenerate) one page as several items", shares: [.webPage, .title],
            sends: "three items: the URL, the URL as plain text, and a property list holding it",
            trap: "importing every item imports one page three times",
            report: "https://github.com/lionheart/openradar-mirror/issues/16786"
        ) { content throws(HostProfileError) in
            let url = try need(.url, content.urls, "a page URL", "duplicates")[0]
            return ShareFixture(summary: "one page as three items", items: [
                .init(title: content.title, attachments: [.init(representations: [urlItem(url)])]),
                .init(attachments: [.init(representations: [.init(type: "public.plain-text", provide: .item, payload: .text(url.absoluteString))])]),
                .init(attachments: [.init(representations: [
                    .init(type: "com.apple.property-list", provide: .item, payload: .plist(.dictionary(["URL": .string(url.absoluteString)]))),
                ])]),
            ])
        },
    ]
}
