import CThumbnailCodecs
import Foundation
import SharingSystem

/// HEIF: an embedded thumbnail when one is large enough and fit to show, else the image. HEVC images — one
/// coded item or a grid of tiles, as phones write them — are decoded here with libde265, a tile at a time,
/// straight into the resampler, which takes the visible part (clap) and turns it by the item's rotation and
/// mirroring; anything else (AV1, alpha, deeper than 12 bits) goes through libheif, which decodes the whole
/// image at once and turns it.
enum HEIFDecoder {
    static func decode(_ request: DecodeRequest, file: HEIFFile, appliesOrientation: Bool,
                       usingEmbedded: Bool) throws(ThumbnailError) -> Resampler {
        let orientation = file.orientation(of: file.primary)
        let visible = try file.visibleRect(of: file.primary)
        let shown = turned((visible.width, visible.height), orientation)
        // The output, upright: an embedded thumbnail is made to it, whatever its own rounding.
        let output = request.outputSize(width: shown.width, height: shown.height)
        if usingEmbedded, let (thumbnail, itsOrientation) = thumbnail(in: file, atLeast: output, shaped: shown, orientation: orientation,
                                                                      appliesOrientation: appliesOrientation, source: request.file) {
            return try thumbnail.decode(request, size: turned(output, itsOrientation), orientation: appliesOrientation ? itsOrientation : .up,
                                        why: "decoding this HEIF thumbnail")
        }
        let why = "decoding this HEIF image, which has no embedded thumbnail as large as asked and fit to show,"
        if let image = try HEVCImage(file, item: file.primary, source: request.file) {
            return try image.decode(request, size: turned(output, orientation), orientation: appliesOrientation ? orientation : .up, why: why)
        }
        return try decodeWithLibheif(request, appliesTransformations: appliesOrientation, why: why)
    }

    /// The largest embedded thumbnail of the primary image whose data lies whole in the file, made no larger
    /// than the request's maximum and never enlarged, turned as it says (or as the primary is, when it says
    /// nothing) if `appliesOrientation`; `nil` when there is none.
    static func embeddedThumbnail(_ request: DecodeRequest, file: HEIFFile, appliesOrientation: Bool) throws(ThumbnailError) -> Resampler? {
        let orientation = file.orientation(of: file.primary)
        var best: (image: HEVCImage, orientation: ImageOrientation, width: Int, height: Int)?
        for id in file.sources(to: file.primary, "thmb") {
            guard let visible = try? file.visibleRect(of: id), visible.width * visible.height > (best.map { $0.width * $0.height } ?? 0),
                  (try? file.extents(of: id))?.allSatisfy({ $0.offset + $0.length <= request.file.size }) == true,
                  let image = try? HEVCImage(file, item: id, source: request.file) else { continue }
            best = (image, file.orientation(of: id, otherwise: orientation), visible.width, visible.height)
        }
        guard let best else { return nil }
        return try best.image.decode(request, size: request.outputSize(width: best.width, height: best.height),
                                     orientation: appliesOrientation ? best.orientation : .up, why: "decoding this HEIF thumbnail")
    }

    /// The smallest embedded thumbnail of the primary image that is at least `output` upright, is `shaped`
    /// as the primary is upright (to within 2 pixels or 1 %: its rounding), lies whole in the file and is one
    /// this decoder takes; and how it turns upright. A thumbnail with no rotation or mirroring of its own is
    /// turned as the primary is: the primary's transformations are those of what is shown. Asked not to turn
    /// the image, only a thumbnail stored as the primary is will do.
    private static func thumbnail(in file: HEIFFile, atLeast output: (width: Int, height: Int), shaped shape: (width: Int, height: Int),
                                  orientation: ImageOrientation, appliesOrientation: Bool, source: FileBytes) -> (HEVCImage, ImageOrientation)? {
        var best: (image: HEVCImage, orientation: ImageOrientation, width: Int)?
        for id in file.sources(to: file.primary, "thmb") {
            let itsOrientation = file.orientation(of: id, otherwise: orientation)
            guard appliesOrientation || itsOrientation == orientation, let visible = try? file.visibleRect(of: id) else { continue }
            let upright = turned((visible.width, visible.height), itsOrientation)
            let proportionalHeight = Double(upright.width) * Double(shape.height) / Double(shape.width)
            guard upright.width >= output.width, upright.height >= output.height, upright.width < best?.width ?? .max,
                  abs(Double(upright.height) - proportionalHeight) <= max(2, Double(upright.height) / 100),
                  (try? file.extents(of: id))?.allSatisfy({ $0.offset + $0.length <= source.size }) == true,
                  let image = try? HEVCImage(file, item: id, source: source) else { continue }
            best = (image, itsOrientation, upright.width)
        }
        return best.map { ($0.image, $0.orientation) }
    }

