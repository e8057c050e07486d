import Foundation
import SharingShim
import Testing

/// The fixtures Tools/make-imageio-fixtures.py makes, and the Thumbnails suite's (HEIF with a thumbnail).
enum Fixture {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    static func thumbnails(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ThumbnailsTests/Fixtures/\(name)")
    }

    static func source(_ name: String) throws -> CGImageSource {
        try #require(CGImageSourceCreateWithURL(url(name) as CFURL, nil))
    }
}

/// A directory of its own for a test, removed after.
func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imageio-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// The pixels of `image` as RGB (or RGBA) rows.
func pixels(of image: CGImage, alpha: Bool = false) throws -> [UInt8] {
    let data = try #require(image.dataProvider?.data) as Data
    let channels = image.bitsPerPixel / 8
    var result: [UInt8] = []
    for row in 0..<image.height {
        for column in 0..<image.width {
            let index = row * image.bytesPerRow + column * channels
            if channels == 1 {
                result += alpha ? [data[index], data[index], data[index], 255] : [data[index], data[index], data[index]]
            } else {
                result += data[index..<(index + (alpha ? 4 : 3))]
            }
        }
    }
    return result
}

/// Pillow's reading of the image file at `url`, as RGB or RGBA bytes, with its size: an independent decoder.
func pillow(_ url: URL, alpha: Bool = false) throws -> (width: Int, height: Int, pixels: [UInt8]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let script = "import sys; from PIL import Image; i = Image.open(sys.argv[1]).convert(sys.argv[2]); "
        + "sys.stdout.write('%d %d\\n' % i.size); sys.stdout.flush(); sys.stdout.buffer.write(i.tobytes())"
    process.arguments = ["python3", "-c", script, url.path, alpha ? "RGBA" : "RGB"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "python3 with Pillow: exit status \(process.terminationStatus)")
    let newline = try #require(data.firstIndex(of: 10))
    let size = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
    return (size[0], size[1], Array(data[(newline + 1)...]))
}

/// Peak signal-to-noise ratio between two images of the same size, in decibels.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    guard a.count == b.count, !a.isEmpty else { return 0 }
    let squared = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
    return squared == 0 ? .infinity : 10 * log10(255 * 255 / squared)
}
