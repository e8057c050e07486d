/// What a HEIF file's `meta` box says (ISO/IEC 23008-12 over the ISO base media file format, 14496-12):
/// its items — coded images, grids of them, thumbnails, auxiliary images — their properties and where
/// their data lies. Reading it touches only the `meta` box, never the coded data in `mdat`.
struct HEIFFile: Sendable {
    struct Item: Sendable {
        var type: String
        /// Not meant to be shown by itself (a grid's tiles).
        var hidden: Bool
        /// Indices into `properties`, in the order they apply, and whether each is essential.
        var properties: [(index: Int, essential: Bool)]
    }

    enum Property: Equatable, Sendable {
        /// The HEVC decoder configuration: the parameter-set NAL units, the size of each NAL unit's length
        /// prefix in the item's data, the chroma format, and the bits of a sample (luma's and chroma's; 0 when
        /// they differ).
        case hevcConfiguration(parameterSets: [[UInt8]], lengthSize: Int, chromaFormat: Int, bitDepth: Int)
        /// The image's size, as coded (before rotation).
        case spatialExtent(width: Int, height: Int)
        /// The clean aperture: the part of the image shown, a width and height about a centre offset from the
        /// image's, in pixels (fractions).
        case cleanAperture(width: Double, height: Double, horizontalOffset: Double, verticalOffset: Double)
        /// Anticlockwise rotation by this many quarter turns.
        case rotation(quarterTurns: Int)
        /// Flip top to bottom (0) or left to right (1): HEIF amendment 2's reading, which iPhones and libheif
        /// follow (MPEGGroup/FileFormat#22).
        case mirror(mode: Int)
        /// An nclx color description: the YCbCr matrix (H.273's MatrixCoefficients) and range.
        case color(matrix: Int, fullRange: Bool)
        /// The kind of an auxiliary image (alpha, depth …).
        case auxiliaryType(String)
        /// Any other property, by its box type.
        case other(String)
    }

    /// Where an item's data lies: extents in the file, or in the `idat` box.
    struct Location: Sendable {
        var inIdat: Bool
        var extents: [(offset: Int, length: Int)]
    }

    struct Reference: Sendable {
        var type: String
        var from: UInt32
        var to: [UInt32]
    }

    var primary: UInt32
    var items: [UInt32: Item]
    var properties: [Property]
    var references: [Reference]
    var locations: [UInt32: Location]
    /// The file offsets of the `idat` box's payload.
    var idat: Range<Int>?

    /// The largest `meta` box read: about a hundred times an iPhone's.
    static let largestMeta = 4 << 20

    /// Reads the `meta` box of the HEIF file in `source`.
    static func read(_ source: some ByteSource) throws(ThumbnailError) -> HEIFFile {
        var offset = 0
        for _ in 0..<64 {
            let header = try source.bytes(at: offset, count: 16, exact: false)
            guard header.count >= 8 else { break }
            var reader = BoxReader(header)
            var size = Int(try reader.uint32())
            let type = try reader.fourCC()
            var headerSize = 8
            if size == 1 {
                let large = try reader.uint64()
                guard large <= UInt64(Int.max) else { throw .corrupt("HEIF: the \(type) box at byte \(offset) is \(large) bytes") }
                size = Int(large)
                headerSize = 16
            }
            guard size >= headerSize || size == 0 else { throw .corrupt("HEIF: the \(type) box at byte \(offset) is \(size) bytes") }
            if type == "meta" {
                let length = size == 0 ? largestMeta : size - headerSize
                guard length <= largestMeta else { throw .unsupported("HEIF: a meta box of \(length) bytes, more than \(largestMeta)") }
                var payload: [UInt8] = []
                while payload.count < length {
                    let chunk = try source.bytes(at: offset + headerSize + payload.count, count: min(largestHeaderRead, length - payload.count),
                                                 exact: size != 0)
                    if chunk.isEmpty { break }
                    payload += chunk
                }
                return try parseMeta(payload, at: offset + headerSize)
            }
            guard size > 0 else { break }
            offset += size
        }
        throw .corrupt("HEIF: no meta box among the file's first boxes")
    }

