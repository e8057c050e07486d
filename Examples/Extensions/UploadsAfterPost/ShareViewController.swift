// A share extension on the system's compose sheet that posts what it is given to its service's API with
// URLSession.shared, as a new extension's author writes one: Post completes the request, then starts the
// upload — the order Apple's guide warns loses the upload, since the system suspends an extension soon after it
// completes ("Performing Uploads and Downloads", App Extension Programming Guide). The Info.plist key
// `UploadsFirst` true makes the fix: upload first, and complete in the upload's completion handler, whatever it
// ended with (`CancelsOnFailure` true: cancelling with the upload's error when it failed). `UploadURL` names
// another endpoint (a test's server on 127.0.0.1).
import SharingShim
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class ShareViewController: SLComposeServiceViewController {
    private static let endpoint = (Bundle.main.object(forInfoDictionaryKey: "UploadURL") as? String).flatMap(URL.init(string:))
        ?? URL(string: "https://api.example.com/v1/shares")!

    override func didSelectPost() {
        var request = URLRequest(url: Self.endpoint)
        request.httpMethod = "POST"
        request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        let body = Data((contentText ?? "").utf8)
        if Bundle.main.object(forInfoDictionaryKey: "UploadsFirst") as? Bool ?? false {
            let cancelsOnFailure = Bundle.main.object(forInfoDictionaryKey: "CancelsOnFailure") as? Bool ?? false
            URLSession.shared.uploadTask(with: request, from: body) { [extensionContext] _, _, error in
                if let error {
                    NSLog("the upload failed: %@", error.localizedDescription)
                    if cancelsOnFailure { return extensionContext?.cancelRequest(withError: error) ?? () }
                }
                extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
            }.resume()
        } else {
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
            URLSession.shared.uploadTask(with: request, from: body) { _, _, _ in }.resume()
        }
    }
}
