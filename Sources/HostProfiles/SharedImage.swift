public import Foundation
public import SharingShim

/// An image held in memory as an object, the way UIKit's `UIImage` is registered by apps such as the
/// screenshot editor: it writes itself as PNG only, and the legacy `loadItem` hands over the object.
///
/// An OpenSharing stand-in (no UIKit here); the fixture payload `{"image": "file.png"}` makes one.
public final class SharedImage: NSObject, NSItemProviderWriting, NSSecureCoding, @unchecked Sendable {
    /// The encoded image (PNG).
    public let pngData: Data

    public init(pngData: Data) {
        self.pngData = pngData
    }

    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.png"] }

    public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        completionHandler(pngData, nil)
        return nil
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(pngData as NSData, forKey: "png")
    }

    public init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "png") else { return nil }
        self.pngData = data as Data
    }
}