    /// Parses the `meta` box's payload, which starts at file offset `start`.
    static func parseMeta(_ payload: [UInt8], at start: Int) throws(ThumbnailError) -> HEIFFile {
        var meta = BoxReader(payload)
        try meta.skip(4)  // version and flags
        var file = HEIFFile(primary: 0, items: [:], properties: [], references: [], locations: [:], idat: nil)
        var primary: UInt32?
        var handler: String?
        var associations: [UInt32: [(index: Int, essential: Bool)]] = [:]
        var infos: [UInt32: (type: String, hidden: Bool)] = [:]
        for box in try meta.boxes() {
            var body = box.reader
            switch box.type {
            case "hdlr":
                try body.skip(8)
                handler = try body.fourCC()
            case "pitm":
                let version = try body.uint8()
                try body.skip(3)
                primary = version == 0 ? UInt32(try body.uint16()) : try body.uint32()
            case "iinf":
                let version = try body.uint8()
                try body.skip(3)
                _ = version == 0 ? Int(try body.uint16()) : Int(try body.uint32())
                for entry in try body.boxes() where entry.type == "infe" {
                    var infe = entry.reader
                    let version = try infe.uint8()
                    let flags = try infe.uint24()
                    guard version >= 2 else { continue }
                    let id = version == 2 ? UInt32(try infe.uint16()) : try infe.uint32()
                    try infe.skip(2)  // protection index
                    infos[id] = (try infe.fourCC(), flags & 1 != 0)
                }
            case "iref":
                let version = try body.uint8()
                try body.skip(3)
                for reference in try body.boxes() {
                    var fields = reference.reader
                    let id = { (fields: inout BoxReader) throws(ThumbnailError) -> UInt32 in
                        version == 0 ? UInt32(try fields.uint16()) : try fields.uint32()
                    }
                    let from = try id(&fields)
                    let count = Int(try fields.uint16())
                    var to: [UInt32] = []
                    for _ in 0..<count { to.append(try id(&fields)) }
                    file.references.append(Reference(type: reference.type, from: from, to: to))
                }
            case "iloc":
                file.locations = try locations(&body)
            case "iprp":
                for child in try body.boxes() {
                    var reader = child.reader
                    if child.type == "ipco" {
                        file.properties = try reader.boxes().map { box throws(ThumbnailError) in try property(box) }
                    } else if child.type == "ipma" {
                        try propertyAssociations(&reader, into: &associations)
                    }
                }
            case "idat":
                file.idat = (start + box.payload.lowerBound)..<(start + box.payload.upperBound)
            default:
                break
            }
        }
        guard handler == "pict" else { throw .unsupported("HEIF: a meta box for \(handler.map { "'\($0)'" } ?? "no handler"), not for pictures") }
        guard let primary, infos[primary] != nil else { throw .corrupt("HEIF: no primary item") }
        // A primary item that is itself a thumbnail (a thmb reference from it) stands for the image it is the
        // thumbnail of, as libheif reads such a file.
        file.primary = primary
        if let image = file.targets(of: primary, "thmb").first, infos[image] != nil { file.primary = image }
        for (id, info) in infos {
            let properties = associations[id] ?? []
            guard properties.allSatisfy({ $0.index < file.properties.count }) else {
                throw .corrupt("HEIF: item \(id) has a property that the ipco box does not hold")
            }
            file.items[id] = Item(type: info.type, hidden: info.hidden, properties: properties)
        }
        return file
    }

