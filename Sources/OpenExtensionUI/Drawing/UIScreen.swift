public import Foundation
import OpenImageIO
import Thumbnails

/// The screen the extension's host shows it on: its scale (device pixels a point) and its size in points, as
/// the runtime passes them for the device it plays (`OPENSHARING_SCREEN_SCALE`, `OPENSHARING_SCREEN_POINTS`
/// as `WIDTHxHEIGHT`); otherwise the iPhone 13's, a real pair: a scale of 3 and 390 × 844 points.
///
/// Stands in for UIKit's `UIScreen`, main-actor isolated as Apple's is.
@preconcurrency @MainActor
open class UIScreen: NSObject {
    /// Stands in for `UIScreen.main`.
    public static let main = UIScreen()

    /// Stands in for `UIScreen.scale`.
    open var scale: CGFloat { Self.environmentScale }
    /// Stands in for `UIScreen.nativeScale`.
    open var nativeScale: CGFloat { Self.environmentScale }

    /// Stands in for `UIScreen.bounds`.
    open var bounds: CGRect {
        let given = ProcessInfo.processInfo.environment["OPENSHARING_SCREEN_POINTS"]?.split(separator: "x").compactMap { Double($0) }
        guard let given, given.count == 2, given.allSatisfy({ $0 > 0 }) else { return CGRect(x: 0, y: 0, width: 390, height: 844) }
        return CGRect(x: 0, y: 0, width: given[0], height: given[1])
    }

    /// The scale the runtime passes, from any thread (renderers' formats take it by default).
    nonisolated static var environmentScale: CGFloat {
        let given = ProcessInfo.processInfo.environment["OPENSHARING_SCREEN_SCALE"].flatMap(Double.init)
        return CGFloat(given.map { max(1, min(4, $0)) } ?? 3)
    }
}