    /// A size turned by `orientation`: upright from stored, or stored from upright (the same swap).
    private static func turned(_ size: (width: Int, height: Int), _ orientation: ImageOrientation) -> (width: Int, height: Int) {
        orientation.swapsAxes ? (size.height, size.width) : size
    }

    // MARK: Everything else, through libheif

    /// libheif, opened on first use.
    private static func library() throws(ThumbnailError) -> tn_heif_api {
        guard let api = tn_heif() else { throw .unsupported("this HEIF image needs libheif (Debian's libheif1), which cannot be loaded") }
        return api.pointee
    }

    /// Decodes the primary image with libheif, which applies its transformations itself — cropping (clap),
    /// rotation and mirroring — unless asked not to.
    private static func decodeWithLibheif(_ request: DecodeRequest, appliesTransformations: Bool, why: String) throws(ThumbnailError) -> Resampler {
        let heif = try library()
        guard let context = heif.context_alloc!() else { throw .corrupt("HEIF: out of memory") }
        defer { heif.context_free!(context) }
        let read = heif.context_read_from_file!(context, request.path, nil)
        guard read.code == heif_error_Ok else { throw .corrupt("HEIF: \(String(cString: read.message))") }
        var primary: OpaquePointer?
        let found = heif.context_get_primary_image_handle!(context, &primary)
        guard found.code == heif_error_Ok, let handle = primary else { throw .corrupt("HEIF: no primary image (\(String(cString: found.message)))") }
        defer { heif.image_handle_release!(handle) }
        let (width, height) = (Int(heif.image_handle_get_width!(handle)), Int(heif.image_handle_get_height!(handle)))
        let (outWidth, outHeight) = request.outputSize(width: width, height: height)
        let channels = heif.image_handle_has_alpha_channel!(handle) != 0 ? 4 : 3
        // libheif decodes the whole image: its YCbCr planes, then the interleaved copy.
        try request.check(width * height * (channels + 3)
                          + Resampler.memory(sourceWidth: max(width, height), width: outWidth, height: outHeight, channels: channels,
                                             heldRows: Resampler.rowsHeldInOrder),
                          why)
        guard let options = heif.decoding_options_alloc!() else { throw .corrupt("HEIF: out of memory") }
        defer { heif.decoding_options_free!(options) }
        options.pointee.ignore_transformations = appliesTransformations ? 0 : 1
        var image: OpaquePointer?
        let decoded = heif.decode_image!(handle, &image, heif_colorspace_RGB, channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options)
        guard decoded.code == heif_error_Ok, let image else { throw .corrupt("HEIF: \(String(cString: decoded.message))") }
        defer { heif.image_release!(image) }
        var stride: Int32 = 0
        guard let plane = heif.image_get_plane_readonly!(image, heif_channel_interleaved, &stride) else { throw .corrupt("HEIF: no pixels") }
        let (decodedWidth, decodedHeight) = (Int(heif.image_get_width!(image, heif_channel_interleaved)), Int(heif.image_get_height!(image, heif_channel_interleaved)))
        let (finalWidth, finalHeight) = request.outputSize(width: decodedWidth, height: decodedHeight)
        var output = Resampler(from: decodedWidth, decodedHeight, to: finalWidth, finalHeight, channels: channels, orientation: .up, inOrder: true)
        for y in 0..<decodedHeight {
            output.add(row: y, pixels: plane + y * Int(stride), count: decodedWidth)
        }
        return output
    }
}