    private static func locations(_ body: inout BoxReader) throws(ThumbnailError) -> [UInt32: Location] {
        let version = try body.uint8()
        try body.skip(3)
        guard version <= 2 else { throw .unsupported("HEIF: iloc version \(version)") }
        let sizes = try body.uint16()
        let (offsetSize, lengthSize, baseSize) = (Int(sizes >> 12), Int(sizes >> 8 & 15), Int(sizes >> 4 & 15))
        let indexSize = version >= 1 ? Int(sizes & 15) : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw .corrupt("HEIF: iloc gives a field \(size) bytes")
        }
        let count = version < 2 ? Int(try body.uint16()) : Int(try body.uint32())
        var result: [UInt32: Location] = [:]
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try body.uint16()) : try body.uint32()
            let method = version >= 1 ? Int(try body.uint16() & 15) : 0
            try body.skip(2)  // data reference index: this file
            let base = try body.uint(size: baseSize)
            let extents = Int(try body.uint16())
            var location = Location(inIdat: method == 1, extents: [])
            for _ in 0..<extents {
                try body.skip(indexSize)
                let offset = try body.uint(size: offsetSize)
                let length = try body.uint(size: lengthSize)
                guard base <= Int.max / 2, offset <= Int.max / 4, length <= Int.max / 4 else { throw .corrupt("HEIF: item \(id)'s data lies beyond any file") }
                location.extents.append((base + offset, length))
            }
            guard method <= 1 else { throw .unsupported("HEIF: item \(id)'s data is built by construction method \(method)") }
            result[id] = location
        }
        return result
    }

    private static func propertyAssociations(_ body: inout BoxReader, into associations: inout [UInt32: [(index: Int, essential: Bool)]]) throws(ThumbnailError) {
        let version = try body.uint8()
        let flags = try body.uint24()
        let count = Int(try body.uint32())
        for _ in 0..<count {
            let id = version < 1 ? UInt32(try body.uint16()) : try body.uint32()
            let properties = Int(try body.uint8())
            for _ in 0..<properties {
                let (index, essential): (Int, Bool)
                if flags & 1 != 0 {
                    let value = try body.uint16()
                    (index, essential) = (Int(value & 0x7FFF), value & 0x8000 != 0)
                } else {
                    let value = try body.uint8()
                    (index, essential) = (Int(value & 0x7F), value & 0x80 != 0)
                }
                // Index 0 means no property; the rest count from 1.
                if index > 0 { associations[id, default: []].append((index - 1, essential)) }
            }
        }
    }

    private static func property(_ box: BoxReader.Box) throws(ThumbnailError) -> Property {
        var body = box.reader
        switch box.type {
        case "hvcC":
            try body.skip(16)
            let chromaFormat = Int(try body.uint8() & 3)
            let lumaDepth = Int(try body.uint8() & 7) + 8, chromaDepth = Int(try body.uint8() & 7) + 8
            let bitDepth = lumaDepth == chromaDepth ? lumaDepth : 0
            try body.skip(2)
            let lengthSize = Int(try body.uint8() & 3) + 1
            let arrays = Int(try body.uint8())
            var parameterSets: [[UInt8]] = []
            for _ in 0..<arrays {
                try body.skip(1)
                let units = Int(try body.uint16())
                for _ in 0..<units { parameterSets.append(try body.bytes(Int(try body.uint16()))) }
            }
            return .hevcConfiguration(parameterSets: parameterSets, lengthSize: lengthSize, chromaFormat: chromaFormat, bitDepth: bitDepth)
        case "ispe":
            try body.skip(4)
            return .spatialExtent(width: Int(try body.uint32()), height: Int(try body.uint32()))
        case "clap":
            var fractions: [Double] = []
            for index in 0..<4 {
                // Offsets' numerators are signed.
                let numerator = index < 2 ? Double(try body.uint32()) : Double(Int32(bitPattern: try body.uint32()))
                let denominator = try body.uint32()
                guard denominator > 0 else { return .other("clap") }
                fractions.append(numerator / Double(denominator))
            }
            return .cleanAperture(width: fractions[0], height: fractions[1], horizontalOffset: fractions[2], verticalOffset: fractions[3])
        case "irot":
            return .rotation(quarterTurns: Int(try body.uint8() & 3))
        case "imir":
            return .mirror(mode: Int(try body.uint8() & 1))
        case "colr":
            guard try body.fourCC() == "nclx" else { return .other("colr") }
            try body.skip(4)  // primaries and transfer characteristics
            return .color(matrix: Int(try body.uint16()), fullRange: try body.uint8() & 0x80 != 0)
        case "auxC":
            try body.skip(4)
            return .auxiliaryType(String(decoding: body.rest().prefix { $0 != 0 }, as: UTF8.self))
        default:
            return .other(box.type)
        }
    }

    // MARK: What the items are

    func item(_ id: UInt32) throws(ThumbnailError) -> Item {
        guard let item = items[id] else { throw .corrupt("HEIF: item \(id) is referenced but not described") }
        return item
    }

    /// The properties of item `id`, in order.
    func properties(of id: UInt32) -> [Property] {
        (items[id]?.properties ?? []).map { properties[$0.index] }
    }

    /// The items `id` refers to by references of `type` (a grid's tiles, in order: "dimg").
    func targets(of id: UInt32, _ type: String) -> [UInt32] {
        references.filter { $0.type == type && $0.from == id }.flatMap(\.to)
    }

    /// The items that refer to `id` by references of `type` (its thumbnails: "thmb"; auxiliary images: "auxl").
    func sources(to id: UInt32, _ type: String) -> [UInt32] {
        references.filter { $0.type == type && $0.to.contains(id) }.map(\.from)
    }

    /// The size of item `id` as coded, from its `ispe` property.
    func size(of id: UInt32) throws(ThumbnailError) -> (width: Int, height: Int) {
        for case .spatialExtent(let width, let height) in properties(of: id) {
            guard width > 0, height > 0 else { throw .corrupt("HEIF: item \(id) is \(width) × \(height) pixels") }
            return (width, height)
        }
        throw .corrupt("HEIF: item \(id) has no size (ispe)")
    }

    /// The part of item `id` that is shown, in its coded pixels: its clean aperture (clap) rounded and kept
    /// inside the image as libheif does, else all of it.
    func visibleRect(of id: UInt32) throws(ThumbnailError) -> (x: Int, y: Int, width: Int, height: Int) {
        let (width, height) = try size(of: id)
        for case .cleanAperture(let apertureWidth, let apertureHeight, let horizontal, let vertical) in properties(of: id) {
            // The aperture's centre is the image's, (size − 1) / 2, moved by the offsets (ISO/IEC 14496-12, 12.1.4).
            func span(_ size: Int, _ aperture: Double, _ offset: Double) -> (start: Int, length: Int)? {
                let start = (offset + Double(size - 1) / 2 - (aperture - 1) / 2).rounded(.down)
                let end = min(start + aperture.rounded() - 1, Double(size - 1))
                let first = max(0, start)
                guard first.isFinite, end.isFinite, end >= first else { return nil }
                return (Int(first), Int(end - first) + 1)
            }
            guard let across = span(width, apertureWidth, horizontal), let down = span(height, apertureHeight, vertical) else {
                throw .corrupt("HEIF: item \(id)'s clean aperture (\(apertureWidth) × \(apertureHeight) pixels) lies outside its \(width) × \(height)")
            }
            return (across.start, down.start, across.length, down.length)
        }
        return (0, 0, width, height)
    }

    /// How item `id`'s rotation and mirroring, applied in order, turn its pixels upright; `otherwise` when it
    /// has neither.
    func orientation(of id: UInt32, otherwise: ImageOrientation = .up) -> ImageOrientation {
        // Follow two stored pixels of a 2 × 3 image through the transformations; the orientation that
        // places them alike is theirs.
        var (width, height) = (2, 3)
        var pixels = [(0, 0), (1, 0)]
        var transformed = false
        for property in properties(of: id) {
            switch property {
            case .rotation(let turns):
                transformed = true
                for _ in 0..<turns {
                    pixels = pixels.map { ($0.1, width - 1 - $0.0) }
                    (width, height) = (height, width)
                }
            case .mirror(let mode):
                transformed = true
                pixels = pixels.map { mode == 0 ? ($0.0, height - 1 - $0.1) : (width - 1 - $0.0, $0.1) }
            default:
                break
            }
        }
        guard transformed else { return otherwise }
        return ImageOrientation.allCases.first { orientation in
            pixels.indices.allSatisfy { index in
                let (x, y) = [(0, 0), (1, 0)][index]
                return orientation.place(x, y, width: 2, height: 3) == pixels[index]
            }
        } ?? .up
    }

    /// The header: the size of the primary image's visible part (as stored, before turning) and its
    /// orientation, the number of images shown by themselves, and whether an alpha plane comes with the
    /// primary image.
    func header() throws(ThumbnailError) -> ImageHeader {
        let (_, _, width, height) = try visibleRect(of: primary)
        let shown = items.filter { id, item in
            !item.hidden && ["hvc1", "av01", "grid", "iovl", "iden", "jpeg"].contains(item.type)
                && !references.contains { ["thmb", "auxl"].contains($0.type) && $0.from == id }
        }
        return ImageHeader(format: .heif, width: width, height: height, orientation: orientation(of: primary),
                           frameCount: max(1, shown.count), hasAlpha: hasAlpha(primary))
    }

    /// Whether an auxiliary image gives item `id` an alpha plane.
    func hasAlpha(_ id: UInt32) -> Bool {
        sources(to: id, "auxl").contains { auxiliary in
            properties(of: auxiliary).contains { property in
                guard case .auxiliaryType(let type) = property else { return false }
                return type == "urn:mpeg:hevc:2015:auxid:1" || type == "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"
            }
        }
    }

    /// The bits of a sample of item `id` (a grid's, its first tile's), as its HEVC configuration gives them.
    func bitDepth(of id: UInt32) -> Int? {
        let coded = items[id]?.type == "grid" ? targets(of: id, "dimg").first ?? id : id
        for case .hevcConfiguration(_, _, _, let depth) in properties(of: coded) where depth > 0 { return depth }
        return nil
    }

    /// The EXIF that describes the primary image: an Exif item, its TIFF structure after the offset its first
    /// four bytes give (ISO/IEC 23008-12, A.2.1).
    func exif(in source: some ByteSource) -> Exif? {
        let candidates = items.filter { $0.value.type == "Exif" }.keys.sorted()
        let described = candidates.first { targets(of: $0, "cdsc").contains(primary) } ?? candidates.first
        guard let id = described, let extents = try? extents(of: id) else { return nil }
        var bytes: [UInt8] = []
        for extent in extents where bytes.count < largestHeaderRead {
            guard let chunk = try? source.bytes(at: extent.offset, count: min(extent.length, largestHeaderRead - bytes.count)) else { return nil }
            bytes += chunk
        }
        guard bytes.count > 4 else { return nil }
        let start = 4 + (Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        guard start < bytes.count else { return nil }
        return Exif(tiff: Array(bytes[start...]))
    }

    /// Where item `id`'s data lies in the file.
    func extents(of id: UInt32) throws(ThumbnailError) -> [(offset: Int, length: Int)] {
        guard let location = locations[id] else { throw .corrupt("HEIF: item \(id) has no data") }
        guard location.inIdat else { return location.extents }
        guard let idat else { throw .corrupt("HEIF: item \(id)'s data is in an idat box the file does not have") }
        return try location.extents.map { extent throws(ThumbnailError) in
            guard extent.offset + extent.length <= idat.count else { throw .corrupt("HEIF: item \(id)'s data lies beyond the idat box") }
            return (idat.lowerBound + extent.offset, extent.length)
        }
    }
}

