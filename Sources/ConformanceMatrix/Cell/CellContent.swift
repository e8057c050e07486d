import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI

/// What a host shares: files, web URLs, text and a title, as given (paths as given, URLs as written).
public struct CellContent: Codable, Sendable, Hashable {
    public var files: [String]
    public var urls: [String]
    public var texts: [String]
    public var title: String?

    public init(files: [String] = [], urls: [String] = [], texts: [String] = [], title: String? = nil) {
        self.files = files
        self.urls = urls
        self.texts = texts
        self.title = title
    }

    /// Whether nothing is shared.
    public var isEmpty: Bool { files.isEmpty && urls.isEmpty && texts.isEmpty && title == nil }
}
