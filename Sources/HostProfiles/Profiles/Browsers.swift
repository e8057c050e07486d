import Foundation
import SharingShim

extension HostProfile {
    static let browsersProfiles: [HostProfile] = [
        // Apple, App Extension Programming Guide, "Share" and "Accessing a Webpage": Safari shares a page as
        // one item whose attachment is the page's URL.
        HostProfile(
            name: "safari", host: "Safari", shares: [.webPage, .title], sends: "one item: the page's public.url (an NSURL) and its title",
            trap: "no file and no text: an extension that only reads files or text sees nothing",
            report: "https://developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/Share.html"
        ) { content throws(HostProfileError) in
            let url = try need(.url, content.urls, "a page URL", "safari")[0]
            return ShareFixture(summary: "Safari sharing \(url.absoluteString)", items: [
                .init(title: content.title ?? url.host, attachments: [.init(representations: [urlItem(url)])]),
            ])
        },
        // Apple, App Extension Programming Guide, "Accessing a Webpage": with NSExtensionJavaScriptPreprocessingFile,
        // Safari attaches a property list whose NSExtensionJavaScriptPreprocessingResultsKey holds what the
        // script's run() passed to completionFunction.
        HostProfile(
            name: "safari-javascript", host: "Safari (JavaScript preprocessing)", shares: [.webPage, .text, .title],
            sends: "one item: com.apple.property-list (an NSDictionary of the script's results), then public.url",
            trap: "the first type is a dictionary, not a URL or a file",
            report: "https://developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ExtensionScenarios.html"
        ) { content throws(HostProfileError) in
            let url = try need(.url, content.urls, "a page URL", "safari-javascript")[0]
            let results: PropertyListValue = .dictionary([
                "URL": .string(url.absoluteString),
                "title": .string(content.title ?? url.host ?? ""),
                "selection": .string(content.texts.first ?? ""),
            ])
            return ShareFixture(summary: "Safari running a preprocessing script on \(url.absoluteString)", items: [
                .init(title: content.title ?? url.host, attachments: [.init(representations: [
                    .init(type: "com.apple.property-list", provide: .item,
                          payload: .plist(.dictionary([NSExtensionJavaScriptPreprocessingResultsKey: results]))),
                    urlItem(url),
                ])]),
            ])
        },
        // openradar 30184485 (lionheart/openradar-mirror#16786): "Safari … hands over two NSExtensionItem if
        // the user wants to share a single image. Each of them having one NSItemProvider. One of them contains
        // the image and one the URL."
        HostProfile(
            name: "safari-image", host: "Safari (an image)", shares: [.image, .webPage, .title],
            sends: "two items for one thing: the image as public.jpeg data, and the page's public.url",
            trap: "two items describe one share: an extension that imports every item imports the page too",
            report: "https://github.com/lionheart/openradar-mirror/issues/16786"
        ) { content throws(HostProfileError) in
            let image = try need(.file, content.files.filter(isImageOrMovie), "an image file", "safari-image")[0]
            let page = try need(.url, content.urls, "the page's URL", "safari-image")[0]
            let type = SharingShim.UTType(filenameExtension: image.pathExtension)?.identifier ?? "public.jpeg"
            return ShareFixture(summary: "Safari sharing an image of \(page.absoluteString)", items: [
                .init(attachments: [.init(representations: [.init(type: type, provide: .data, payload: .file(image.path))])]),
                .init(title: content.title ?? page.host, attachments: [.init(representations: [urlItem(page)])]),
            ])
        },
        // mozilla-mobile/focus-ios#485 and #470: Chrome's share differs from Safari's and needed its own path;
        // current Chrome for iOS offers the page as a single public.url attachment, with no title.
        HostProfile(
            name: "chrome", host: "Chrome", shares: [.webPage], sends: "one item: public.url only, no title, no text",
            trap: "no title to show; an activation rule that demands text never matches",
            report: "https://github.com/mozilla-mobile/focus-ios/issues/485"
        ) { content throws(HostProfileError) in
            let url = try need(.url, content.urls, "a page URL", "chrome")[0]
            return ShareFixture(summary: "Chrome sharing \(url.absoluteString)", items: [
                .init(attachments: [.init(representations: [urlItem(url)])]),
            ])
        },
        // acez/bookmark-companion#24: "Firefox does not only send an attachment of type public.url but also
        // additionally one of type public.plain-text", so an extension limited to one URL attachment vanishes.
        HostProfile(
            name: "firefox", host: "Firefox", shares: [.webPage, .title], sends: "one item, two attachments: public.url and public.plain-text (the URL again)",
            trap: "an activation rule that allows exactly one attachment hides the extension",
            report: "https://github.com/acez/bookmark-companion/issues/24"
        ) { content throws(HostProfileError) in
            let url = try need(.url, content.urls, "a page URL", "firefox")[0]
            return ShareFixture(summary: "Firefox sharing \(url.absoluteString)", items: [
                .init(title: content.title, attachments: [
                    .init(representations: [urlItem(url)]),
                    .init(representations: [.init(type: "public.plain-text", provide: .item, payload: .text(url.absoluteString))]),
                ]),
            ])
        },
    ]
}