/// An HEVC-coded HEIF image Thumbnails decodes itself: one `hvc1` item, or a `grid` of them, of 8 to 12
/// bits (cameras write 10), with no alpha plane and no property it does not understand.
struct HEVCImage: Sendable {
    /// The coded items, row by row.
    let tiles: [UInt32]
    let columns: Int
    let tileWidth: Int, tileHeight: Int
    /// The part shown: the clean aperture (clap) within the image's size (ispe) — the grid's, which crops the
    /// tiles at the right and bottom, or the coded picture's, which may be larger (coded in whole blocks, or a
    /// stereo pair side by side).
    let visible: (x: Int, y: Int, width: Int, height: Int)
    /// The most pixels a tile's sequence parameter set declares: what libde265 allocates for.
    let codedPixels: Int
    let file: HEIFFile
    let source: FileBytes
    /// The matrix and range the image's color property gives, or its first tile's (cameras describe the
    /// tiles only), if any; else the bitstream's are used.
    let color: (matrix: Int, fullRange: Bool)?

    /// nil when the image is not one this decoder takes.
    init?(_ file: HEIFFile, item: UInt32, source: FileBytes) throws(ThumbnailError) {
        self.file = file
        self.source = source
        let image = try file.item(item)
        guard Self.understands(file, item), !file.hasAlpha(item) else { return nil }
        let (width, height) = try file.size(of: item)
        visible = try file.visibleRect(of: item)
        switch image.type {
        case "hvc1":
            (tiles, columns, tileWidth, tileHeight) = ([item], 1, width, height)
        case "grid":
            var description = ExtentReader(source: source, extents: try file.extents(of: item))
            var fields = BoxReader(try description.read(min(12, description.remaining)))
            try fields.skip(1)
            let large = try fields.uint8() & 1 != 0
            let rows = Int(try fields.uint8()) + 1
            columns = Int(try fields.uint8()) + 1
            let size = (try fields.uint(size: large ? 4 : 2), try fields.uint(size: large ? 4 : 2))
            guard size == (width, height) else { throw .corrupt("HEIF: grid \(item) is \(size.0) × \(size.1) pixels, its ispe \(width) × \(height)") }
            tiles = file.targets(of: item, "dimg")
            guard tiles.count == rows * columns, let first = tiles.first else {
                throw .corrupt("HEIF: grid \(item) has \(tiles.count) tiles for \(rows) × \(columns)")
            }
            for tile in tiles {
                guard try file.item(tile).type == "hvc1", Self.understands(file, tile) else { return nil }
            }
            (tileWidth, tileHeight) = try file.size(of: first)
            for tile in tiles where try file.size(of: tile) != (tileWidth, tileHeight) {
                throw .corrupt("HEIF: grid \(item)'s tiles differ in size")
            }
            guard tileWidth * columns >= width, tileHeight * rows >= height,
                  tileWidth * (columns - 1) < width, tileHeight * (rows - 1) < height else {
                throw .corrupt("HEIF: grid \(item)'s \(rows) × \(columns) tiles of \(tileWidth) × \(tileHeight) do not make \(width) × \(height)")
            }
        default:
            return nil
        }
        color = ([item] + tiles.prefix(1)).lazy.flatMap(file.properties(of:)).compactMap { property -> (Int, Bool)? in
            if case .color(let matrix, let fullRange) = property { return (matrix, fullRange) }
            return nil
        }.first
        // libde265 allocates for the size the sequence parameter set declares, not the container's: the
        // budget is checked against the larger of the two.
        var codedPixels = tileWidth * tileHeight
        for tile in tiles {
            let declared = try Self.configuration(of: tile, in: file).parameterSets.compactMap(HEVC.pictureSize(ofSequenceParameterSet:))
            guard !declared.isEmpty else { throw .corrupt("HEIF: item \(tile) has no sequence parameter set that can be read") }
            codedPixels = declared.reduce(codedPixels) { max($0, $1.width * $1.height) }
        }
        self.codedPixels = codedPixels
    }

    /// Whether every property of item `id` is one this decoder honors or may ignore, and its HEVC samples are
    /// of 8 to 12 bits, luma's and chroma's alike.
    private static func understands(_ file: HEIFFile, _ id: UInt32) -> Bool {
        guard let item = file.items[id] else { return false }
        for association in item.properties {
            switch file.properties[association.index] {
            case .hevcConfiguration(_, _, _, let bitDepth) where !(8...12).contains(bitDepth): return false
            // Bits per channel (pixi) repeat the HEVC configuration's; an ICC profile (colr) is not applied; a
            // clean aperture that cannot be read (a zero denominator) is left to libheif.
            case .other(let type) where (association.essential && !["pixi", "colr"].contains(type)) || type == "clap": return false
            default: continue
            }
        }
        return item.type != "hvc1" || item.properties.contains { association in
            if case .hevcConfiguration = file.properties[association.index] { return true }
            return false
        }
    }

