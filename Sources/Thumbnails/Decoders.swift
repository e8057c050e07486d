import CThumbnailCodecs

/// What every decoder is asked: the file (its path for the C libraries that open it themselves, and the file
/// already open for those read through it), the output size, the orientation, and the limits.
struct DecodeRequest {
    let path: String
    let file: FileBytes
    let maxPixelSize: Int
    let orientation: ImageOrientation
    let memoryBudget: Int

    /// The size no larger than `maxPixelSize` on the longer side, for a source of this size.
    func outputSize(width: Int, height: Int) -> (Int, Int) {
        fittedSize(width: width, height: height, maxPixelSize: maxPixelSize)
    }

    func check(_ needed: Int, _ why: String) throws(ThumbnailError) {
        if needed > memoryBudget { throw .overBudget(needed: needed, budget: memoryBudget, why: why) }
    }
}

/// The size no larger than `maxPixelSize` on the longer side of an image this size, and never larger than it.
func fittedSize(width: Int, height: Int, maxPixelSize: Int) -> (Int, Int) {
    let longer = max(width, height)
    guard longer > maxPixelSize else { return (width, height) }
    let scale = Double(maxPixelSize) / Double(longer)
    return (max(1, min(width, Int((Double(width) * scale).rounded()))), max(1, min(height, Int((Double(height) * scale).rounded()))))
}

