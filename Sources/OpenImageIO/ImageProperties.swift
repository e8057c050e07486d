import Foundation
import OpenCoreFoundation
import Thumbnails

/// The property dictionaries ImageIO gives, from what a file's header says: top-level keys for the image, and
/// a dictionary for each kind of metadata the file holds. Numbers are `NSNumber`s, texts `NSString`s, lists
/// `NSArray`s, as Apple's are.
enum ImageProperties {
    /// `CGImageSourceCopyProperties`: the file's size, and GIF's file-wide properties.
    static func container(_ metadata: ImageMetadata, fileSize: Int) -> NSDictionary {
        let properties = NSMutableDictionary()
        properties[kCGImagePropertyFileSize] = fileSize
        if let gif = metadata.gif {
            let dictionary = NSMutableDictionary()
            dictionary[kCGImagePropertyGIFHasGlobalColorMap] = gif.hasGlobalColorMap
            dictionary[kCGImagePropertyGIFCanvasPixelWidth] = metadata.header.width
            dictionary[kCGImagePropertyGIFCanvasPixelHeight] = metadata.header.height
            if let loopCount = gif.loopCount { dictionary[kCGImagePropertyGIFLoopCount] = loopCount }
            properties[kCGImagePropertyGIFDictionary] = dictionary
        }
        return properties
    }

    /// `CGImageSourceCopyPropertiesAtIndex`: the image's own properties.
    static func image(_ metadata: ImageMetadata) -> NSDictionary {
        let header = metadata.header
        let properties = NSMutableDictionary()
        properties[kCGImagePropertyPixelWidth] = header.width
        properties[kCGImagePropertyPixelHeight] = header.height
        properties[kCGImagePropertyDepth] = metadata.depth
        properties[kCGImagePropertyColorModel] = metadata.colorModel.rawValue
        if header.hasAlpha { properties[kCGImagePropertyHasAlpha] = true }
        if metadata.isIndexed { properties[kCGImagePropertyIsIndexed] = true }
        // The orientation is given where the file gives one.
        if header.orientation != .up || statesOrientation(metadata) { properties[kCGImagePropertyOrientation] = header.orientation.rawValue }
        if let (x, y) = resolution(metadata) {
            properties[kCGImagePropertyDPIWidth] = x
            properties[kCGImagePropertyDPIHeight] = y
        }
        if let exif = metadata.exif {
            if let tiff = dictionary(exif.primary, keys: tiffTagKeys), tiff.count > 0 { properties[kCGImagePropertyTIFFDictionary] = tiff }
            if let fields = dictionary(exif.exif, keys: exifTagKeys), fields.count > 0 { properties[kCGImagePropertyExifDictionary] = fields }
            if let gps = dictionary(exif.gps, keys: gpsTagKeys, gps: true), gps.count > 0 { properties[kCGImagePropertyGPSDictionary] = gps }
        }
        if let jfif = metadata.jfif {
            properties[kCGImagePropertyJFIFDictionary] = [
                kCGImagePropertyJFIFVersion: jfif.version.map { $0 as NSNumber } as NSArray,
                kCGImagePropertyJFIFDensityUnit: jfif.densityUnit as NSNumber,
                kCGImagePropertyJFIFXDensity: jfif.xDensity as NSNumber,
                kCGImagePropertyJFIFYDensity: jfif.yDensity as NSNumber,
                kCGImagePropertyJFIFIsProgressive: metadata.isProgressive as NSNumber,
            ] as NSDictionary
        }
        if let png = metadata.png { properties[kCGImagePropertyPNGDictionary] = dictionary(png) }
        if let gif = metadata.gif {
            let dictionary = NSMutableDictionary()
            if let delay = gif.delay {
                dictionary[kCGImagePropertyGIFUnclampedDelayTime] = delay
                dictionary[kCGImagePropertyGIFDelayTime] = clamped(delay)
            }
            if let loopCount = gif.loopCount { dictionary[kCGImagePropertyGIFLoopCount] = loopCount }
            properties[kCGImagePropertyGIFDictionary] = dictionary
        }
        return properties
    }

    /// Whether the file states an orientation, up or not: EXIF's tag, or HEIF's transformations.
    private static func statesOrientation(_ metadata: ImageMetadata) -> Bool {
        metadata.exif?.orientation != nil
    }

    /// Dots per inch, where the file gives a resolution: JFIF's density in inches or centimetres, EXIF's
    /// resolution, PNG's pixels per metre.
    private static func resolution(_ metadata: ImageMetadata) -> (Double, Double)? {
        if let jfif = metadata.jfif, jfif.densityUnit == 1 || jfif.densityUnit == 2, jfif.xDensity > 0, jfif.yDensity > 0 {
            let scale = jfif.densityUnit == 2 ? 2.54 : 1
            return (Double(jfif.xDensity) * scale, Double(jfif.yDensity) * scale)
        }
        if let primary = metadata.exif?.primary, case .numbers(let x)? = primary[0x011A], case .numbers(let y)? = primary[0x011B],
           let across = x.first, let down = y.first, across > 0, down > 0 {
            let unit = { if case .integers(let values)? = primary[0x0128] { return values.first ?? 2 } else { return 2 } }()
            let scale = unit == 3 ? 2.54 : 1
            return (across * scale, down * scale)
        }
        if let physical = metadata.png?.pixelsPerUnit, physical.metre, physical.x > 0, physical.y > 0 {
            return ((Double(physical.x) * 0.0254).rounded(), (Double(physical.y) * 0.0254).rounded())
        }
        return nil
    }

