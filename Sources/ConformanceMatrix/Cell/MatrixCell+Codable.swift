import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI

/// A cell as JSON: one object, its fields by name, what does not apply left out. Its host, device, user and
/// faults are read by name and refused when unknown, so a cell read from a report holds only known values. The
/// device is always written, `"none"` for none; a cell that leaves it out plays the default device, as the
/// command line does.
extension MatrixCell: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case bundle, host, fixture, files, urls, texts, title, ignoresActivation, payloads, dataStore, allowsFiltering
        case device, user, faults, memoryLimit, diskLimit, timeout, appGroup
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func list<T: Decodable>(_ key: CodingKeys) throws -> [T] { try container.decodeIfPresent([T].self, forKey: key) ?? [] }
        self.init(bundle: try container.decode(String.self, forKey: .bundle),
                  host: try container.decodeIfPresent(HostProfile.self, forKey: .host),
                  fixture: try container.decodeIfPresent(String.self, forKey: .fixture),
                  content: CellContent(files: try list(.files), urls: try list(.urls), texts: try list(.texts),
                                       title: try container.decodeIfPresent(String.self, forKey: .title)),
                  ignoresActivation: try container.decodeIfPresent(Bool.self, forKey: .ignoresActivation) ?? false,
                  payloads: try list(.payloads), dataStore: try container.decodeIfPresent(String.self, forKey: .dataStore),
                  allowsFiltering: try container.decodeIfPresent(Bool.self, forKey: .allowsFiltering) ?? false,
                  device: try container.decodeIfPresent(String.self, forKey: .device) == "none"
                      ? nil : try container.decodeIfPresent(DeviceClass.self, forKey: .device) ?? .default,
                  user: try container.decode(ExtensionUser.self, forKey: .user), faults: try list(.faults),
                  memoryLimit: try container.decodeIfPresent(Int.self, forKey: .memoryLimit),
                  diskLimit: try container.decodeIfPresent(Int.self, forKey: .diskLimit),
                  timeout: try container.decodeIfPresent(Double.self, forKey: .timeout),
                  appGroup: try container.decodeIfPresent(String.self, forKey: .appGroup))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundle, forKey: .bundle)
        switch kind {
        case .share:
            try container.encodeIfPresent(host, forKey: .host)
            try container.encodeIfPresent(fixture, forKey: .fixture)
            if !content.files.isEmpty { try container.encode(content.files, forKey: .files) }
            if !content.urls.isEmpty { try container.encode(content.urls, forKey: .urls) }
            if !content.texts.isEmpty { try container.encode(content.texts, forKey: .texts) }
            try container.encodeIfPresent(content.title, forKey: .title)
            if ignoresActivation { try container.encode(true, forKey: .ignoresActivation) }
        case .notifications:
            try container.encode(payloads, forKey: .payloads)
            try container.encodeIfPresent(dataStore, forKey: .dataStore)
            if allowsFiltering { try container.encode(true, forKey: .allowsFiltering) }
        }
        try container.encode(device?.name ?? "none", forKey: .device)
        try container.encode(user, forKey: .user)
        try container.encode(faults, forKey: .faults)
        try container.encodeIfPresent(memoryLimit, forKey: .memoryLimit)
        try container.encodeIfPresent(diskLimit, forKey: .diskLimit)
        try container.encodeIfPresent(timeout, forKey: .timeout)
        try container.encodeIfPresent(appGroup, forKey: .appGroup)
    }
}

extension MatrixCell {
    /// The cell with every path beneath `old` moved beneath `new` (its share's files, payloads, app group and
    /// data store): a cell a run planned in one work directory, as another run plans it in its own.
    func rebased(from old: String, to new: String) -> MatrixCell {
        func move(_ path: String) -> String {
            let prefix = old.hasSuffix("/") ? old : old + "/"
            return path.hasPrefix(prefix) ? (new.hasSuffix("/") ? new : new + "/") + path.dropFirst(prefix.count) : path
        }
        var cell = self
        cell.content.files = content.files.map(move)
        cell.payloads = payloads.map(move)
        cell.appGroup = appGroup.map(move)
        cell.dataStore = dataStore.map(move)
        return cell
    }

    /// The first field, by its name in JSON, whose value differs from `other`'s; `nil` when the cells are equal.
    func firstDifference(from other: MatrixCell) -> String? {
        let fields: [(CodingKeys, Bool)] = [
            (.bundle, bundle == other.bundle), (.host, host == other.host), (.fixture, fixture == other.fixture),
            (.files, content.files == other.content.files), (.urls, content.urls == other.content.urls),
            (.texts, content.texts == other.content.texts), (.title, content.title == other.content.title),
            (.ignoresActivation, ignoresActivation == other.ignoresActivation), (.payloads, payloads == other.payloads),
            (.dataStore, dataStore == other.dataStore), (.allowsFiltering, allowsFiltering == other.allowsFiltering),
            (.device, device == other.device), (.user, user == other.user), (.faults, faults == other.faults),
            (.memoryLimit, memoryLimit == other.memoryLimit), (.diskLimit, diskLimit == other.diskLimit),
            (.timeout, timeout == other.timeout), (.appGroup, appGroup == other.appGroup),
        ]
        return fields.first { !$0.1 }?.0.stringValue
    }
}