/// Big-endian fields and nested boxes from bytes in memory, each read checked against the end.
struct BoxReader {
    struct Box {
        var type: String
        /// The payload's offsets in the bytes read from.
        var payload: Range<Int>
        var reader: BoxReader
    }

    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, bytes.indices)
    }

    private init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    private mutating func take(_ count: Int) throws(ThumbnailError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= end - offset else { throw .corrupt("HEIF: a box ends before its fields do (at byte \(offset))") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func skip(_ count: Int) throws(ThumbnailError) { _ = try take(count) }
    mutating func bytes(_ count: Int) throws(ThumbnailError) -> [UInt8] { Array(try take(count)) }
    mutating func uint8() throws(ThumbnailError) -> UInt8 { try take(1).first! }
    mutating func uint16() throws(ThumbnailError) -> UInt16 { UInt16(try uint(size: 2)) }
    mutating func uint24() throws(ThumbnailError) -> UInt32 { UInt32(try uint(size: 3)) }
    mutating func uint32() throws(ThumbnailError) -> UInt32 { UInt32(try uint(size: 4)) }
    mutating func uint64() throws(ThumbnailError) -> UInt64 { try take(8).reduce(0) { $0 << 8 | UInt64($1) } }
    mutating func fourCC() throws(ThumbnailError) -> String { String(decoding: try take(4), as: UTF8.self) }

    /// An unsigned field of `size` bytes (0 to 7; 8 when it fits an Int).
    mutating func uint(size: Int) throws(ThumbnailError) -> Int {
        let value = try take(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw .corrupt("HEIF: a field of \(value) at byte \(offset - size)") }
        return Int(value)
    }

    /// The bytes not yet read.
    func rest() -> ArraySlice<UInt8> { bytes[offset..<end] }

    /// The boxes from here to the end.
    mutating func boxes() throws(ThumbnailError) -> [Box] {
        var result: [Box] = []
        while offset < end {
            let start = offset
            var size = try uint(size: 4)
            let type = try fourCC()
            if size == 1 { size = try uint(size: 8) } else if size == 0 { size = end - start }
            let payload = offset
            guard size >= payload - start, size <= end - start else {
                throw .corrupt("HEIF: the \(type) box at byte \(start) claims \(size) bytes, more than hold it")
            }
            offset = start + size
            result.append(Box(type: type, payload: payload..<offset, reader: BoxReader(bytes, payload..<offset)))
        }
        return result
    }
}

/// What Thumbnails reads of HEVC itself: the picture size a sequence parameter set declares, which is what
/// libde265 allocates for — checked against the container's size before any tile is decoded.
enum HEVC {
    /// The NAL unit types of the parameter sets (H.265 table 7-1): VPS, SPS, PPS.
    static let parameterSetTypes: ClosedRange<UInt8> = 32...34

    /// The type in a NAL unit's two-byte header.
    static func unitType(_ header: UInt8) -> UInt8 { header >> 1 & 0x3F }

    /// The coded picture size of a sequence parameter set NAL unit (H.265 7.3.2.2, read as far as
    /// pic_height_in_luma_samples); nil when `unit` is not one, or ends first.
    static func pictureSize(ofSequenceParameterSet unit: [UInt8]) -> (width: Int, height: Int)? {
        guard unit.count > 2, unitType(unit[0]) == 33 else { return nil }
        var bits = BitReader(rbsp: unit.dropFirst(2))
        guard bits.skip(4), let layers = bits.read(3), bits.skip(1) else { return nil }  // VPS id, sub-layers − 1, nesting
        // profile_tier_level: the general profile and level (96 bits), then what each sub-layer has.
        guard bits.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<layers {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            present.append((profile == 1, level == 1))
        }
        if layers > 0 { guard bits.skip(2 * (8 - layers)) else { return nil } }
        for layer in present {
            guard bits.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard bits.exponentialGolomb() != nil, let chroma = bits.exponentialGolomb() else { return nil }  // SPS id, chroma format
        if chroma == 3 { guard bits.skip(1) else { return nil } }  // separate colour planes
        guard let width = bits.exponentialGolomb(), let height = bits.exponentialGolomb() else { return nil }
        return (width, height)
    }

    /// Bits of a NAL unit's payload, most significant first, with emulation prevention bytes (the 3 of
    /// 0x000003) removed.
    struct BitReader {
        private var bytes: [UInt8] = []
        private var position = 0

        init(rbsp payload: ArraySlice<UInt8>) {
            var zeros = 0
            for byte in payload {
                if zeros >= 2 && byte == 3 {
                    zeros = 0
                    continue
                }
                zeros = byte == 0 ? zeros + 1 : 0
                bytes.append(byte)
            }
        }

        mutating func read(_ count: Int) -> Int? {
            guard count <= 32, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position / 8] >> (7 - position % 8) & 1)
                position += 1
            }
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            guard position + count <= bytes.count * 8 else { return false }
            position += count
            return true
        }

        /// An unsigned Exp-Golomb code, ue(v); nil past 31 leading zeros (no valid field is that long).
        mutating func exponentialGolomb() -> Int? {
            var zeros = 0
            while true {
                guard let bit = read(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                guard zeros <= 31 else { return nil }
            }
            guard let rest = read(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }
    }
}
