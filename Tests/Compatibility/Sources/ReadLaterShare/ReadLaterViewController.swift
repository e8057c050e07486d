import SharingShim
#if canImport(FoundationNetworking)
import BackgroundTransfers
import FoundationNetworking
#endif

// A read-later app's share extension: on Post, the page's URL is sent to the app's service with
// `URLSession.shared`, the service's address read from the app group, where the app keeps it (`service.txt`:
// the endpoint, then how to send: `wait` for the service's answer before completing; `background`, Apple's way
// (App Extension Programming Guide, "Performing Uploads and Downloads"): a background session with the app
// group as its shared container uploads a file written there, and the request completes at once, the system
// carrying the upload on. With neither it is the pattern issue 38 measured: the request completes first and the
// upload starts in the completion handler, which a device suspends soon after (3 of 5 such uploads reached the
// server); the handler waits for the answer, so that the upload is always under way when the host judges it (one
// that returned at once could end the process before URLSession connected, and be found to have kept nothing).
class ReadLaterViewController: SLComposeServiceViewController {
    static let appGroup = "group.org.opensharing.compatibility"

    override func isContentValid() -> Bool {
        true
    }

    override func didSelectPost() {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroup),
              let settings = try? String(contentsOf: container.appendingPathComponent("service.txt"), encoding: .utf8),
              let endpoint = settings.split(separator: "\n").first.flatMap({ URL(string: String($0)) }),
              let provider = (extensionContext?.inputItems.first as? NSExtensionItem)?.attachments?
                .first(where: { $0.hasItemConformingToTypeIdentifier("public.url") })
        else {
            extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFeatureUnsupportedError))
            return
        }
        let mode = settings.split(separator: "\n").dropFirst().first
        let waits = mode == "wait"
        provider.loadItem(forTypeIdentifier: "public.url", options: nil) { [weak self] item, error in
            guard let page = item as? URL else {
                self?.extensionContext?.cancelRequest(withError: error ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadUnknownError))
                return
            }
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            if mode == "background" {
                let configuration = URLSessionConfiguration.background(withIdentifier: "org.opensharing.compatibility.read-later")
                configuration.sharedContainerIdentifier = ReadLaterViewController.appGroup
                let session = URLSession(configuration: configuration, delegate: nil, delegateQueue: nil)
                let body = container.appendingPathComponent("upload-\(UUID().uuidString).txt")
                do {
                    try Data(page.absoluteString.utf8).write(to: body)
                } catch {
                    self?.extensionContext?.cancelRequest(withError: error)
                    return
                }
                session.uploadTask(with: request, fromFile: body).resume()
                self?.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
                return
            }
            request.httpBody = Data(page.absoluteString.utf8)
            let answered = DispatchSemaphore(value: 0)
            let task = URLSession.shared.dataTask(with: request) { _, _, error in
                answered.signal()
                guard waits else { return }
                if let error {
                    self?.extensionContext?.cancelRequest(withError: error)
                } else {
                    self?.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
                }
            }
            if waits {
                task.resume()
            } else {
                self?.extensionContext?.completeRequest(returningItems: []) { _ in
                    task.resume()
                    answered.wait()
                }
            }
        }
    }
}
