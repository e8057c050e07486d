// For the fuzzer's tests, the control: a share extension written with none of the planted bugs. It takes what
// it is given as it comes — no items, an item with no attachments key, a load that fails or gives another class
// than its type promises, a name outside ASCII — and returns a line for each attachment, ending its request once.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class CarefulShare: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        let providers = items.flatMap { $0.attachments ?? [] }
        let lines = LockedLines()
        let group = DispatchGroup()
        for provider in providers {
            guard let type = provider.registeredTypeIdentifiers.first else {
                lines.append("an attachment with nothing registered")
                continue
            }
            group.enter()
            // The legacy load answers with whatever class the host registered: each is described, none assumed.
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, error in
                switch item as Any? {
                case let url as URL: lines.append("\(type): \(url.isFileURL ? url.lastPathComponent : url.absoluteString)")
                case let text as String: lines.append("\(type): \(text.count) characters")
                case let data as Data: lines.append("\(type): \(data.count) bytes")
                case .some(let other): lines.append("\(type): a \(Swift.type(of: other))")
                case nil: lines.append("\(type): not loaded (\(error?.localizedDescription ?? "no error"))")
                }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            let text = ([items.first?.attributedContentText?.string ?? ""] + lines.all).joined(separator: "\n")
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: text as NSString, typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result], completionHandler: nil)
        }
    }
}

/// Lines added from the providers' threads.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

ExtensionProcess.run(CarefulShare.init)
