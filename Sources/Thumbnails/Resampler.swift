/// Area averaging from a source size down to an output size, fed one source row at a time: each output
/// pixel is the mean of the source area it covers, with source pixels on its edges counted by the fraction
/// inside. Rows may come in order (then only the one or two output rows they touch are kept) or in any
/// order, sparse, as interlaced PNG and GIF deliver them (then every output row is kept until the end).
/// With four channels the color is weighted by alpha, so that clear pixels do not darken edges.
/// Finished rows are turned upright as they are written into the output image.
struct Resampler {
    let sourceWidth: Int, sourceHeight: Int
    let width: Int, height: Int
    let channels: Int
    let orientation: ImageOrientation
    let inOrder: Bool
    /// The upright image, rows of `channels` bytes per pixel.
    private(set) var image: [UInt8]
    private let columns: [Span], rows: [Span]
    /// Sums per output row, for the rows begun and not yet finished.
    private var sums: [Int: [Float]] = [:]
    private var horizontal: [Float]

    /// Where a source pixel's unit of length lands: its share of output `first`, the rest in `first + 1`.
    struct Span {
        var first: Int
        var weight: Float
        var next: Float
    }

    /// The output rows being summed at once when source rows come in order.
    static let rowsHeldInOrder = 3

    /// The memory a resampler of these sizes holds at most, in bytes, with `heldRows` output rows being
    /// summed at once (`rowsHeldInOrder`, or `height` when rows come in any order).
    static func memory(sourceWidth: Int, width: Int, height: Int, channels: Int, heldRows: Int) -> Int {
        let row = width * channels * MemoryLayout<Float>.size
        return width * height * channels + min(heldRows, height) * row + sourceWidth * 2 * MemoryLayout<Span>.size
    }

    init(from sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int, channels: Int,
         orientation: ImageOrientation, inOrder: Bool) {
        precondition(width >= 1 && height >= 1 && width <= sourceWidth && height <= sourceHeight)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        self.channels = channels
        self.orientation = orientation
        self.inOrder = inOrder
        // Room for a fourth channel is reserved, untouched (so not resident), so that RGB can become RGBA in place.
        let count = width * height * channels
        image = [UInt8](unsafeUninitializedCapacity: width * height * (channels == 3 ? 4 : channels)) { buffer, initialized in
            buffer.baseAddress!.initialize(repeating: 0, count: count)
            initialized = count
        }
        columns = Self.spans(from: sourceWidth, to: width)
        rows = Self.spans(from: sourceHeight, to: height)
        horizontal = [Float](repeating: 0, count: width * channels)
    }

    private static func spans(from source: Int, to output: Int) -> [Span] {
        let ratio = Double(source) / Double(output)
        return (0..<source).map { index in
            let first = min(output - 1, Int(Double(index) / ratio))
            let boundary = Double(first + 1) * ratio
            if Double(index + 1) <= boundary || first == output - 1 {
                return Span(first: first, weight: Float(1 / ratio), next: 0)
            }
            let inside = (boundary - Double(index)) / ratio
            return Span(first: first, weight: Float(inside), next: Float(1 / ratio - inside))
        }
    }

    /// Adds source row `y`: `count` pixels of `channels` bytes, the first at column `start`, then every `step`.
    mutating func add(row y: Int, pixels: UnsafePointer<UInt8>, count: Int, start: Int = 0, step: Int = 1) {
        // At the same size and upright (a whole image decoded), each pixel is its own average: copied.
        if width == sourceWidth && height == sourceHeight && orientation == .up {
            let (channels, width) = (channels, width)
            image.withUnsafeMutableBufferPointer { image in
                let row = image.baseAddress! + y * width * channels
                if step == 1 {
                    (row + start * channels).update(from: pixels, count: count * channels)
                } else {
                    for index in 0..<count {
                        (row + (start + index * step) * channels).update(from: pixels + index * channels, count: channels)
                    }
                }
            }
            return
        }
        let span = rows[y]
        if inOrder { finish(before: y) }
        horizontal.withUnsafeMutableBufferPointer { line in
            for index in 0..<line.count { line[index] = 0 }
            var x = start
            for index in 0..<count {
                let column = columns[x]
                let pixel = pixels + index * channels
                let out = column.first * channels
                if channels == 4 {
                    let alpha = Float(pixel[3])
                    let scale = alpha / 255
                    for channel in 0..<3 {
                        let value = Float(pixel[channel]) * scale
                        line[out + channel] += value * column.weight
                        if column.next > 0 { line[out + 4 + channel] += value * column.next }
                    }
                    line[out + 3] += alpha * column.weight
                    if column.next > 0 { line[out + 7] += alpha * column.next }
                } else {
                    for channel in 0..<channels {
                        let value = Float(pixel[channel])
                        line[out + channel] += value * column.weight
                        if column.next > 0 { line[out + channels + channel] += value * column.next }
                    }
                }
                x += step
            }
        }
        accumulate(into: span.first, weight: span.weight)
        if span.next > 0 { accumulate(into: span.first + 1, weight: span.next) }
        if inOrder && y == sourceHeight - 1 { finish() }
    }

    private mutating func accumulate(into row: Int, weight: Float) {
        let line = horizontal
        sums[row, default: [Float](repeating: 0, count: width * channels)].withUnsafeMutableBufferPointer { sum in
            line.withUnsafeBufferPointer { line in
                for index in 0..<sum.count { sum[index] += line[index] * weight }
            }
        }
    }

    /// Writes every row still being summed.
    mutating func finish() {
        for row in sums.keys.sorted() { emit(row) }
    }

    /// Writes the rows that no source row from `y` on reaches: with rows in any order within bands (a grid's
    /// rows of tiles), once a band is done.
    mutating func finish(before y: Int) {
        let first = rows[y].first
        for row in sums.keys.sorted() where row < first { emit(row) }
    }

    private mutating func emit(_ row: Int) {
        guard let sum = sums.removeValue(forKey: row) else { return }
        let (uprightWidth, _) = orientation.swapsAxes ? (height, width) : (width, height)
        image.withUnsafeMutableBufferPointer { image in
            for x in 0..<width {
                let (ux, uy) = orientation.place(x, row, width: width, height: height)
                let target = (uy * uprightWidth + ux) * channels
                let source = x * channels
                if channels == 4 {
                    let alpha = sum[source + 3]
                    for channel in 0..<3 {
                        image[target + channel] = alpha > 0.5 ? Self.byte(sum[source + channel] * 255 / alpha) : 0
                    }
                    image[target + 3] = Self.byte(alpha)
                } else {
                    for channel in 0..<channels { image[target + channel] = Self.byte(sum[source + channel]) }
                }
            }
        }
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
