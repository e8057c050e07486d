// libFuzzer entry point for the image header readers (JPEG, PNG, GIF, WebP and EXIF): any bytes must give a
// header or an error, never a crash, a hang or a large allocation. Built by Fuzz/run.sh with the pure-Swift
// part of Sources/Thumbnails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = BufferBytes(buffer: Array(UnsafeBufferPointer(start: bytes, count: count)))
    guard let format = try? HeaderReader.format(of: source), format != .heif,
          let header = try? HeaderReader.header(of: source, format: format) else { return 0 }
    precondition(header.width > 0 && header.height > 0 && header.frameCount >= 1, "an impossible header: \(header)")
    _ = Exif.orientation(in: Array(source.buffer.prefix(4096)))
    return 0
}