    func decode(_ request: DecodeRequest, size output: (width: Int, height: Int), orientation: ImageOrientation,
                why: String) throws(ThumbnailError) -> Resampler {
        let (outWidth, outHeight) = (min(output.width, visible.width), min(output.height, visible.height))
        // Two tiles are decoded at once, on two threads (libde265 decodes a tile's rows of blocks in parallel
        // only as far as its encoder allowed); one coded image is decoded by libde265's own two threads.
        let workers = tiles.count > 1 ? 2 : 1
        // A grid's rows come a row of tiles at a time, and the next row may begin before one ends: the output
        // rows two rows of tiles reach stay open. One coded image arrives row by row.
        let heldRows = columns == 1 ? Resampler.rowsHeldInOrder : 2 * tileHeight * outHeight / visible.height + 3
        // libde265 holds a tile's coded data twice (as received, and without emulation prevention), its
        // picture (YCbCr, a byte a sample, two above 8 bits) and about 2 bytes a pixel of per-block data, plus
        // ~100 KB: measured, 3.0–3.6 bytes a pixel in all for 8-bit 4:2:0 from 160 × 106 to 4000 × 3000. Its
        // pictures are the coded size.
        let largestTile = try tiles.map { tile throws(ThumbnailError) in try file.extents(of: tile).reduce(0) { $0 + $1.length } }.max() ?? 0
        let format = try Self.configuration(of: tiles[0], in: file)
        let pictureBytes = [1.0, 1.5, 2.0, 3.0][format.chromaFormat] * (format.bitDepth > 8 ? 2 : 1)
        let decoder = 2 * largestTile + Int(Double(codedPixels) * (pictureBytes + 2)) + (128 << 10) + tileWidth * 3
        try request.check(workers * decoder + Resampler.memory(sourceWidth: visible.width, width: outWidth, height: outHeight, channels: 3, heldRows: heldRows), why)
        let resampler = Resampler(from: visible.width, visible.height, to: outWidth, outHeight, channels: 3, orientation: orientation, inOrder: columns == 1)
        let feed = TileFeed(resampler, tiles: tiles.count, columns: columns, tileHeight: tileHeight, top: visible.y)
        BlockingThreads.concurrentPerform(iterations: workers, width: workers) { _ in
            var row = [UInt8](repeating: 0, count: tileWidth * 3)
            while let index = feed.next() {
                let tile = tiles[index]
                let (tileRow, tileColumn) = index.quotientAndRemainder(dividingBy: columns)
                let (left, top) = (tileColumn * tileWidth, tileRow * tileHeight)
                // What of this tile is shown.
                let across = max(left, visible.x)..<min(left + tileWidth, visible.x + visible.width)
                let down = max(top, visible.y)..<min(top + tileHeight, visible.y + visible.height)
                do throws(ThumbnailError) {
                    if !across.isEmpty && !down.isEmpty {
                        try decodeTile(tile, threads: workers == 1 ? 2 : 0) { picture throws(ThumbnailError) in
                            guard picture.width >= across.upperBound - left, picture.height >= down.upperBound - top else {
                                throw .corrupt("HEIF: item \(tile) decodes to \(picture.width) × \(picture.height) pixels, not \(tileWidth) × \(tileHeight)")
                            }
                            let converter = YCbCrConverter(matrix: color?.matrix ?? picture.matrix, fullRange: color?.fullRange ?? picture.fullRange)
                            let columns = (across.lowerBound - left)..<(across.upperBound - left)
                            for y in down {
                                row.withUnsafeMutableBufferPointer { converter.convert(picture, row: y - top, columns: columns, into: $0.baseAddress!) }
                                feed.add(row: y - visible.y, pixels: row, count: across.count, start: across.lowerBound - visible.x)
                            }
                        }
                    }
                    feed.finished(index)
                } catch {
                    feed.fail(error)
                }
            }
        }
        return try feed.result()
    }

