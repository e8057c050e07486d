import SharingShim

// The pattern of Bluesky's share extension (README.md): the first attachment of the first item decides what
// is shared, tested in the order text, URL, image, movie; the async `loadItem(forTypeIdentifier:)` is cast to
// `String`, `URL` or `UIImage`; images are re-encoded as JPEG into the app group container; the app is opened
// with a compose URL found up the responder chain; the request completes with no items.

/// What a shared file URL is, by its extension.
enum SharedFileKind {
    case image, movie, other

    init(_ url: URL) {
        let suffix = url.pathExtension.lowercased()
        if !url.isFileURL {
            self = .other
        } else if ["png", "jpg", "jpeg", "gif", "heic"].contains(suffix) {
            self = .image
        } else if ["mov", "mp4", "m4v"].contains(suffix) {
            self = .movie
        } else {
            self = .other
        }
    }
}

class ComposeIntentViewController: UIViewController {
    /// The app's URL scheme, from the extension's Info.plist when it says.
    let scheme = Bundle.main.object(forInfoDictionaryKey: "MainAppScheme") as? String ?? "bluesky"
    let appGroup = "group.app.bsky"

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
              let providers = item.attachments,
              let first = providers.first
        else {
            finish()
            return
        }
        Task {
            if first.hasItemConformingToTypeIdentifier("public.text") {
                await composeText(from: first)
            } else if first.hasItemConformingToTypeIdentifier("public.url") {
                await composeLink(from: first)
            } else if first.hasItemConformingToTypeIdentifier("public.image") {
                await composeImages(from: providers)
            } else if first.hasItemConformingToTypeIdentifier("public.movie") {
                await composeMovie(from: providers)
            } else {
                finish()
            }
        }
    }

    private func composeText(from provider: NSItemProvider) async {
        if let text = try? await provider.loadItem(forTypeIdentifier: "public.text") as? String {
            openComposer(["text": text])
        }
        finish()
    }

    private func composeLink(from provider: NSItemProvider) async {
        if let url = try? await provider.loadItem(forTypeIdentifier: "public.url") as? URL {
            switch SharedFileKind(url) {
            case .image: return await composeImages(from: [provider])
            case .movie: return await composeMovie(from: [provider])
            case .other: openComposer(["text": url.absoluteString])
            }
        }
        finish()
    }

    /// At most four images, each saved as a JPEG in the app group: "URL|width|height" per image, joined by
    /// commas; one that fails spoils the lot.
    private func composeImages(from providers: [NSItemProvider]) async {
        var saved: [String] = []
        var allSaved = true
        for provider in providers.prefix(4) {
            var entry: String?
            do {
                if let url = try await provider.loadItem(forTypeIdentifier: "public.image") as? URL {
                    entry = save(UIImage(data: try Data(contentsOf: url)))
                } else if let image = try await provider.loadItem(forTypeIdentifier: "public.image") as? UIImage {
                    entry = save(image)
                }
            } catch {
                allSaved = false
            }
            if let entry { saved.append(entry) } else { allSaved = false }
        }
        if allSaved { openComposer(["imageUris": saved.joined(separator: ",")]) }
        finish()
    }

    private func composeMovie(from providers: [NSItemProvider]) async {
        if let url = try? await providers.first?.loadItem(forTypeIdentifier: "public.movie") as? URL,
           let copy = fileInAppGroup(extension: url.pathExtension.isEmpty ? "mp4" : url.pathExtension) {
            try? (try? Data(contentsOf: url))?.write(to: copy)
            openComposer(["videoUri": copy.absoluteString])
        }
        finish()
    }

    private func save(_ image: UIImage?) -> String? {
        guard let image, let file = fileInAppGroup(extension: "jpeg"), let jpeg = image.jpegData(compressionQuality: 1) else { return nil }
        guard (try? jpeg.write(to: file)) != nil else { return nil }
        return "\(file.absoluteString)|\(image.size.width)|\(image.size.height)"
    }

    private func fileInAppGroup(extension suffix: String) -> URL? {
        guard let container = FileManager().containerURL(forSecurityApplicationGroupIdentifier: appGroup) else { return nil }
        return URL(string: "\(container.absoluteString)\(ProcessInfo.processInfo.globallyUniqueString).\(suffix)")
    }

    private func openComposer(_ query: [String: String]) {
        guard let (name, value) = query.first,
              let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlHostAllowed),
              let url = URL(string: "\(scheme)://intent/compose?\(name)=\(encoded)")
        else { return }
        var responder: UIResponder? = self
        while let current = responder {
            if let application = current as? UIApplication {
                application.open(url)
                return
            }
            responder = current.next
        }
    }

    private func finish() {
        extensionContext?.completeRequest(returningItems: nil)
    }
}
