public import Foundation
public import OpenImageIO
import Thumbnails

/// How an image renderer draws: at what scale, and whether its pixels are opaque.
///
/// Stands in for UIKit's `UIGraphicsImageRendererFormat`.
// @unchecked: UIKit's image renderers may be used from any thread, as Apple documents; its settings are set before it is handed on.
open class UIGraphicsImageRendererFormat: NSObject, @unchecked Sendable {
    /// Device pixels a point: the main screen's scale unless set. Stands in for `scale`.
    open var scale: CGFloat = UIScreen.environmentScale
    /// Whether the image has no alpha (its background white rather than clear). Stands in for `opaque`.
    open var opaque = false

    public override init() {
        super.init()
    }

    /// Stands in for `UIGraphicsImageRendererFormat.preferred()`.
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }

    /// Stands in for `UIGraphicsImageRendererFormat.default()`.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// What a renderer's drawing actions draw into. Stands in for UIKit's `UIGraphicsImageRendererContext`.
// @unchecked: it holds a CGContext, drawn into from the one thread that draws, as UIKit's.
open class UIGraphicsImageRendererContext: NSObject, @unchecked Sendable {
    /// Stands in for `UIGraphicsImageRendererContext.format`.
    public let format: UIGraphicsImageRendererFormat
    /// The bitmap, flipped as UIKit's are. Stands in for `UIGraphicsImageRendererContext.cgContext`.
    public let cgContext: CGContext

    init(format: UIGraphicsImageRendererFormat, cgContext: CGContext) {
        self.format = format
        self.cgContext = cgContext
    }

    /// What is drawn so far. Stands in for `UIGraphicsImageRendererContext.currentImage`.
    open var currentImage: UIImage {
        UIImage(cgImage: cgContext.makeImage()!, scale: format.scale, orientation: .up)
    }

    /// Fills `rect` with the current fill color. Stands in for `UIGraphicsImageRendererContext.fill(_:)`.
    open func fill(_ rect: CGRect) {
        cgContext.fill(rect)
    }
}

/// Draws images: each one a bitmap of the size in points times the format's scale, 4 bytes a pixel, made
/// whole before anything is drawn, as UIKit's are.
///
/// Stands in for UIKit's `UIGraphicsImageRenderer`.
// @unchecked: UIKit's image renderers may be used from any thread, as Apple documents; its state is immutable once made.
open class UIGraphicsImageRenderer: NSObject, @unchecked Sendable {
    /// Stands in for `UIGraphicsImageRenderer.DrawingActions`.
    public typealias DrawingActions = (UIGraphicsImageRendererContext) -> Void

    /// Stands in for `UIGraphicsImageRenderer.format`.
    public let format: UIGraphicsImageRendererFormat
    private let bounds: CGRect

    /// Stands in for `UIGraphicsImageRenderer.init(size:)`.
    public convenience init(size: CGSize) {
        self.init(size: size, format: UIGraphicsImageRendererFormat())
    }

    /// Stands in for `UIGraphicsImageRenderer.init(size:format:)`.
    public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.init(bounds: CGRect(origin: .zero, size: size), format: format)
    }

    /// Stands in for `UIGraphicsImageRenderer.init(bounds:format:)`.
    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        self.bounds = bounds
        self.format = format
    }

    /// Runs `actions` on a new bitmap and gives what they drew. Stands in for `UIGraphicsImageRenderer.image(actions:)`.
    open func image(actions: DrawingActions) -> UIImage {
        let context = ImageContexts.push(size: bounds.size, opaque: format.opaque, scale: format.scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        defer { ImageContexts.pop() }
        actions(UIGraphicsImageRendererContext(format: format, cgContext: context))
        return UIImage(cgImage: context.makeImage()!, scale: format.scale, orientation: .up)
    }

    /// Stands in for `UIGraphicsImageRenderer.jpegData(withCompressionQuality:actions:)`.
    open func jpegData(withCompressionQuality compressionQuality: CGFloat, actions: DrawingActions) -> Data {
        image(actions: actions).jpegData(compressionQuality: compressionQuality) ?? Data()
    }

    /// Stands in for `UIGraphicsImageRenderer.pngData(actions:)`.
    open func pngData(actions: DrawingActions) -> Data {
        image(actions: actions).pngData() ?? Data()
    }
}

/// The image contexts begun on each thread, the current one last: UIKit's drawing goes into the last.
enum ImageContexts {
    private final class Stack {
        var contexts: [CGContext] = []
    }

    private static let key = "org.opensharing.image-contexts"

    private static var stack: Stack {
        if let stack = Thread.current.threadDictionary[key] as? Stack { return stack }
        let stack = Stack()
        Thread.current.threadDictionary[key] = stack
        return stack
    }

    static var current: CGContext? { stack.contexts.last }

    /// Begins a context of `size` points at `scale`, flipped as UIKit's are, and makes it current.
    @discardableResult
    static func push(size: CGSize, opaque: Bool, scale: CGFloat) -> CGContext {
        let scale = scale > 0 ? scale : UIScreen.environmentScale
        let width = max(1, Int((size.width * scale).rounded(.up))), height = max(1, Int((size.height * scale).rounded(.up)))
        let context = CGContext(width: width, height: height, opaque: opaque, scale: scale, flipped: true)
        stack.contexts.append(context)
        return context
    }

    static func pop() {
        _ = stack.contexts.popLast()
    }
}

/// Begins a bitmap image context of `size` points at `scale` (0: the screen's), and makes it current.
///
/// Stands in for UIKit's `UIGraphicsBeginImageContextWithOptions(_:_:_:)`.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    ImageContexts.push(size: size, opaque: opaque, scale: scale)
}

/// Begins a bitmap image context of `size` points at scale 1, not opaque.
///
/// Stands in for UIKit's `UIGraphicsBeginImageContext(_:)`.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    ImageContexts.push(size: size, opaque: false, scale: 1)
}

/// What the current image context holds, as an image; `nil` without one.
///
/// Stands in for UIKit's `UIGraphicsGetImageFromCurrentImageContext()`.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let context = ImageContexts.current, let image = context.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: context.scale, orientation: .up)
}

/// Ends the current image context. Stands in for UIKit's `UIGraphicsEndImageContext()`.
public func UIGraphicsEndImageContext() {
    ImageContexts.pop()
}

/// The context UIKit's drawing goes into now: the innermost renderer's or image context's; `nil` without one.
///
/// Stands in for UIKit's `UIGraphicsGetCurrentContext()`.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    ImageContexts.current
}