    /// Item `id`'s HEVC configuration; its chroma format is 0 gray, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    private static func configuration(of id: UInt32, in file: HEIFFile) throws(ThumbnailError)
        -> (parameterSets: [[UInt8]], lengthSize: Int, chromaFormat: Int, bitDepth: Int) {
        for case .hevcConfiguration(let parameterSets, let lengthSize, let chromaFormat, let bitDepth) in file.properties(of: id) {
            return (parameterSets, lengthSize, chromaFormat, bitDepth)
        }
        throw .corrupt("HEIF: item \(id) has no HEVC configuration")
    }

    /// Decodes one coded item with libde265, with `threads` threads of its own (0: on this one), and hands
    /// its picture to `body`.
    private func decodeTile(_ id: UInt32, threads: Int, _ body: (HEVCPicture) throws(ThumbnailError) -> Void) throws(ThumbnailError) {
        let (parameterSets, lengthSize, _, bitDepth) = try Self.configuration(of: id, in: file)
        guard let decoder = de265_new_decoder() else { throw .corrupt("HEIF: out of memory") }
        if threads > 0 { _ = de265_start_worker_threads(decoder, Int32(threads)) }
        defer { de265_free_decoder(decoder) }
        func check(_ status: de265_error, _ doing: String) throws(ThumbnailError) {
            guard de265_isOK(status) != 0 else {
                throw .corrupt("HEIF: item \(id)'s HEVC data cannot be decoded (\(doing): \(String(cString: de265_get_error_text(status))))")
            }
        }
        for unit in parameterSets {
            try check(unit.withUnsafeBytes { de265_push_NAL(decoder, $0.baseAddress, Int32($0.count), 0, nil) }, "its parameter sets")
        }
        // The item's data is NAL units each after a big-endian length; each is streamed to libde265 behind a
        // start code, in pieces of at most 64 KB, so that only libde265 holds a whole one. Parameter sets
        // belong in the configuration (checked there): any in the data are left out.
        var reader = ExtentReader(source: source, extents: try file.extents(of: id))
        let startCode: [UInt8] = [0, 0, 1]
        while reader.remaining > 0 {
            var length = try reader.read(lengthSize).reduce(0) { $0 << 8 | Int($1) }
            guard length <= reader.remaining else { throw .corrupt("HEIF: item \(id) has a NAL unit of \(length) bytes, more than its data") }
            var piece = try reader.read(min(length, largestHeaderRead))
            let parameterSet = piece.first.map { HEVC.parameterSetTypes.contains(HEVC.unitType($0)) } ?? true
            if !parameterSet { try check(startCode.withUnsafeBytes { de265_push_data(decoder, $0.baseAddress, 3, 0, nil) }, "its data") }
            while true {
                if !parameterSet { try check(piece.withUnsafeBytes { de265_push_data(decoder, $0.baseAddress, Int32($0.count), 0, nil) }, "its data") }
                length -= piece.count
                guard length > 0 else { break }
                piece = try reader.read(min(length, largestHeaderRead))
            }
            if !parameterSet { de265_push_end_of_NAL(decoder) }
        }
        try check(de265_flush_data(decoder), "the end of its data")
        var more: Int32 = 1
        while more != 0 {
            let status = de265_decode(decoder, &more)
            if status == DE265_ERROR_WAITING_FOR_INPUT_DATA { break }
            try check(status, "a picture")
            if let image = de265_get_next_picture(decoder) {
                return try body(HEVCPicture(image, bitDepth: bitDepth))
            }
        }
        guard let image = de265_get_next_picture(decoder) else { throw .corrupt("HEIF: item \(id)'s HEVC data holds no picture") }
        try body(HEVCPicture(image, bitDepth: bitDepth))
    }
}

