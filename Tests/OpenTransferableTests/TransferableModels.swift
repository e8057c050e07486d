import SharingShim

// Models written only against Apple's documented CoreTransferable API, as an app would write them; the only
// OpenSharing in them is the import.

extension UTType {
    static let note = UTType(exportedAs: "com.example.note")
    static let noteArchive = UTType(exportedAs: "com.example.note-archive")
    static let settings = UTType(exportedAs: "com.example.settings")
}

/// A note: its own Codable type first, a custom binary archive second, its text last.
struct Note: Codable, Equatable, Transferable {
    var title: String
    var body: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .note)
        DataRepresentation(contentType: .noteArchive) { note in
            Data("\(note.title)\n\(note.body)".utf8)
        } importing: { data in
            let text = String(decoding: data, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n") else { throw CocoaError(.fileReadCorruptFile) }
            return Note(title: String(text[..<newline]), body: String(text[text.index(after: newline)...]))
        }
        ProxyRepresentation(exporting: \.body)
    }
}

/// An image kept on disk: exported and imported as a PNG file, named after its caption.
struct Picture: Transferable {
    var file: URL
    var caption: String

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .png) { picture in
            SentTransferredFile(picture.file)
        } importing: { received in
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("imported-\(UUID().uuidString).png")
            try FileManager.default.copyItem(at: received.file, to: copy)
            return Picture(file: copy, caption: received.isOriginalFile ? "original" : "copy")
        }
        .suggestedFileName { $0.caption + ".png" }
    }
}

/// A table that is comma-separated text only while it has rows.
struct Table: Transferable {
    var rows: [String]

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .commaSeparatedText) { table in
            Data(table.rows.joined(separator: "\n").utf8)
        }
        .exportingCondition { !$0.rows.isEmpty }
        ProxyRepresentation(exporting: { $0.rows.joined(separator: ", ") })
    }
}

/// A destination that travels as its URL.
enum Destination: Equatable, Transferable {
    case home
    case page(URL)

    var url: URL {
        switch self {
        case .home: URL(string: "https://example.com/")!
        case .page(let url): url
        }
    }

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation(exporting: \.url) { url in
            url.path == "/" ? .home : .page(url)
        }
    }
}

/// Settings coded as a property list rather than JSON, and kept within the app's team.
struct Settings: Codable, Equatable, Transferable {
    var volume: Int

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(for: Settings.self, contentType: .settings,
                              encoder: PropertyListEncoder(), decoder: PropertyListDecoder())
            .visibility(.team)
        ProxyRepresentation(exporting: { "volume \($0.volume)" })
    }
}
