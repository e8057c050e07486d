// libFuzzer entry point for the image header readers (JPEG, PNG, GIF, WebP, TIFF, EXIF, HEIF's meta box and
// the HEVC parameter sets in it): any bytes must give a header or an error, never a crash, a hang or a large
// allocation. Built by Fuzz/run.sh as a target of the package, which Package.swift adds when OPENSHARING_FUZZ
// is set.
@testable import Thumbnails

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = BufferBytes(buffer: Array(UnsafeBufferPointer(start: bytes, count: count)))
    _ = Exif.orientation(in: Array(source.buffer.prefix(4096)))
    guard let (header, heif) = try? HeaderReader.header(of: source) else { return 0 }
    precondition(header.width > 0 && header.height > 0 && header.frameCount >= 1, "an impossible header: \(header)")
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
