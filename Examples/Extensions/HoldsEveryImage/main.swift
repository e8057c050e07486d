// For the fuzzer's tests, a planted bug: every shared image decoded whole and held until all are encoded for
// upload, where ImageIO's thumbnail of each, one at a time, would do. A photo from the library is 48 MP on a
// recent iPhone, 192 MB decoded, beyond a share extension's memory (MixinNetwork/ios-app#1102: the app's share
// extension crashed sharing a large image).
import ExtensionRuntime
import Foundation
import OpenExtensionUI
import OpenItemProvider

final class HoldsEveryImage: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
            .filter { $0.hasItemConformingToTypeIdentifier("public.image") }
        let images = LockedImages()
        let group = DispatchGroup()
        for provider in providers {
            group.enter()
            provider.loadDataRepresentation(forTypeIdentifier: "public.image") { data, _ in
                if let data, let image = UIImage(data: data) { images.append(image) }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            let all = images.all
            let uploads = all.compactMap { $0.jpegData(compressionQuality: 0.8) }
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: "\(uploads.count) images, \(uploads.reduce(0) { $0 + $1.count }) bytes" as NSString,
                                                 typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result], completionHandler: nil)
            withExtendedLifetime(all) {}
        }
    }
}

/// Images added from the providers' threads.
final class LockedImages: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [UIImage] = []

    func append(_ image: UIImage) { lock.withLock { images.append(image) } }
    var all: [UIImage] { lock.withLock { images } }
}

ExtensionProcess.run(HoldsEveryImage.init)
