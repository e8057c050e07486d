// An action extension that imports the documents it is given — PDFs, images, web pages — into its app group,
// copying files through streams, never whole in memory. Written for what hosts do (HostProfiles, each with its
// report): a file URL where an image was promised (Photos), a path the extension may not read (Messages: load
// through the provider, never the path), a Live Photo advertised first that does not load (take the next
// type), an image object with no file (the screenshot editor), a file URL in front of the file (Files), a
// page as a URL, and nothing at all. The situation: a PDF viewer's import extension, which met each of these
// (nutrient.io/blog/image-loading-and-cropping-on-ios; the host profiles' reports).
import SharingShim

final class ImportViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let providers: [NSItemProvider] = (extensionContext?.inputItems ?? []).compactMap { ($0 as? NSExtensionItem)?.attachments }.flatMap { $0 }
        guard !providers.isEmpty else {
            extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                               userInfo: [NSLocalizedDescriptionKey: "Nothing to import."]))
            return
        }
        let importer = Importer()
        let group = DispatchGroup()
        for provider in providers {
            group.enter()
            importer.importFirstKind(from: provider) { group.leave() }
        }
        group.notify(queue: .main) { [extensionContext] in
            let names = importer.imported
            let result = NSExtensionItem()
            result.attributedContentText = NSAttributedString(string: "Imported \(names.count): \(names.sorted().joined(separator: ", "))")
            extensionContext?.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

/// Imports attachments into the app group, on whatever threads their loads answer.
final class Importer: @unchecked Sendable {
    /// The kinds imported, most wanted first.
    private static let wanted: [UTType] = [.pdf, .image, .url]

    private let lock = NSLock()
    private var names: [String] = []

    var imported: [String] { lock.withLock { names } }

    /// Imports the first of `provider`'s registered types that is a wanted kind and loads: if the first does
    /// not load (a Live Photo), the next may.
    func importFirstKind(from provider: NSItemProvider, done: @escaping @Sendable () -> Void) {
        // A file URL (the Files app's public.file-url, a property list) is not the file: the file follows it.
        let types = provider.registeredTypeIdentifiers.filter { identifier in
            guard let type = UTType(identifier), !type.conforms(to: .fileURL) else { return false }
            return Self.wanted.contains { type.conforms(to: $0) }
        }
        importFirst(of: types[...], from: provider, done: done)
    }

    private func importFirst(of types: ArraySlice<String>, from provider: NSItemProvider, done: @escaping @Sendable () -> Void) {
        guard let type = types.first else { return done() }
        let next = types.dropFirst()
        if UTType(type)?.conforms(to: .url) == true {
            // A page: its address, kept as a link file.
            _ = provider.loadObject(ofClass: URL.self) { [self] url, _ in
                guard let url, let data = "[InternetShortcut]\nURL=\(url.absoluteString)\n".data(using: .utf8) else {
                    return importFirst(of: next, from: provider, done: done)
                }
                save(named: (url.host ?? "page") + ".url") { try data.write(to: $0) }
                done()
            }
            return
        }
        _ = provider.loadFileRepresentation(forTypeIdentifier: type) { [self] url, _ in
            // The file is valid only until this returns: copied now, through streams.
            guard let url, let input = InputStream(url: url) else { return importFirst(of: next, from: provider, done: done) }
            save(named: url.lastPathComponent) { destination in try Self.copy(input, to: destination) }
            done()
        }
    }

    /// Writes a file into the app group's Imported folder.
    private func save(named name: String, _ write: (URL) throws -> Void) {
        guard let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")?
            .appendingPathComponent("Imported") else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try write(folder.appendingPathComponent(name))
            lock.withLock { names.append(name) }
        } catch {
            NSLog("ImportAction: could not import \(name): \(error)")
        }
    }

    /// A stream copied 64 KB at a time.
    private static func copy(_ input: InputStream, to destination: URL) throws {
        guard let output = OutputStream(url: destination, append: false) else { throw CocoaError(.fileWriteUnknown) }
        input.open()
        output.open()
        defer { input.close(); output.close() }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let read = input.read(&buffer, maxLength: buffer.count)
            if read < 0 { throw input.streamError ?? CocoaError(.fileReadUnknown) }
            if read == 0 { return }
            var written = 0
            while written < read {
                let count = buffer[written..<read].withUnsafeBufferPointer { output.write($0.baseAddress!, maxLength: read - written) }
                if count <= 0 { throw output.streamError ?? CocoaError(.fileWriteUnknown) }
                written += count
            }
        }
    }
}
