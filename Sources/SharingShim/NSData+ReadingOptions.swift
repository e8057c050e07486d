#if !canImport(Darwin)
public import Foundation

extension NSData.ReadingOptions {
    /// The legacy name of `mappedIfSafe` that Apple's Foundation keeps (`NSMappedRead`, 1) and
    /// swift-corelibs-foundation lacks: `Data(contentsOf: url, options: .mappedRead)` in notification services.
    public static var mappedRead: NSData.ReadingOptions { .mappedIfSafe }

    /// The legacy name of `mappedIfSafe` (`NSDataReadingMapped`, 1).
    public static var dataReadingMapped: NSData.ReadingOptions { .mappedIfSafe }

    /// The legacy name of `uncached` (`NSUncachedRead`, 2).
    public static var uncachedRead: NSData.ReadingOptions { .uncached }
}
#endif
