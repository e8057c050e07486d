// For tests: a compose sheet whose Post saves the text and forgets to end the request — the mistake of a
// didSelectPost() that starts its work and returns, the completeRequest left in a branch that never runs.
import ExtensionRuntime
import Foundation
import SharingShim

final class ForgetfulPostViewController: SLComposeServiceViewController {
    override func isContentValid() -> Bool { !contentText.isEmpty }

    override func didSelectPost() {
        let text = contentText ?? ""
        DispatchQueue.global().async {
            let saved = FileManager.default.temporaryDirectory.appendingPathComponent("post.txt")
            try? Data(text.utf8).write(to: saved)
            // The request is ended only when the save failed; on success the sheet waits for ever.
            if !FileManager.default.fileExists(atPath: saved.path) {
                DispatchQueue.main.async { self.extensionContext?.cancelRequest(withError: CocoaError(.fileWriteUnknown)) }
            }
        }
    }
}

ExtensionProcess.run(ForgetfulPostViewController.init)
