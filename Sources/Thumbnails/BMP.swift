/// Windows bitmaps (BMP): the core header and the info headers up to version 5; 1, 4 and 8 bits of palette
/// indices, run-length compressed or not (RLE4, RLE8), 16 and 32 bits through channel masks (5-5-5 and 8-8-8
/// without them), 24 bits; rows bottom-up or top-down.
struct BMPLayout {
    var width: Int, height: Int
    /// Rows stored top row first (a negative height), else bottom row first.
    var topDown: Bool
    var bitsPerPixel: Int
    var pixelOffset: Int
    var rowBytes: Int
    /// For 16 and 32 bits: where each channel lies in a pixel's little-endian integer.
    var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)?
    /// For 1, 4 and 8 bits: red, green, blue per index (indices beyond it are black).
    var palette: [(UInt8, UInt8, UInt8)]
    /// Run-length compressed indices of 8 or 4 bits (RLE8, RLE4); 0 when not compressed.
    var runLengthBits = 0

    init(_ source: some ByteSource) throws(ThumbnailError) {
        pixelOffset = Int(try source.uint32(at: 10, bigEndian: false))
        let headerSize = Int(try source.uint32(at: 14, bigEndian: false))
        let compression: UInt32
        var colors = 0
        if headerSize == 12 {
            width = Int(try source.uint16(at: 18, bigEndian: false))
            let rows = Int(try source.uint16(at: 20, bigEndian: false))
            height = rows
            topDown = false
            bitsPerPixel = Int(try source.uint16(at: 24, bigEndian: false))
            compression = 0
        } else {
            guard [40, 52, 56, 64, 108, 124].contains(headerSize) else { throw .corrupt("BMP: a header of \(headerSize) bytes") }
            width = Int(Int32(bitPattern: try source.uint32(at: 18, bigEndian: false)))
            let rows = Int(Int32(bitPattern: try source.uint32(at: 22, bigEndian: false)))
            topDown = rows < 0
            height = abs(rows)
            bitsPerPixel = Int(try source.uint16(at: 28, bigEndian: false))
            compression = try source.uint32(at: 30, bigEndian: false)
            colors = Int(try source.uint32(at: 46, bigEndian: false))
        }
        guard width > 0, height > 0, width <= 1 << 24, height <= 1 << 24 else { throw .corrupt("BMP: \(width) × \(height) pixels") }
        guard [1, 4, 8, 16, 24, 32].contains(bitsPerPixel) else { throw .corrupt("BMP: \(bitsPerPixel) bits a pixel") }
        rowBytes = (width * bitsPerPixel + 31) / 32 * 4
        palette = []
        switch (compression, bitsPerPixel) {
        case (0, 16): masks = (0x7C00, 0x03E0, 0x001F, 0)
        case (0, 32): masks = (0xFF_0000, 0xFF00, 0xFF, 0)
        case (0, _): masks = nil
        case (3, 16), (3, 32), (6, 16), (6, 32):
            // In the header from version 2 on; after a version-1 header otherwise.
            let at = 54
            let alpha = compression == 6 || headerSize >= 56 ? try source.uint32(at: at + 12, bigEndian: false) : 0
            masks = (try source.uint32(at: at, bigEndian: false), try source.uint32(at: at + 4, bigEndian: false),
                     try source.uint32(at: at + 8, bigEndian: false), alpha)
        case (1, 8), (2, 4):
            masks = nil
            runLengthBits = bitsPerPixel
        default:
            throw .unsupported("BMP: compression \(compression) with \(bitsPerPixel) bits a pixel")
        }
        if bitsPerPixel <= 8 {
            let start = 14 + headerSize
            let entrySize = headerSize == 12 ? 3 : 4
            var entries = min(colors == 0 ? 1 << bitsPerPixel : colors, 1 << bitsPerPixel)
            // The pixels' offset bounds a palette shorter than its bit depth allows (a core header gives no
            // count); an offset into the headers is wrong, and the pixels follow the palette.
            if pixelOffset > start { entries = min(entries, (pixelOffset - start) / entrySize) }
            let bytes = try source.bytes(at: start, count: entries * entrySize, exact: false)
            palette = stride(from: 0, to: bytes.count - entrySize + 1, by: entrySize).map { (bytes[$0 + 2], bytes[$0 + 1], bytes[$0]) }
            pixelOffset = max(pixelOffset, start + entries * entrySize)
        }
    }

    /// The whole image's palette indices, top row first, from run-length compressed data (what a run leaves
    /// out is index 0). `limit` bounds the bytes read and held.
    func runLengthIndices(in source: some ByteSource, limit: Int) throws(ThumbnailError) -> [UInt8] {
        guard width * height <= limit else { throw .overBudget(needed: width * height, budget: limit, why: "this run-length compressed BMP") }
        var indices = [UInt8](repeating: 0, count: width * height)
        let data = try Self.bytes(at: pixelOffset, count: limit, in: source)
        var (x, line, at) = (0, 0, 0)
        func put(_ index: UInt8) {
            guard x < width, line < height else { return }
            indices[(topDown ? line : height - 1 - line) * width + x] = index
            x += 1
        }
        while at + 1 < data.count, line < height {
            let (count, value) = (Int(data[at]), data[at + 1])
            at += 2
            if count > 0 {
                for n in 0..<count { put(runLengthBits == 8 ? value : (n % 2 == 0 ? value >> 4 : value & 15)) }
                continue
            }
            switch value {
            case 0: (x, line) = (0, line + 1)
            case 1: return indices
            case 2:
                guard at + 1 < data.count else { return indices }
                (x, line) = (x + Int(data[at]), line + Int(data[at + 1]))
                at += 2
            default:
                // Absolute: `value` indices as they are, padded to an even number of bytes.
                let bytes = runLengthBits == 8 ? Int(value) : (Int(value) + 1) / 2
                guard at + bytes <= data.count else { return indices }
                for n in 0..<Int(value) {
                    put(runLengthBits == 8 ? data[at + n] : (n % 2 == 0 ? data[at + n / 2] >> 4 : data[at + n / 2] & 15))
                }
                at += bytes + bytes % 2
            }
        }
        return indices
    }

    /// Source row `y` (top to bottom) as RGBA; `indices` are the run-length compressed image's.
    func row(_ y: Int, in source: some ByteSource, indices: [UInt8], into rgba: inout [UInt8]) throws(ThumbnailError) {
        if runLengthBits != 0 {
            for x in 0..<width {
                let index = Int(indices[y * width + x])
                let color = index < palette.count ? palette[index] : (0, 0, 0)
                (rgba[x * 4], rgba[x * 4 + 1], rgba[x * 4 + 2], rgba[x * 4 + 3]) = (color.0, color.1, color.2, 255)
            }
            return
        }
        let stored = topDown ? y : height - 1 - y
        // A file that ends early reads as zeros from there, as a truncated JPEG or PNG shows what came.
        var bytes = try Self.bytes(at: pixelOffset + stored * rowBytes, count: rowBytes, in: source)
        if bytes.count < rowBytes { bytes += [UInt8](repeating: 0, count: rowBytes - bytes.count) }
        for x in 0..<width {
            let out = x * 4
            switch bitsPerPixel {
            case 24:
                (rgba[out], rgba[out + 1], rgba[out + 2], rgba[out + 3]) = (bytes[x * 3 + 2], bytes[x * 3 + 1], bytes[x * 3], 255)
            case 16, 32:
                let size = bitsPerPixel / 8
                var pixel: UInt32 = 0
                for index in 0..<size { pixel |= UInt32(bytes[x * size + index]) << (8 * index) }
                let masks = masks!
                rgba[out] = Self.channel(pixel, masks.red)
                rgba[out + 1] = Self.channel(pixel, masks.green)
                rgba[out + 2] = Self.channel(pixel, masks.blue)
                rgba[out + 3] = masks.alpha == 0 ? 255 : Self.channel(pixel, masks.alpha)
            default:
                let bit = x * bitsPerPixel
                let index = Int(bytes[bit / 8] >> (8 - bitsPerPixel - bit % 8)) & ((1 << bitsPerPixel) - 1)
                let color = index < palette.count ? palette[index] : (0, 0, 0)
                (rgba[out], rgba[out + 1], rgba[out + 2], rgba[out + 3]) = (color.0, color.1, color.2, 255)
            }
        }
    }

    /// Up to `count` bytes at `offset`, fewer where the file ends, read in pieces no larger than a header read
    /// (a row of a wide image, or the compressed data, is larger).
    private static func bytes(at offset: Int, count: Int, in source: some ByteSource) throws(ThumbnailError) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let piece = try source.bytes(at: offset + bytes.count, count: min(largestHeaderRead, count - bytes.count), exact: false)
            bytes += piece
            if piece.isEmpty { break }
        }
        return bytes
    }

    /// A channel's bits, scaled to 0–255.
    private static func channel(_ pixel: UInt32, _ mask: UInt32) -> UInt8 {
        guard mask != 0 else { return 0 }
        let bits = mask.nonzeroBitCount
        let value = (pixel & mask) >> mask.trailingZeroBitCount
        return bits >= 8 ? UInt8(truncatingIfNeeded: value >> (bits - 8)) : UInt8(value * 255 / ((1 << bits) - 1))
    }
}
