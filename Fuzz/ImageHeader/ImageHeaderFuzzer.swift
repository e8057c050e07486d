// libFuzzer entry point for the image header readers (JPEG, PNG, GIF, WebP, TIFF, BMP, EXIF, HEIF's meta box
// and the HEVC parameter sets in it), and for the decoders written in Swift (GIF's LZW, BMP): any bytes must give
// a header or an error, never a crash, a hang or a large allocation. Built by Fuzz/run.sh as a target of the
// package, which Package.swift adds when OPENSHARING_FUZZ is set.
import Foundation
@testable import Thumbnails

/// Where an input is written for the decoders, which read files.
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("image-header-fuzzer-\(getpid())")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = BufferBytes(buffer: Array(UnsafeBufferPointer(start: bytes, count: count)))
    _ = Exif.orientation(in: Array(source.buffer.prefix(4096)))
    guard let (header, heif) = try? HeaderReader.header(of: source) else { return 0 }
    precondition(header.width > 0 && header.height > 0 && header.frameCount >= 1, "an impossible header: \(header)")
    if header.format == .gif || header.format == .bmp {
        try? Data(bytes: bytes, count: count).write(to: scratch)
        if let thumbnail = try? Thumbnailer(maxPixelSize: 32, pixelLimit: 1 << 20).thumbnail(of: scratch) {
            precondition(thumbnail.pixels.count == thumbnail.width * thumbnail.height * thumbnail.channels, "a thumbnail of the wrong size")
        }
    }
    if let heif {
        // What the decoder asks of the items after the header: their data, sizes, references.
        for id in heif.items.keys {
            _ = try? heif.extents(of: id)
            _ = try? heif.size(of: id)
            if let size = try? heif.size(of: id), let visible = try? heif.visibleRect(of: id) {
                precondition(visible.x >= 0 && visible.y >= 0 && visible.width >= 1 && visible.height >= 1
                             && visible.x + visible.width <= size.width && visible.y + visible.height <= size.height,
                             "a visible part \(visible) outside \(size)")
            }
            _ = heif.orientation(of: id)
            _ = heif.hasAlpha(id)
            _ = heif.targets(of: id, "dimg")
            for case .hevcConfiguration(let units, _, _, _) in heif.properties(of: id) {
                for unit in units { _ = HEVC.pictureSize(ofSequenceParameterSet: unit) }
            }
        }
    }
    return 0
}
