import Foundation

/// Shares as text for people: the fixture's structure, or what each representation delivered.
extension ShareFixture {
    /// Items, attachments and representations: type, how provided, payload, fault.
    public var outline: String {
        var lines = [heading]
        if items.isEmpty { lines.append("no items") }
        for (index, item) in items.enumerated() {
            lines.append(Self.itemLine(index, item.title, item.contentText, item.attachments?.count))
            for (number, attachment) in (item.attachments ?? []).enumerated() {
                lines.append(Self.attachmentLine(number, attachment.suggestedName, empty: attachment.representations.isEmpty))
                for representation in attachment.representations {
                    var line = "    \(representation.type)  \(representation.provide.rawValue)  \(representation.payload.outline)"
                    if let fault = representation.fault { line += "  [fault: \(fault.outline)]" }
                    lines.append(line)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    var heading: String { [host, summary].compactMap { $0 }.joined(separator: ": ") }

    static func itemLine(_ index: Int, _ title: String?, _ text: String?, _ attachments: Int?) -> String {
        var line = "item \(index + 1)"
        if let title { line += " \"\(title)\"" }
        if let text { line += ", content text \"\(text.count > 40 ? text.prefix(40) + "…" : Substring(text))\"" }
        return line + (attachments.map { ", \($0) attachment\($0 == 1 ? "" : "s")" } ?? ", no attachments")
    }

    static func attachmentLine(_ index: Int, _ name: String?, empty: Bool) -> String {
        "  attachment \(index + 1)" + (name.map { " \"\($0)\"" } ?? "") + (empty ? ": no representations" : "")
    }
}

extension ShareProbe {
    /// What each representation delivered as data, as a file and through `loadItem`, under the fixture's heading.
    public func outline(of fixture: ShareFixture) -> String {
        var lines = [fixture.heading]
        if items.isEmpty { lines.append("no items") }
        for (index, item) in items.enumerated() {
            lines.append(ShareFixture.itemLine(index, item.title, item.contentText, item.attachments?.count))
            for (number, attachment) in (item.attachments ?? []).enumerated() {
                lines.append(ShareFixture.attachmentLine(number, attachment.suggestedName, empty: attachment.representations.isEmpty))
                for representation in attachment.representations {
                    lines += ["    \(representation.type)", "      data: \(representation.data)",
                              "      file: \(representation.file)", "      item: \(representation.item)"]
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension ShareFixture.Payload {
    var outline: String {
        switch self {
        case .text(let text): "text \"\(text)\""
        case .base64(let data): "\(data.count) bytes"
        case .file(let path): path
        case .url(let url): url
        case .plist(let value): "property list \(String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self))"
        case .image(let path): "image \(path)"
        }
    }
}

extension ShareFixture.Fault {
    var outline: String {
        switch self {
        case .fails(let domain, let code, _, let asked): "fails \(domain) \(code)" + (asked.map { " when asked for \($0.joined(separator: ", "))" } ?? "")
        case .neverCompletes: "never completes"
        case .slow(let seconds): "takes \(seconds) s"
        case .unreadableURL(let path): "loadItem gives unreadable \(path)"
        case .unexpectedClass(let payload): "loadItem gives \(payload.outline)"
        }
    }
}
