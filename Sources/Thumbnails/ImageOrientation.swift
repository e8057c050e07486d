/// How stored pixels are turned to be seen upright: EXIF's eight orientations, with the names and values of
/// Apple's `CGImagePropertyOrientation`.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether upright, the image's width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Where the stored pixel (x, y) of a `width` × `height` image lands in the upright image.
    func place(_ x: Int, _ y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (height - 1 - y, x)
        case .rightMirrored: return (height - 1 - y, width - 1 - x)
        case .left: return (y, width - 1 - x)
        }
    }
}
