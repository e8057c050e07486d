// A share extension with a view of its own: it makes a 300-pixel preview of each image and a copy of each
// file, in two dispatch groups; when both are done it asks whether to upload, completes the request, and
// uploads after completing — the work Apple's guide warns is cut short when the extension's time runs out
// (developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ExtensionScenarios.html,
// "Performing Uploads and Downloads"). The upload is a copy into the app group's Uploads folder at 4 MB a
// second, in an expiring activity: told it has expired, it stops and leaves an INCOMPLETE note.
import PhotoResizing
import SharingShim

final class UploadViewController: UIViewController {
    /// What the loads collect, on whatever thread their answers come.
    private nonisolated let previews = Collected<UIImage>()
    private nonisolated let staged = Collected<URL>()

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        let providers: [NSItemProvider] = (extensionContext?.inputItems ?? []).compactMap { ($0 as? NSExtensionItem)?.attachments }.flatMap { $0 }
        let previewing = DispatchGroup(), copying = DispatchGroup()
        for provider in providers {
            if provider.hasItemConformingToTypeIdentifier(UTType.image.identifier) {
                previewing.enter()
                _ = provider.loadFileRepresentation(forTypeIdentifier: UTType.image.identifier) { [previews] url, _ in
                    if let url, let preview = PhotoResizing.preview(ofPhotoAt: url) { previews.append(preview) }
                    previewing.leave()
                }
            }
            // The file itself, not the Files app's public.file-url (a property list) that comes before it.
            guard let type = provider.registeredTypeIdentifiers.first(where: { identifier in
                UTType(identifier).map { $0.conforms(to: .data) && !$0.conforms(to: .fileURL) } ?? false
            }) else { continue }
            copying.enter()
            _ = provider.loadFileRepresentation(forTypeIdentifier: type) { [staged] url, _ in
                // Kept in the container: the provider's file is gone once this returns.
                if let url {
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                    let copy = folder.appendingPathComponent(url.lastPathComponent)
                    if (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
                       (try? FileManager.default.copyItem(at: url, to: copy)) != nil { staged.append(copy) }
                }
                copying.leave()
            }
        }
        previewing.notify(queue: .main) { [self] in
            let count = previews.all.count
            title = "\(count) preview\(count == 1 ? "" : "s")"
        }
        copying.notify(queue: .main) { [self] in
            previewing.notify(queue: .main) { self.askToUpload() }
        }
    }

    private func askToUpload() {
        let files = staged.all
        // Nothing it could take as a file (a link, or a type that is not data): ended with an error, so the host
        // knows the share was not taken, where completing would say it was (`sharing fuzz` found it completing
        // with nothing uploaded: nothing-kept).
        guard !files.isEmpty else {
            extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError,
                                                               userInfo: [NSLocalizedDescriptionKey: "Nothing in this share can be uploaded."]))
            return
        }
        let alert = UIAlertController(title: "Upload \(files.count) file\(files.count == 1 ? "" : "s")?", message: title, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { [extensionContext] _ in
            extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        })
        let upload = UIAlertAction(title: "Upload", style: .default) { [extensionContext] _ in
            extensionContext?.completeRequest(returningItems: []) { _ in
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Uploading the shared files") { expired in
                    if expired { Uploader.expired.raise() } else { Uploader.upload(files) }
                }
            }
        }
        alert.addAction(upload)
        alert.preferredAction = upload
        present(alert, animated: true)
    }

}

/// The upload, after completion.
enum Uploader {
    /// Set when the system says the time is up.
    static let expired = Flag()

    /// Copies each file into the app group's Uploads folder at 4 MB a second, a megabyte at a time (a file of
    /// any size, in a megabyte of memory: `sharing fuzz` found the whole file read at once ending the extension
    /// at its memory limit), stopping when told it expired; a file appears under its name once it is whole.
    static func upload(_ files: [URL]) {
        guard let uploads = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")?
            .appendingPathComponent("Uploads") else { return }
        try? FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        for file in files {
            let target = uploads.appendingPathComponent(file.lastPathComponent), part = target.appendingPathExtension("part")
            guard let source = try? FileHandle(forReadingFrom: file), FileManager.default.createFile(atPath: part.path, contents: nil),
                  let sink = try? FileHandle(forWritingTo: part) else { continue }
            defer {
                try? source.close()
                try? sink.close()
            }
            var start = 0
            while true {
                if expired.isRaised {
                    try? Data("stopped at \(file.lastPathComponent), byte \(start)\n".utf8).write(to: uploads.appendingPathComponent("INCOMPLETE"))
                    return
                }
                Thread.sleep(forTimeInterval: 0.25)
                guard let chunk = try? source.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
                try? sink.write(contentsOf: chunk)
                start += chunk.count
            }
            try? FileManager.default.moveItem(at: part, to: target)
        }
    }
}

/// Values appended from any thread.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    var all: [Value] { lock.withLock { values } }
    func append(_ value: Value) { lock.withLock { values.append(value) } }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool { lock.withLock { raised } }
    func raise() { lock.withLock { raised = true } }
}