/// The resampler a grid's tiles are fed to from two threads, and which tile comes next. Rows of a row of
/// tiles are written once every tile of it and of the rows above is in.
// @unchecked: its mutable state is only touched under its lock.
private final class TileFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var resampler: Resampler
    private let tiles: Int, columns: Int, tileHeight: Int
    /// The first row shown: rows of tiles count from the coded image's top, the resampler's from here.
    private let top: Int
    private var nextTile = 0
    private var done: [Bool]
    private var rowsOfTilesDone = 0
    private var error: ThumbnailError?

    init(_ resampler: Resampler, tiles: Int, columns: Int, tileHeight: Int, top: Int) {
        self.resampler = resampler
        (self.tiles, self.columns, self.tileHeight, self.top) = (tiles, columns, tileHeight, top)
        done = [Bool](repeating: false, count: tiles)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The next tile to decode; nil when none is left or one failed.
    func next() -> Int? {
        locked {
            guard error == nil, nextTile < tiles else { return nil }
            defer { nextTile += 1 }
            return nextTile
        }
    }

    func add(row y: Int, pixels: [UInt8], count: Int, start: Int) {
        locked { pixels.withUnsafeBufferPointer { resampler.add(row: y, pixels: $0.baseAddress!, count: count, start: start) } }
    }

    func finished(_ index: Int) {
        locked {
            done[index] = true
            while (rowsOfTilesDone + 1) * columns <= tiles && done[(rowsOfTilesDone * columns)..<((rowsOfTilesDone + 1) * columns)].allSatisfy({ $0 }) {
                rowsOfTilesDone += 1
                let y = rowsOfTilesDone * tileHeight - top
                if y > 0 && y < resampler.sourceHeight { resampler.finish(before: y) }
            }
        }
    }

    func fail(_ error: ThumbnailError) {
        locked { if self.error == nil { self.error = error } }
    }

    func result() throws(ThumbnailError) -> Resampler {
        lock.lock()
        defer { lock.unlock() }
        if let error { throw error }
        resampler.finish()
        return resampler
    }
}

/// Sequential reads through an item's extents.
private struct ExtentReader {
    let source: FileBytes
    var extents: ArraySlice<(offset: Int, length: Int)>
    private(set) var remaining: Int

    init(source: FileBytes, extents: [(offset: Int, length: Int)]) {
        self.source = source
        self.extents = extents[...]
        remaining = extents.reduce(0) { $0 + $1.length }
    }

    /// The next `count` bytes (at most 64 KB).
    mutating func read(_ count: Int) throws(ThumbnailError) -> [UInt8] {
        guard count <= remaining else { throw .corrupt("HEIF: an item's data ends early") }
        var bytes: [UInt8] = []
        while bytes.count < count, let extent = extents.first {
            let take = min(count - bytes.count, extent.length)
            bytes += try source.bytes(at: extent.offset, count: take)
            extents[extents.startIndex] = (extent.offset + take, extent.length - take)
            if extent.length == take { extents.removeFirst() }
        }
        remaining -= count
        return bytes
    }
}

/// A picture libde265 decoded: planes of 8-bit samples, or of deeper ones in 16 bits each, chroma subsampled or
/// not, and what its bitstream says of color.
struct HEVCPicture {
    let width: Int, height: Int
    /// Each plane's first byte, and the bytes from a row to the next.
    let planes: [(pointer: UnsafePointer<UInt8>, stride: Int)]
    let bitDepth: Int
    /// How many pixels of luma each chroma sample spans across and down (1 or 2); 0 for gray.
    let chromaStep: (x: Int, y: Int)
    let matrix: Int
    let fullRange: Bool

    fileprivate init(_ image: OpaquePointer, bitDepth: Int) throws(ThumbnailError) {
        width = Int(de265_get_image_width(image, 0))
        height = Int(de265_get_image_height(image, 0))
        let format = de265_get_chroma_format(image)
        self.bitDepth = bitDepth
        switch format {
        case de265_chroma_mono: chromaStep = (0, 0)
        case de265_chroma_420: chromaStep = (2, 2)
        case de265_chroma_422: chromaStep = (2, 1)
        default: chromaStep = (1, 1)
        }
        var planes: [(UnsafePointer<UInt8>, Int)] = []
        for channel in 0..<(chromaStep.x == 0 ? 1 : 3) {
            var stride: Int32 = 0
            guard let plane = de265_get_image_plane(image, Int32(channel), &stride) else { throw .corrupt("HEIF: an HEVC picture without pixels") }
            guard de265_get_bits_per_pixel(image, Int32(channel)) == bitDepth else {
                throw .corrupt("HEIF: an HEVC picture of \(de265_get_bits_per_pixel(image, Int32(channel))) bits a sample, where its configuration says \(bitDepth)")
            }
            planes.append((plane, Int(stride)))
        }
        self.planes = planes
        matrix = Int(de265_get_image_matrix_coefficients(image))
        fullRange = de265_get_image_full_range_flag(image) != 0
    }
}

