import Foundation
import SharingShim

extension HostProfile {
    static let photosProfiles: [HostProfile] = [
        // openradar 30184485 (lionheart/openradar-mirror#16786): "the Photos app only hands over a single
        // NSExtensionItem with multiple NSItemProvider, one for each image"; EternallLight/cordova-plugin-openwith-ios#32:
        // the legacy loadItem yields file:///var/mobile/Media/PhotoData/OutgoingTemp/…/IMG_1519.PNG, a URL, not data.
        HostProfile(
            name: "photos", host: "Photos", shares: [.libraryPhoto],
            sends: "one item, one attachment per photo or video: public.jpeg / public.heic / public.mpeg-4 / com.apple.quicktime-movie files",
            trap: "loadItem gives a file URL where an image was promised, not data or an image object",
            report: "https://github.com/EternallLight/cordova-plugin-openwith-ios/issues/32"
        ) { content throws(HostProfileError) in
            let files = try need(.file, content.files.filter(isImageOrMovie), "photos or videos", "photos")
            return ShareFixture(summary: "Photos sharing \(files.count) item\(files.count == 1 ? "" : "s")", items: [
                .init(attachments: files.map { .init(suggestedName: stem($0), representations: [fileRepresentation($0)]) }),
            ])
        },
        // deltachat/deltachat-ios#3193: a Live Photo's first registered type cannot be loaded, so taking
        // registeredTypeIdentifiers.first fails; the still image is registered after it.
        HostProfile(
            name: "live-photo", host: "Photos (a Live Photo)", shares: [.livePhotoStill],
            sends: "com.apple.live-photo first (its load fails), then the still as public.jpeg, then the video",
            trap: "the first, highest-fidelity type fails: an extension must fall back to the next",
            report: "https://github.com/deltachat/deltachat-ios/issues/3193"
        ) { content throws(HostProfileError) in
            let media = try need(.file, content.files.filter(isImageOrMovie), "a Live Photo's still (and its video)", "live-photo")
            var representations: [ShareFixture.Representation] = [
                .init(type: "com.apple.live-photo", provide: .data, payload: .text(""),
                      fault: .fails(domain: "PHPhotosErrorDomain", code: -1, message: "The Live Photo cannot be provided as data.", whenAskedFor: nil)),
            ]
            representations += media.map { fileRepresentation($0) }
            return ShareFixture(summary: "Photos sharing a Live Photo", items: [
                .init(attachments: [.init(suggestedName: stem(media[0]), representations: representations)]),
            ])
        },
        // openradar 29924679 (lionheart/openradar-mirror#16673): "Messages.app advertises live photos to action
        // extensions as arbitrary image (public.image) and is sharing a jpeg."
        HostProfile(
            name: "live-photo-messages", host: "Messages (a Live Photo)", shares: [.livePhotoStill],
            sends: "one attachment claiming only public.image; what arrives is a JPEG file",
            trap: "the declared type is vague and the real one must be sniffed from the bytes",
            report: "https://github.com/lionheart/openradar-mirror/issues/16673"
        ) { content throws(HostProfileError) in
            let still = try need(.file, content.files.filter(isImageOrMovie), "a Live Photo's still", "live-photo-messages")[0]
            return ShareFixture(summary: "Messages sharing a Live Photo as an image", items: [
                .init(attachments: [.init(suggestedName: stem(still), representations: [
                    .init(type: "public.image", provide: .file, payload: .file(still.path)),
                ])]),
            ])
        },
        // deltachat/deltachat-ios#3193: "their itemProvider.registeredTypeIdentifiers.first is
        // com.apple.live-photo-bundle", a directory (the still and the video), not a file.
        HostProfile(
            name: "live-photo-bundle", host: "Photos picker (a Live Photo bundle)", shares: [.livePhotoBundle, .livePhotoStill],
            sends: "com.apple.live-photo-bundle, a directory holding the still and the video, then the still as public.jpeg",
            trap: "the first type is a directory: loading it as a file gives a folder, as data a zip archive",
            report: "https://github.com/deltachat/deltachat-ios/issues/3193"
        ) { content throws(HostProfileError) in
            let bundle = try need(.file, content.files.filter { $0.hasDirectoryPath || ((try? $0.resourceValues(forKeys: [.contentTypeKey]))?.contentType ?? .data).conforms(to: .directory) },
                                  "a Live Photo bundle directory", "live-photo-bundle")[0]
            var representations: [ShareFixture.Representation] = [
                .init(type: "com.apple.live-photo-bundle", provide: .directory, payload: .file(bundle.path)),
            ]
            representations += content.files.filter(isImageOrMovie).prefix(1).map { fileRepresentation($0) }
            return ShareFixture(summary: "a Live Photo bundle", items: [
                .init(attachments: [.init(suggestedName: stem(bundle), representations: representations)]),
            ])
        },
    ]
}
