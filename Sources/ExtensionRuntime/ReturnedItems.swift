import Foundation
import OpenItemProvider
import SharingSystem

/// The items an extension returned, made loadable in the host: each representation registered as it was in
/// the extension, its payload kept here (descriptors stay open as long as the provider lives).
enum ReturnedItems {
    static func make(_ items: [WireItem], files: [OpenFile]) throws(ProtocolViolation) -> [NSExtensionItem] {
        var remaining = files[...]
        var made: [NSExtensionItem] = []
        for wire in items {
            let item = NSExtensionItem()
            item.attributedTitle = wire.title.map { NSAttributedString(string: $0) }
            item.attributedContentText = wire.contentText.map { NSAttributedString(string: $0) }
            var providers: [NSItemProvider] = []
            for attachment in wire.attachments {
                let provider = NSItemProvider()
                provider.suggestedName = attachment.suggestedName
                for representation in attachment.representations {
                    guard let payload = representation.payload else {
                        throw ProtocolViolation("a returned \(representation.type) representation without its payload")
                    }
                    let carried = Array(remaining.prefix(payload.descriptorCount))
                    remaining = remaining.dropFirst(payload.descriptorCount)
                    register(payload, files: carried, type: representation.type, form: representation.form, in: provider)
                }
                providers.append(provider)
            }
            item.attachments = providers
            made.append(item)
        }
        return made
    }

    private static func register(_ payload: LoadResult, files: [OpenFile], type: String, form: RepresentationForm, in provider: NSItemProvider) {
        switch (form, payload) {
        case (.file, .file(let name)), (.fileInPlace, .file(let name)):
            guard let file = files.first else { return }
            let options: NSItemProviderFileOptions = form == .fileInPlace ? [.openInPlace] : []
            provider.registerFileRepresentation(forTypeIdentifier: type, fileOptions: options, visibility: .all) { completion in
                HostConnection.withPath(of: file, named: name) { completion($0, false, nil) }
                return nil
            }
        case (.data, _):
            provider.registerDataRepresentation(forTypeIdentifier: type, visibility: .all) { completion in
                do {
                    if let data = try Payloads.data(of: payload, files: files) { completion(data, nil) }
                    else if case .failed(let remote) = payload { completion(nil, Payloads.nsError(remote)) }
                    else { completion(nil, Payloads.error(.unexpectedValueClassError, "returned as \(payload), not data")) }
                } catch {
                    completion(nil, Payloads.error(.itemUnavailableError, "\(error)"))
                }
                return nil
            }
        default:
            provider.registerItem(forTypeIdentifier: type) { completion, _, _ in
                do {
                    switch try Payloads.item(of: payload, files: files) {
                    case .success(let item): completion?(item, nil)
                    case .failure(let error): completion?(nil, error)
                    }
                } catch {
                    completion?(nil, Payloads.error(.itemUnavailableError, "\(error)"))
                }
            }
        }
    }
}
