import Foundation
import SharingShim

extension HostProfile {
    static let documentsProfiles: [HostProfile] = [
        // keybase/client#29549: when a provider's only file-ish representation is the file URL, asking for
        // public.item yields "a 207-byte Apple binary property list containing a file:// URL instead of the
        // crash report itself", named "file URL". Files shares directories as well as files.
        HostProfile(
            name: "files", host: "Files", shares: [.document],
            sends: "per file: public.file-url as a binary property list wrapping the URL, then the file (a directory for folders and packages)",
            trap: "loading the first thing conforming to public.item gives a property list, not the file",
            report: "https://github.com/keybase/client/pull/29549"
        ) { content throws(HostProfileError) in
            let files = try need(.file, content.files, "files", "files")
            return ShareFixture(summary: "Files sharing \(files.count) item\(files.count == 1 ? "" : "s")", items: [
                .init(attachments: files.map { file in
                    // The URL the Files app wraps is the file's place in File Provider storage, not a path here.
                    let stored = URL(fileURLWithPath: "/private/var/mobile/Containers/Shared/AppGroup/D3A1B2C4-5E6F-4A7B-8C9D-0E1F2A3B4C5D/File Provider Storage")
                        .appendingPathComponent(file.lastPathComponent)
                    return .init(representations: [
                        .init(type: "public.file-url", provide: .data, payload: .plist(.string(stored.absoluteString))),
                        fileRepresentation(file),
                    ])
                }),
            ])
        },
        // openradar 21445342 (lionheart/openradar-mirror#788): shared text arrives as a plain-text attachment
        // that is "a redundant copy of the included contentText"; Automattic/simplenote-ios#325 tests the Apple
        // Notes case, where a note's images come along.
        HostProfile(
            name: "notes", host: "Notes", shares: [.text, .title],
            sends: "one item: the note in attributedContentText, the same text as public.plain-text, and its images",
            trap: "the text arrives twice (content text and attachment) and must not be imported twice",
            report: "https://github.com/lionheart/openradar-mirror/issues/788"
        ) { content throws(HostProfileError) in
            let text = try need(.text, content.texts, "a note's text", "notes")[0]
            let images = content.files.filter(isImageOrMovie)
            return ShareFixture(summary: "Notes sharing a note", items: [
                .init(title: content.title, contentText: text, attachments:
                    [.init(representations: [.init(type: "public.utf8-plain-text", provide: .object, payload: .text(text))])]
                    + images.map { .init(suggestedName: stem($0), representations: [fileRepresentation($0)]) }),
            ])
        },
        // onmyway133/notes#582 logs a system share whose item has "NSExtensionItemAttachmentsKey = ()" and the
        // content only under NSExtensionItemAttributedContentTextKey; openradar 19425971 (lionheart/openradar-mirror#11232)
        // shows the App Store sharing a title string and no URL.
        HostProfile(
            name: "mail", host: "Mail and other text-only hosts", shares: [.text, .title],
            sends: "one item: the body in attributedContentText, an empty attachment list",
            trap: "no attachments: an extension reading only attachments receives nothing and may crash on attachments![0]",
            report: "https://github.com/onmyway133/notes/issues/582"
        ) { content throws(HostProfileError) in
            let text = try need(.text, content.texts, "a message body", "mail")[0]
            return ShareFixture(summary: "text shared in the content text only", items: [
                .init(title: content.title, contentText: text, attachments: []),
            ])
        },
    ]
}
