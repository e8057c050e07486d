// One image reduced the way an extension's code does it, as a process of its own, for compare-imageio.sh:
//   ImageIOThumbnail thumbnail INPUT MAX OUTPUT   CGImageSourceCreateThumbnailAtIndex, then a JPEG (ImageIO's way)
//   ImageIOThumbnail naive INPUT MAX OUTPUT       UIImage drawn into a renderer at scale 1, then jpegData (the naive way)
//   ImageIOThumbnail empty                        nothing: the program's own footprint, the baseline
import Foundation
import SharingShim

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { exit(2) }
switch arguments[1] {
case "empty":
    exit(0)
case "thumbnail" where arguments.count == 5:
    let (input, maximum, output) = (URL(fileURLWithPath: arguments[2]), Int(arguments[3]) ?? 300, URL(fileURLWithPath: arguments[4]))
    guard let source = CGImageSourceCreateWithURL(input as CFURL, [kCGImageSourceShouldCache: false] as CFDictionary),
          let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, [
              kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceCreateThumbnailWithTransform: true,
              kCGImageSourceThumbnailMaxPixelSize: maximum,
          ] as CFDictionary),
          let destination = CGImageDestinationCreateWithURL(output as CFURL, "public.jpeg" as CFString, 1, nil) else { exit(1) }
    CGImageDestinationAddImage(destination, thumbnail, [kCGImageDestinationLossyCompressionQuality: 0.85] as CFDictionary)
    exit(CGImageDestinationFinalize(destination) ? 0 : 1)
case "naive" where arguments.count == 5:
    let (input, maximum, output) = (arguments[2], CGFloat(Int(arguments[3]) ?? 300), URL(fileURLWithPath: arguments[4]))
    guard let image = UIImage(contentsOfFile: input) else { exit(1) }
    let ratio = min(1, maximum / max(image.size.width, image.size.height))
    let size = CGSize(width: (image.size.width * ratio).rounded(), height: (image.size.height * ratio).rounded())
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    let resized = UIGraphicsImageRenderer(size: size, format: format).image { _ in image.draw(in: CGRect(origin: .zero, size: size)) }
    guard let data = resized.jpegData(compressionQuality: 0.85) else { exit(1) }
    try data.write(to: output)
default:
    exit(2)
}