/// The message a C wrapper wrote into its buffer.
func text(_ message: [CChar]) -> String {
    String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// MARK: JPEG

enum JPEGDecoder {
    /// The JPEG stream at `offset` in the file: its start, or inside a TIFF, where it must be of `size`.
    static func decode(_ request: DecodeRequest, at offset: Int = 0, size: (width: Int, height: Int)? = nil) throws(ThumbnailError) -> Resampler {
        var info = tn_jpeg_info()
        var message = [CChar](repeating: 0, count: Int(TN_MESSAGE_SIZE))
        guard let jpeg = tn_jpeg_open(request.path, offset, &info, &message) else { throw .corrupt("JPEG: \(text(message))") }
        defer { tn_jpeg_close(jpeg) }
        let (width, height) = (Int(info.width), Int(info.height))
        if let size, size != (width, height) {
            throw .corrupt("JPEG: the stream at byte \(offset) is \(width) × \(height) pixels, its TIFF \(size.width) × \(size.height)")
        }
        let (outWidth, outHeight) = request.outputSize(width: width, height: height)
        // Decode at the smallest of libjpeg's scales (n/8) that is still no smaller than the output: the
        // scaled inverse DCT does most of the reduction, for a fraction of the work and memory.
        var numerator = 1
        while numerator < 8 && ((width * numerator + 7) / 8 < outWidth || (height * numerator + 7) / 8 < outHeight) { numerator += 1 }
        let scaledWidth = (width * numerator + 7) / 8
        let channels = info.components == 1 ? 1 : 3
        let resampler = Resampler.memory(sourceWidth: scaledWidth, width: outWidth, height: outHeight, channels: channels, heldRows: Resampler.rowsHeldInOrder)
        // libjpeg's own buffers: a band of 16 rows per component for the sequential decoder; a progressive
        // file needs every coefficient of the image at once. And the compressed bytes read in.
        let progressive = info.progressive != 0
        let coefficients: Int = progressive ? Int(info.coefficient_bytes) : 0
        let decoder: Int = scaledWidth * Int(info.components) * 16 * 4 + coefficients + Int(TN_JPEG_INPUT_SIZE)
        try request.check(resampler + decoder, progressive ? "decoding this progressive JPEG" : "decoding this JPEG")
        var (scaledW, scaledH, outChannels): (Int32, Int32, Int32) = (0, 0, 0)
        guard tn_jpeg_start(jpeg, Int32(numerator), request.memoryBudget - resampler, &scaledW, &scaledH, &outChannels, &message) == 0 else {
            throw .corrupt("JPEG: \(text(message))")
        }
        var output = Resampler(from: Int(scaledW), Int(scaledH), to: min(outWidth, Int(scaledW)), min(outHeight, Int(scaledH)),
                               channels: channels, orientation: request.orientation, inOrder: true)
        let stride = Int(scaledW) * Int(outChannels)
        let band = 16
        var rows = [UInt8](repeating: 0, count: stride * band)
        var converted = [UInt8](repeating: 0, count: Int(scaledW) * 3)
        let inverted = info.adobe_inverted != 0
        var y = 0
        while y < Int(scaledH) {
            let read = rows.withUnsafeMutableBufferPointer { tn_jpeg_read(jpeg, $0.baseAddress, Int32(band), &message) }
            guard read > 0 else { throw .corrupt("JPEG: \(read < 0 ? text(message) : "the image data ends early")") }
            for index in 0..<Int(read) {
                rows.withUnsafeBufferPointer { rows in
                    let row = rows.baseAddress! + index * stride
                    if outChannels == 4 {
                        // CMYK as Adobe writes it (inverted): each color is its ink's complement times black's.
                        for x in 0..<Int(scaledW) {
                            let pixel = row + x * 4
                            let k = Int(inverted ? pixel[3] : 255 - pixel[3])
                            for channel in 0..<3 {
                                let ink = Int(inverted ? pixel[channel] : 255 - pixel[channel])
                                converted[x * 3 + channel] = UInt8((ink * k + 127) / 255)
                            }
                        }
                        converted.withUnsafeBufferPointer { output.add(row: y, pixels: $0.baseAddress!, count: Int(scaledW)) }
                    } else {
                        output.add(row: y, pixels: row, count: Int(scaledW))
                    }
                }
                y += 1
            }
        }
        return output
    }
}

// MARK: PNG

enum PNGDecoder {
    /// Adam7: each pass's first row and column, and the steps between its rows and columns.
    private static let passes: [(row: Int, column: Int, rowStep: Int, columnStep: Int)] = [
        (0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1),
    ]

    static func decode(_ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        var info = tn_png_info()
        var message = [CChar](repeating: 0, count: Int(TN_MESSAGE_SIZE))
        guard let png = tn_png_open(request.path, &info, &message) else { throw .corrupt("PNG: \(text(message))") }
        defer { tn_png_close(png) }
        let (width, height) = (Int(info.width), Int(info.height))
        let (outWidth, outHeight) = request.outputSize(width: width, height: height)
        let channels = info.has_alpha != 0 ? 4 : 3
        let interlaced = info.interlaced != 0
        let memory = Resampler.memory(sourceWidth: width, width: outWidth, height: outHeight, channels: channels,
                                      heldRows: interlaced ? outHeight : Resampler.rowsHeldInOrder)
        try request.check(memory + width * channels + (64 << 10), interlaced ? "reducing this interlaced PNG" : "reducing this PNG")
        var output = Resampler(from: width, height, to: outWidth, outHeight, channels: channels, orientation: request.orientation, inOrder: !interlaced)
        var row = [UInt8](repeating: 0, count: width * channels)
        var (pass, index, pixels): (Int32, Int32, Int32) = (0, 0, 0)
        while true {
            let status = row.withUnsafeMutableBufferPointer { tn_png_read_row(png, $0.baseAddress, &pass, &index, &pixels, &message) }
            guard status >= 0 else { throw .corrupt("PNG: \(text(message))") }
            guard status == 1 else { break }
            row.withUnsafeBufferPointer { row in
                if pass == 0 {
                    output.add(row: Int(index), pixels: row.baseAddress!, count: Int(pixels))
                } else {
                    let layout = passes[Int(pass) - 1]
                    output.add(row: layout.row + Int(index) * layout.rowStep, pixels: row.baseAddress!, count: Int(pixels),
                               start: layout.column, step: layout.columnStep)
                }
            }
        }
        if interlaced { output.finish() }
        return output
    }
}

// MARK: GIF

/// GIF in Swift (GIF89a, https://www.w3.org/Graphics/GIF/spec-gif89a.txt): the first frame on the logical
/// screen, transparent where it does not cover, its LZW codes decoded as they are read and its rows handed on
/// as they are complete. Any LZW minimum code size up to 11 is read, as Pillow reads it (giflib refuses those
/// above 8, though codes of up to 12 bits hold them). A frame whose data ends early shows what it has.
enum GIFDecoder {
    static func decode(_ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        let source = request.file
        let screen = try source.bytes(at: 6, count: 7)
        let (width, height) = (Int(screen[0]) | Int(screen[1]) << 8, Int(screen[2]) | Int(screen[3]) << 8)
        guard width > 0, height > 0 else { throw .corrupt("GIF: the screen is \(width) × \(height) pixels") }
        var offset = 13
        var global: [(UInt8, UInt8, UInt8)]?
        if screen[4] & 0x80 != 0 { (global, offset) = try palette(source, at: offset, bits: Int(screen[4] & 7)) }
        var transparent: Int?
        while true {
            let introducer = try source.bytes(at: offset, count: 1)[0]
            switch introducer {
            case 0x21:
                // A graphic control extension: its flags and transparent index, in a block of 4 bytes.
                let label = try source.bytes(at: offset + 1, count: 1)[0]
                if label == 0xF9, let control = try? source.bytes(at: offset + 2, count: 5), control[0] >= 4 {
                    transparent = control[1] & 1 != 0 ? Int(control[4]) : nil
                }
                offset = try HeaderReader.skipSubBlocks(source, from: offset + 2)
            case 0x2C:
                return try frame(source, at: offset + 1, global: global, transparent: transparent, request: request, screen: (width, height))
            case 0x3B:
                throw .corrupt("GIF: no image")
            default:
                throw .corrupt("GIF: an unknown block 0x\(String(introducer, radix: 16)) at byte \(offset)")
            }
        }
    }

    /// The colour table of 2^(bits + 1) entries at `offset`, as 256 colours (black past its end), and the offset
    /// after it.
    private static func palette(_ source: FileBytes, at offset: Int, bits: Int) throws(ThumbnailError) -> ([(UInt8, UInt8, UInt8)], Int) {
        let count = 2 << bits
        let bytes = try source.bytes(at: offset, count: count * 3)
        return ((0..<256).map { $0 < count ? (bytes[$0 * 3], bytes[$0 * 3 + 1], bytes[$0 * 3 + 2]) : (0, 0, 0) }, offset + count * 3)
    }

    private static func frame(_ source: FileBytes, at start: Int, global: [(UInt8, UInt8, UInt8)]?, transparent: Int?,
                              request: DecodeRequest, screen: (width: Int, height: Int)) throws(ThumbnailError) -> Resampler {
        let descriptor = try source.bytes(at: start, count: 9)
        let field = { (index: Int) in Int(descriptor[index]) | Int(descriptor[index + 1]) << 8 }
        let (left, top, frameWidth, frameHeight) = (field(0), field(2), field(4), field(6))
        let output = request.outputSize(width: screen.width, height: screen.height)
        // Every output row stays open (interlaced rows come in four passes); a row of indices, one of RGBA, and
        // which screen rows the frame covered.
        try request.check(Resampler.memory(sourceWidth: screen.width, width: output.0, height: output.1, channels: 4, heldRows: output.1)
                          + frameWidth * 2 + screen.width * 4 + screen.height + LZWDecoder.memory, "reducing this GIF")
        var offset = start + 9
        var colors = global
        if descriptor[8] & 0x80 != 0 { (colors, offset) = try palette(source, at: offset, bits: Int(descriptor[8] & 7)) }
        // Without a colour table, local or global, each index is a grey level, as other decoders read it.
        let palette = colors ?? (0..<256).map { (UInt8($0), UInt8($0), UInt8($0)) }
        let minimumCodeSize = Int(try source.bytes(at: offset, count: 1)[0])
        let decoder = try LZWDecoder(minimumCodeSize: minimumCodeSize, source: source, at: offset + 1)
        var resampler = Resampler(from: screen.width, screen.height, to: output.0, output.1, channels: 4, orientation: request.orientation, inOrder: false)
        // Interlaced frames send rows 0, 8, 16 …, then 4, 12 …, then 2, 6 …, then the odd ones.
        let passes = descriptor[8] & 0x40 != 0 ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        var indices = [UInt16](repeating: 0, count: frameWidth)
        var rgba = [UInt8](repeating: 0, count: screen.width * 4)
        var covered = [Bool](repeating: false, count: screen.height)
        rows: for (first, step) in passes {
            for row in stride(from: first, to: frameHeight, by: step) {
                guard try indices.withUnsafeMutableBufferPointer({ indices throws(ThumbnailError) in try decoder.read(into: indices) }) else {
                    break rows
                }
                let y = top + row
                guard y < screen.height else { continue }
                let visible = min(frameWidth, max(0, screen.width - left))
                rgba.withUnsafeMutableBufferPointer { rgba in
                    rgba.update(repeating: 0)
                    palette.withUnsafeBufferPointer { palette in
                        indices.withUnsafeBufferPointer { indices in
                            for x in 0..<visible {
                                let color = Int(indices[x])
                                guard color != transparent, color < 256 else { continue }
                                let pixel = palette[color]
                                let target = (left + x) * 4
                                (rgba[target], rgba[target + 1], rgba[target + 2], rgba[target + 3]) = (pixel.0, pixel.1, pixel.2, 255)
                            }
                        }
                    }
                    resampler.add(row: y, pixels: UnsafePointer(rgba.baseAddress!), count: screen.width)
                }
                covered[y] = true
            }
        }
        // The rows the frame did not cover, clear.
        rgba.withUnsafeMutableBufferPointer { rgba in
            rgba.update(repeating: 0)
            for y in 0..<screen.height where !covered[y] { resampler.add(row: y, pixels: UnsafePointer(rgba.baseAddress!), count: screen.width) }
        }
        resampler.finish()
        return resampler
    }
}

/// GIF's variable-length LZW (GIF89a appendix F) over the frame's data sub-blocks (a size byte, then that many
/// bytes, until a size of 0), read from the file 64 KB at a time: codes of `minimumCodeSize` + 1 bits growing
/// to 12, least significant bit first, with a clear code and an end code; a full table is kept until the next
/// clear. A class over one allocation, so that the hot loop touches no reference counts.
private final class LZWDecoder {
    /// What its tables and its buffer of the file hold.
    static let memory = (4096 * 2 + 4097) * 2 + largestHeaderRead

    private let source: FileBytes
    private var chunk: [UInt8] = []
    private var position = 0
    /// Where `chunk` starts in the file, and the bytes left in the current sub-block.
    private var chunkStart: Int
    private var blockLeft = 0
    private var dataEnded = false

    private let clear: Int
    private var codeSize: Int
    private var next: Int
    private var previous: Int?
    private var first = 0
    /// Each code's previous code and last index, and a code's string, last index first.
    private let prefix: UnsafeMutablePointer<UInt16>, suffix: UnsafeMutablePointer<UInt16>, stack: UnsafeMutablePointer<UInt16>
    /// How much of the stack is left to hand out.
    private var pending = 0
    private var bits: UInt32 = 0, bitCount = 0
    private var finished = false

    /// The decoder of the data that starts at `offset`.
    init(minimumCodeSize: Int, source: FileBytes, at offset: Int) throws(ThumbnailError) {
        guard (1...11).contains(minimumCodeSize) else { throw .corrupt("GIF: an LZW minimum code size of \(minimumCodeSize) at byte \(offset - 1)") }
        self.source = source
        chunkStart = offset
        clear = 1 << minimumCodeSize
        codeSize = minimumCodeSize + 1
        next = clear + 2
        prefix = .allocate(capacity: 4096 * 2 + 4097)
        prefix.initialize(repeating: 0, count: 4096 * 2 + 4097)
        suffix = prefix + 4096
        stack = prefix + 8192
    }

    deinit {
        prefix.deallocate()
    }

    /// Fills `row` with the next indices; false when the data ends first (the frame is cut short).
    func read(into row: UnsafeMutableBufferPointer<UInt16>) throws(ThumbnailError) -> Bool {
        var x = 0
        while x < row.count {
            if pending == 0 { try refill() }
            guard pending > 0 else { return false }
            // The stack's string, last index first, as far as the row goes.
            let take = min(pending, row.count - x)
            for offset in 0..<take { row[x + offset] = stack[pending - 1 - offset] }
            (x, pending) = (x + take, pending - take)
        }
        return true
    }

    /// The next byte of data; nil at the terminating sub-block or the end of the file.
    private func nextByte() throws(ThumbnailError) -> UInt8? {
        while blockLeft == 0 {
            guard !dataEnded, let size = try fileByte(), size > 0 else {
                dataEnded = true
                return nil
            }
            blockLeft = Int(size)
        }
        guard let byte = try fileByte() else {
            dataEnded = true
            return nil
        }
        blockLeft -= 1
        return byte
    }

    private func fileByte() throws(ThumbnailError) -> UInt8? {
        if position == chunk.count {
            chunkStart += chunk.count
            chunk = try source.bytes(at: min(chunkStart, source.size), count: largestHeaderRead, exact: false)
            position = 0
            if chunk.isEmpty { return nil }
        }
        defer { position += 1 }
        return chunk[position]
    }

    /// Decodes codes until one gives indices onto the stack, or the data ends.
    private func refill() throws(ThumbnailError) {
        while pending == 0, !finished {
            while bitCount < codeSize {
                guard let byte = try nextByte() else {
                    finished = true
                    return
                }
                bits |= UInt32(byte) << bitCount
                bitCount += 8
            }
            var code = Int(bits & (1 << codeSize - 1))
            bits >>= codeSize
            bitCount -= codeSize
            if code == clear {
                (codeSize, next, previous) = (clear.trailingZeroBitCount + 1, clear + 2, nil)
                continue
            }
            if code == clear + 1 {
                finished = true
                return
            }
            guard let previous else {
                guard code < clear else { throw .corrupt("GIF: the LZW code \(code) before any string") }
                (first, self.previous) = (code, code)
                stack[0] = UInt16(code)
                pending = 1
                return
            }
            guard code <= next, code < 4096 else { throw .corrupt("GIF: the LZW code \(code) where the table ends at \(next)") }
            let given = code
            if code == next {
                // The string not yet in the table: the previous one and its own first index.
                stack[pending] = UInt16(first)
                pending += 1
                code = previous
            }
            while code >= clear {
                stack[pending] = suffix[code]
                pending += 1
                code = Int(prefix[code])
            }
            first = code
            stack[pending] = UInt16(code)
            pending += 1
            if next < 4096 {
                prefix[next] = UInt16(previous)
                suffix[next] = UInt16(first)
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            self.previous = given
        }
    }
}

// MARK: TIFF

/// TIFF through libtiff's RGBA interface (every photometric interpretation, bit depth, compression and
/// layout libtiff reads), a strip or a row of tiles at a time.
enum TIFFDecoder {
    static func decode(_ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        // An old-style JPEG TIFF (compression 6) whose image is one JPEG stream, as most such pages are:
        // libtiff decodes its one strip whole; read as the JPEG it is, it goes a band at a time, scaled by the
        // DCT. A stream that will not decode (some writers point at tables only) is left to libtiff.
        if let (offset, size) = try? embeddedJPEG(in: request.file), let resampler = try? JPEGDecoder.decode(request, at: offset, size: size) {
            return resampler
        }
        var info = tn_tiff_info()
        var message = [CChar](repeating: 0, count: Int(TN_MESSAGE_SIZE))
        guard let tiff = tn_tiff_open(request.path, request.memoryBudget, &info, &message) else {
            throw info.unsupported != 0 ? .unsupported("TIFF: \(text(message))") : .corrupt("TIFF: \(text(message))")
        }
        defer { tn_tiff_close(tiff) }
        let (width, height) = (Int(info.width), Int(info.height))
        let (outWidth, outHeight) = request.outputSize(width: width, height: height)
        let channels = info.has_alpha != 0 ? 4 : 3
        // libtiff decodes a strip (or a row of tiles) whole: that many rows, as RGBA, besides its own buffer.
        let band = max(1, Int(info.band_rows))
        try request.check(Int(info.band_bytes) + width * band * 4
                          + Resampler.memory(sourceWidth: width, width: outWidth, height: outHeight, channels: channels, heldRows: Resampler.rowsHeldInOrder),
                          "decoding this TIFF, \(band) rows at a time,")
        var output = Resampler(from: width, height, to: outWidth, outHeight, channels: channels, orientation: request.orientation, inOrder: true)
        var rgba = [UInt8](repeating: 0, count: width * band * 4)
        var rgb = [UInt8](repeating: 0, count: channels == 3 ? width * 3 : 0)
        for top in stride(from: 0, to: height, by: band) {
            let rows = min(band, height - top)
            guard rgba.withUnsafeMutableBufferPointer({ tn_tiff_read(tiff, Int32(top), Int32(rows), $0.baseAddress, &message) }) == 0 else {
                throw .corrupt("TIFF: \(text(message))")
            }
            rgba.withUnsafeBufferPointer { rgba in
                for y in 0..<rows {
                    let row = rgba.baseAddress! + y * width * 4
                    if channels == 4 {
                        output.add(row: top + y, pixels: row, count: width)
                    } else {
                        for x in 0..<width { (rgb[x * 3], rgb[x * 3 + 1], rgb[x * 3 + 2]) = (row[x * 4], row[x * 4 + 1], row[x * 4 + 2]) }
                        rgb.withUnsafeBufferPointer { output.add(row: top + y, pixels: $0.baseAddress!, count: width) }
                    }
                }
            }
        }
        return output
    }

    /// Where the first image's JPEG stream starts (JPEGInterchangeFormat, tag 513) and the image's size, when
    /// it is old-style JPEG and that stream starts as a JPEG does; nil otherwise.
    private static func embeddedJPEG(in file: FileBytes) throws(ThumbnailError) -> (offset: Int, size: (width: Int, height: Int))? {
        let (layout, first) = try TIFFDirectory.header(of: file)
        let directory = try TIFFDirectory(file, at: first, layout: layout)
        guard try directory.integer(259, in: file) == 6, let offset = try directory.integer(513, in: file),
              let width = try directory.integer(256, in: file), let height = try directory.integer(257, in: file),
              try file.bytes(at: offset, count: 2) == [0xFF, 0xD8] else { return nil }
        return (offset, (width, height))
    }
}

// MARK: WebP

enum WebPDecoder {
    private static let chunk = 64 << 10

    static func decode(_ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        let file = request.file
        let start = try file.bytes(at: 0, count: chunk, exact: false)
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(start, start.count, &features) == VP8_STATUS_OK else { throw .corrupt("WebP: the bitstream's header is invalid") }
        let (width, height) = (Int(features.width), Int(features.height))
        let (outWidth, outHeight) = request.outputSize(width: width, height: height)
        guard features.has_animation == 0 else {
            return try firstFrame(of: file, canvas: (width, height), output: (outWidth, outHeight), request)
        }
        let channels = features.has_alpha != 0 ? 4 : 3
        try request.check(memory(features, dataSize: file.size, output: (outWidth, outHeight), channels: channels),
                          features.format == 2 ? "decoding this lossless WebP" : "decoding this WebP")
        return try decodeScaled(size: file.size, to: (outWidth, outHeight), features: features, alpha: channels == 4) { offset throws(ThumbnailError) in
            offset == 0 ? start : try file.bytes(at: offset, count: chunk, exact: false)
        } body: { pixels, stride throws(ThumbnailError) in
            var output = Resampler(from: outWidth, outHeight, to: outWidth, outHeight, channels: channels, orientation: request.orientation, inOrder: true)
            for y in 0..<outHeight { output.add(row: y, pixels: pixels + y * stride, count: outWidth) }
            return output
        }
    }

    /// What decoding a bitstream of these features needs. libwebp scales while it decodes, fed the data a
    /// chunk at a time. A lossless image is decoded whole first (its pixels refer back anywhere in the
    /// image) and keeps all its data; a lossy one decodes a band of macroblocks at a time and keeps only the
    /// data not yet consumed.
    private static func memory(_ features: WebPBitstreamFeatures, dataSize: Int, output: (Int, Int), channels: Int) -> Int {
        let (width, height) = (Int(features.width), Int(features.height))
        let decoder = features.format == 2 ? width * height * 4 + dataSize : width * 16 * 4 * 3 + Swift.min(dataSize, 1 << 20)
        return Resampler.memory(sourceWidth: output.0, width: output.0, height: output.1, channels: channels, heldRows: Resampler.rowsHeldInOrder)
            + output.0 * output.1 * channels + decoder
    }

    /// Decodes a bitstream of `size` bytes, which `read` gives 64 KB at a time from an offset, scaled to
    /// `scaled`, and hands `body` the rows and their stride in bytes.
    private static func decodeScaled<T>(size: Int, to scaled: (Int, Int), features: WebPBitstreamFeatures, alpha: Bool,
                                        read: (Int) throws(ThumbnailError) -> [UInt8],
                                        body: (UnsafeMutablePointer<UInt8>, Int) throws(ThumbnailError) -> T) throws(ThumbnailError) -> T {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .unsupported("this libwebp's decoder interface") }
        config.options.use_scaling = scaled.0 < Int(features.width) || scaled.1 < Int(features.height) ? 1 : 0
        config.options.scaled_width = Int32(scaled.0)
        config.options.scaled_height = Int32(scaled.1)
        config.output.colorspace = alpha ? MODE_RGBA : MODE_RGB
        guard let decoding = WebPIDecode(nil, 0, &config) else { throw .corrupt("WebP: the decoder cannot start") }
        defer {
            WebPIDelete(decoding)
            WebPFreeDecBuffer(&config.output)
        }
        var offset = 0
        var status = VP8_STATUS_SUSPENDED
        while status == VP8_STATUS_SUSPENDED && offset < size {
            let bytes = try read(offset)
            guard !bytes.isEmpty else { break }
            status = WebPIAppend(decoding, bytes, bytes.count)
            offset += bytes.count
        }
        guard status == VP8_STATUS_OK, let pixels = config.output.u.RGBA.rgba else {
            throw .corrupt(status == VP8_STATUS_SUSPENDED ? "WebP: the image data ends early" : "WebP: the image data cannot be decoded (status \(status.rawValue))")
        }
        return try body(pixels, Int(config.output.u.RGBA.stride))
    }

    /// An animation's first frame, where it lies on the canvas; the rest of the canvas is clear. A frame
    /// that covers the canvas is decoded scaled, like a still; one that does not is decoded at its size and
    /// placed on the canvas before the canvas is reduced, so that its edges fall where they should.
    private static func firstFrame(of file: FileBytes, canvas: (Int, Int), output: (Int, Int), _ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        let (left, top, frameWidth, frameHeight, bitstream) = try frameBitstream(file)
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(bitstream, bitstream.count, &features) == VP8_STATUS_OK, Int(features.width) == frameWidth,
              Int(features.height) == frameHeight, left + frameWidth <= canvas.0, top + frameHeight <= canvas.1 else {
            throw .corrupt("WebP: the first frame's bitstream is invalid or lies outside the canvas")
        }
        let covers = (left, top, frameWidth, frameHeight) == (0, 0, canvas.0, canvas.1)
        let channels = features.has_alpha != 0 || !covers ? 4 : 3
        let decoded = covers ? output : (frameWidth, frameHeight)
        let source = covers ? output : canvas
        try request.check(memory(features, dataSize: bitstream.count, output: decoded, channels: channels) + bitstream.count
                          + Resampler.memory(sourceWidth: source.0, width: output.0, height: output.1, channels: channels, heldRows: Resampler.rowsHeldInOrder),
                          "decoding this animated WebP's first frame")
        return try decodeScaled(size: bitstream.count, to: decoded, features: features, alpha: channels == 4) { offset in
            Array(bitstream[offset..<min(bitstream.count, offset + chunk)])
        } body: { pixels, stride throws(ThumbnailError) in
            var resampler = Resampler(from: source.0, source.1, to: output.0, output.1, channels: channels, orientation: request.orientation, inOrder: true)
            var row = [UInt8](repeating: 0, count: source.0 * channels)
            for y in 0..<source.1 {
                if covers {
                    resampler.add(row: y, pixels: pixels + y * stride, count: source.0)
                    continue
                }
                for index in row.indices { row[index] = 0 }
                if (top..<(top + frameHeight)).contains(y) {
                    let frameRow = pixels + (y - top) * stride
                    for index in 0..<(frameWidth * channels) { row[left * channels + index] = frameRow[index] }
                }
                row.withUnsafeBufferPointer { resampler.add(row: y, pixels: $0.baseAddress!, count: source.0) }
            }
            return resampler
        }
    }

    /// The first ANMF chunk's place and size on the canvas, and its frame as a WebP file of its own (with a
    /// VP8X header when the frame has an alpha chunk), which libwebp decodes like any still.
    private static func frameBitstream(_ file: FileBytes) throws(ThumbnailError) -> (Int, Int, Int, Int, [UInt8]) {
        let end = min(file.size, 8 + Int(try file.uint32(at: 4, bigEndian: false)))
        var offset = 12
        while offset + 8 <= end {
            let fourCC = String(decoding: try file.bytes(at: offset, count: 4), as: UTF8.self)
            let length = Int(try file.uint32(at: offset + 4, bigEndian: false))
            guard fourCC == "ANMF" else {
                offset += 8 + length + (length & 1)
                continue
            }
            guard length >= 24, offset + 8 + length <= file.size else { throw .corrupt("WebP: the first frame's chunk is \(length) bytes") }
            let header = try file.bytes(at: offset + 8, count: 16)
            func uint24(_ at: Int) -> Int { Int(header[at]) | Int(header[at + 1]) << 8 | Int(header[at + 2]) << 16 }
            var frame: [UInt8] = []
            frame.reserveCapacity(length - 16)
            while frame.count < length - 16 {
                frame += try file.bytes(at: offset + 24 + frame.count, count: min(chunk, length - 16 - frame.count))
            }
            let (width, height) = (uint24(6) + 1, uint24(9) + 1)
            func littleEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
            let hasAlpha = frame.starts(with: Array("ALPH".utf8))
            let extended = hasAlpha ? Array("VP8X".utf8) + littleEndian(10, 4) + [0x10, 0, 0, 0] + littleEndian(width - 1, 3) + littleEndian(height - 1, 3) : []
            let body = Array("WEBP".utf8) + extended + frame
            return (uint24(0) * 2, uint24(3) * 2, width, height, Array("RIFF".utf8) + littleEndian(body.count, 4) + body)
        }
        throw .corrupt("WebP: an animation without frames")
    }
}

// MARK: BMP

enum BMPDecoder {
    /// A row at a time, read where it lies, so rows come top to bottom whichever way they are stored.
    static func decode(_ request: DecodeRequest) throws(ThumbnailError) -> Resampler {
        let layout = try BMPLayout(request.file)
        let (outWidth, outHeight) = request.outputSize(width: layout.width, height: layout.height)
        let channels = layout.masks?.alpha ?? 0 != 0 ? 4 : 3
        try request.check(Resampler.memory(sourceWidth: layout.width, width: outWidth, height: outHeight, channels: channels,
                                           heldRows: Resampler.rowsHeldInOrder) + layout.rowBytes + layout.width * 7,
                          "reducing this BMP")
        let resampler = Resampler.memory(sourceWidth: layout.width, width: outWidth, height: outHeight, channels: channels,
                                         heldRows: Resampler.rowsHeldInOrder)
        let indices = layout.runLengthBits == 0 ? [] : try layout.runLengthIndices(in: request.file, limit: (request.memoryBudget - resampler) / 2)
        var output = Resampler(from: layout.width, layout.height, to: outWidth, outHeight, channels: channels,
                               orientation: request.orientation, inOrder: true)
        var rgba = [UInt8](repeating: 0, count: layout.width * 4)
        var rgb = [UInt8](repeating: 0, count: channels == 3 ? layout.width * 3 : 0)
        for y in 0..<layout.height {
            try layout.row(y, in: request.file, indices: indices, into: &rgba)
            if channels == 4 {
                rgba.withUnsafeBufferPointer { output.add(row: y, pixels: $0.baseAddress!, count: layout.width) }
            } else {
                for x in 0..<layout.width { (rgb[x * 3], rgb[x * 3 + 1], rgb[x * 3 + 2]) = (rgba[x * 4], rgba[x * 4 + 1], rgba[x * 4 + 2]) }
                rgb.withUnsafeBufferPointer { output.add(row: y, pixels: $0.baseAddress!, count: layout.width) }
            }
        }
        return output
    }
}
