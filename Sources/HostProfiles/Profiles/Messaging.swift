import Foundation
import SharingShim

extension HostProfile {
    static let messagingProfiles: [HostProfile] = [
        // openradar 29918507 (lionheart/openradar-mirror#16668): Messages hands an action extension the image
        // and a file URL under /private/var/mobile/Library/SMS/Attachments/… that the extension's sandbox may
        // not read ("deny(1) file-read-metadata"); loading the image through the provider works.
        HostProfile(
            name: "messages", host: "Messages", shares: [.image],
            sends: "per image: public.jpeg (loadItem gives an unreadable SMS-attachments path) and public.url (that file URL again)",
            trap: "copying the path fails, and public.url is a file URL, not a web page; only loading through the provider works",
            report: "https://github.com/lionheart/openradar-mirror/issues/16668"
        ) { content throws(HostProfileError) in
            let images = try need(.file, content.files.filter(isImageOrMovie), "images", "messages")
            return ShareFixture(summary: "Messages sharing \(images.count) image\(images.count == 1 ? "" : "s")", items: [
                .init(attachments: images.enumerated().map { index, image in
                    let hidden = "/private/var/mobile/Library/SMS/Attachments/bd/\(13 + index)/12A03E5C-C12B-4797-9007-52AC16F774AC/\(image.lastPathComponent)"
                    return .init(suggestedName: stem(image), representations: [
                        fileRepresentation(image, fault: .unreadableURL(path: hidden)),
                        .init(type: "public.url", provide: .item, payload: .url(URL(fileURLWithPath: hidden).absoluteString)),
                    ])
                }),
            ])
        },
        // alinz/react-native-share-extension#47: sharing from the iOS 11 screenshot editor crashed extensions;
        // the screenshot "exists in memory, and not in storage": an image object, with no file behind it, which
        // cannot be coerced to plain data.
        HostProfile(
            name: "screenshot", host: "Screenshot editor", shares: [.image],
            sends: "one image object (PNG in memory); asking for public.data fails",
            trap: "no file URL at all, and the generic public.data request an extension falls back on fails",
            report: "https://github.com/alinz/react-native-share-extension/issues/47"
        ) { content throws(HostProfileError) in
            let image = try need(.file, content.files.filter(isImageOrMovie), "a screenshot image", "screenshot")[0]
            return ShareFixture(summary: "the screenshot editor sharing a screenshot", items: [
                .init(attachments: [.init(representations: [
                    .init(type: "public.png", provide: .object, payload: .image(image.path),
                          fault: .fails(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unavailableCoercionError.rawValue,
                                        message: "Could not coerce an item to class NSData", whenAskedFor: ["public.data"])),
                ])]),
            ])
        },
    ]
}