/// YCbCr to RGB by H.273's matrices, through tables of each term in 16.16 fixed point.
struct YCbCrConverter {
    private var luma = [Int32](repeating: 0, count: 256)
    private var redFromCr = [Int32](repeating: 0, count: 256), greenFromCr = [Int32](repeating: 0, count: 256)
    private var blueFromCb = [Int32](repeating: 0, count: 256), greenFromCb = [Int32](repeating: 0, count: 256)
    private let identity: Bool

    init(matrix: Int, fullRange: Bool) {
        // Kr and Kb (H.273, table 4); unspecified and unknown matrices are taken as BT.601, as libheif does.
        let (kr, kb): (Double, Double)
        switch matrix {
        case 1: (kr, kb) = (0.2126, 0.0722)
        case 4: (kr, kb) = (0.30, 0.11)
        case 7: (kr, kb) = (0.212, 0.087)
        case 9, 10: (kr, kb) = (0.2627, 0.0593)
        default: (kr, kb) = (0.299, 0.114)
        }
        identity = matrix == 0
        let kg = 1 - kr - kb
        for value in 0..<256 {
            let y = fullRange ? Double(value) : (Double(value) - 16) * 255 / 219
            let c = fullRange ? Double(value) - 128 : (Double(value) - 128) * 255 / 224
            luma[value] = Int32((y * 65536).rounded())
            redFromCr[value] = Int32(((2 - 2 * kr) * c * 65536).rounded())
            blueFromCb[value] = Int32(((2 - 2 * kb) * c * 65536).rounded())
            greenFromCr[value] = Int32((-kr * (2 - 2 * kr) / kg * c * 65536).rounded())
            greenFromCb[value] = Int32((-kb * (2 - 2 * kb) / kg * c * 65536).rounded())
        }
    }

    /// Converts the pixels `columns` of row `y` into `rgb`, from its start; samples deeper than 8 bits by
    /// their top 8.
    func convert(_ picture: HEVCPicture, row y: Int, columns: Range<Int>, into rgb: UnsafeMutablePointer<UInt8>) {
        if picture.bitDepth > 8 {
            convert(picture, row: y, columns: columns, into: rgb, samples: UInt16.self)
        } else {
            convert(picture, row: y, columns: columns, into: rgb, samples: UInt8.self)
        }
    }

    private func convert<Sample: FixedWidthInteger & UnsignedInteger>(_ picture: HEVCPicture, row y: Int, columns: Range<Int>,
                                                                      into rgb: UnsafeMutablePointer<UInt8>, samples: Sample.Type) {
        let shift = picture.bitDepth - 8
        func row(_ plane: Int, _ y: Int) -> UnsafePointer<Sample> {
            UnsafeRawPointer(picture.planes[plane].pointer + y * picture.planes[plane].stride).assumingMemoryBound(to: Sample.self)
        }
        func byte(_ sample: Sample) -> Int { min(Int(sample) >> shift, 255) }
        let lumaRow = row(0, y)
        guard picture.chromaStep.x > 0 else {
            for (index, x) in columns.enumerated() {
                let out = index * 3
                let value = Self.byte(luma[byte(lumaRow[x])])
                (rgb[out], rgb[out + 1], rgb[out + 2]) = (value, value, value)
            }
            return
        }
        let chromaY = y / picture.chromaStep.y
        let (cbRow, crRow) = (row(1, chromaY), row(2, chromaY))
        let step = picture.chromaStep.x
        for (index, x) in columns.enumerated() {
            let out = index * 3
            let (yValue, cb, cr) = (byte(lumaRow[x]), byte(cbRow[x / step]), byte(crRow[x / step]))
            if identity {
                // GBR: Y carries green, Cb blue, Cr red.
                (rgb[out], rgb[out + 1], rgb[out + 2]) = (UInt8(cr), UInt8(yValue), UInt8(cb))
                continue
            }
            let base = luma[yValue]
            rgb[out] = Self.byte(base + redFromCr[cr])
            rgb[out + 1] = Self.byte(base + greenFromCb[cb] + greenFromCr[cr])
            rgb[out + 2] = Self.byte(base + blueFromCb[cb])
        }
    }

    private static func byte(_ fixed: Int32) -> UInt8 {
        UInt8(clamping: (fixed + 32768) >> 16)
    }
}