    /// A directory's fields under ImageIO's keys, in the forms it gives them.
    private static func dictionary(_ fields: [UInt16: TIFFValue], keys: [UInt16: CFString], gps: Bool = false) -> NSDictionary? {
        let dictionary = NSMutableDictionary()
        for (tag, value) in fields {
            guard let key = keys[tag], let converted = convert(tag: tag, value, gps: gps) else { continue }
            dictionary[key] = converted
        }
        return dictionary
    }

    /// The tags whose values are lists even when they hold one (ISO speeds, the subject's area, the lens).
    private static let listTags: Set<UInt16> = [0x8827, 0x9214, 0xA214, 0xA432, 0x013E, 0x013F, 0x012D]

    private static func convert(tag: UInt16, _ value: TIFFValue, gps: Bool) -> Any? {
        if gps {
            switch tag {
            case 0x0000:
                if case .integers(let values) = value { return values.map { $0 as NSNumber } as NSArray }
            case 0x0002, 0x0004, 0x0014, 0x0016:
                // Degrees, minutes and seconds as one number of degrees.
                if case .numbers(let parts) = value, !parts.isEmpty {
                    return parts.prefix(3).enumerated().reduce(0.0) { $0 + $1.element / pow(60, Double($1.offset)) }
                }
            case 0x0007:
                if case .numbers(let parts) = value, parts.count == 3 {
                    return String(format: "%02d:%02d:%05.2f", Int(parts[0]), Int(parts[1]), parts[2])
                }
            case 0x001B, 0x001C:
                if case .bytes(let bytes) = value { return text(ofCommentBytes: bytes) }
            default:
                break
            }
        } else {
            switch tag {
            case 0x9000, 0xA000:
                // "0232" is version 2.3.2, "0100" 1.0.
                if case .bytes(let digits) = value, digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                    let numbers = digits.map { Int($0) - 0x30 }
                    var version = [numbers[0] * 10 + numbers[1], numbers[2]]
                    if numbers[3] != 0 { version.append(numbers[3]) }
                    return version.map { $0 as NSNumber } as NSArray
                }
            case 0x9101:
                if case .bytes(let bytes) = value { return bytes.map { Int($0) as NSNumber } as NSArray }
            case 0x9286:
                if case .bytes(let bytes) = value { return text(ofCommentBytes: bytes) }
            case 0xA300, 0xA301:
                if case .bytes(let bytes) = value, let first = bytes.first { return Int(first) }
            case 0x927C, 0x8828, 0xA302, 0xA40B:
                // Binary blocks: given as data.
                if case .bytes(let bytes) = value { return Data(bytes) as NSData }
            default:
                break
            }
        }
        switch value {
        case .text(let text): return text
        case .integers(let values) where values.count == 1 && !listTags.contains(tag): return values[0]
        case .numbers(let values) where values.count == 1 && !listTags.contains(tag): return values[0]
        case .integers(let values): return values.map { $0 as NSNumber } as NSArray
        case .numbers(let values): return values.map { $0 as NSNumber } as NSArray
        case .bytes(let bytes): return Data(bytes) as NSData
        }
    }

    /// EXIF's comments: an 8-byte character code, then the text (ASCII, or UTF-16 for "UNICODE").
    private static func text(ofCommentBytes bytes: [UInt8]) -> String {
        let code = bytes.prefix(8)
        let body = Array(bytes.dropFirst(8))
        let text: String
        if code.starts(with: Array("UNICODE".utf8)) {
            text = String(decoding: stride(from: 0, to: body.count - 1, by: 2).map { UInt16(body[$0]) << 8 | UInt16(body[$0 + 1]) }, as: UTF16.self)
        } else {
            text = String(decoding: body, as: UTF8.self)
        }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\0 "))
    }

    private static func dictionary(_ png: ImageMetadata.PNG) -> NSDictionary {
        let dictionary = NSMutableDictionary()
        dictionary[kCGImagePropertyPNGInterlaceType] = png.interlaced ? 1 : 0
        if let gamma = png.gamma { dictionary[kCGImagePropertyPNGGamma] = gamma }
        if let intent = png.sRGBIntent { dictionary[kCGImagePropertyPNGsRGBIntent] = intent }
        if let physical = png.pixelsPerUnit, physical.metre {
            dictionary[kCGImagePropertyPNGXPixelsPerMeter] = physical.x
            dictionary[kCGImagePropertyPNGYPixelsPerMeter] = physical.y
        }
        let textKeys: [String: CFString] = [
            "Author": kCGImagePropertyPNGAuthor, "Copyright": kCGImagePropertyPNGCopyright, "Creation Time": kCGImagePropertyPNGCreationTime,
            "Description": kCGImagePropertyPNGDescription, "Software": kCGImagePropertyPNGSoftware, "Title": kCGImagePropertyPNGTitle,
            "Comment": kCGImagePropertyPNGComment, "Disclaimer": kCGImagePropertyPNGDisclaimer, "Warning": kCGImagePropertyPNGWarning,
            "Source": kCGImagePropertyPNGSource,
        ]
        for (keyword, text) in png.texts {
            if let key = textKeys[keyword] { dictionary[key] = text }
        }
        if let loopCount = png.loopCount { dictionary[kCGImagePropertyAPNGLoopCount] = loopCount }
        if let delay = png.delay {
            dictionary[kCGImagePropertyAPNGUnclampedDelayTime] = delay
            dictionary[kCGImagePropertyAPNGDelayTime] = clamped(delay)
        }
        return dictionary
    }

    /// A frame delay as browsers and ImageIO play it: 0.1 s when the file asks for 10 ms or less.
    private static func clamped(_ delay: Double) -> Double {
        delay < 0.011 ? 0.1 : delay
    }
}
