import ArgumentParser
import Foundation
import Thumbnails

/// `sharing thumbnail IN --max 300 -o OUT.jpg`: a thumbnail made the way an extension must, within a budget.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make a thumbnail of a JPEG, PNG, GIF, WebP, HEIC, TIFF or BMP image without decoding it whole.",
        discussion: """
            The thumbnail is no larger than --max pixels on its longer side and is turned upright. Decoding stays \
            within --memory-budget and refuses images of more than --pixel-limit pixels, before allocating. \
            The output is JPEG unless its name ends in .png. With --header, only the header is read and printed.
            """
    )

    @Argument(help: ArgumentHelp("The image.", valueName: "image"))
    var input: String

    @Option(help: ArgumentHelp("The longest side of the thumbnail, in pixels.", valueName: "pixels"))
    var max: Int = 300

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the thumbnail (.jpg or .png).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The JPEG quality, 1 to 100.", valueName: "quality"))
    var quality: Int = 85

    @Option(name: .customLong("memory-budget"), help: ArgumentHelp("The memory decoding may use, in MB.", valueName: "MB"))
    var memoryBudget: Int = 16

    @Option(name: .customLong("pixel-limit"), help: ArgumentHelp("The most pixels an image may have.", valueName: "pixels"))
    var pixelLimit: Int = 100_000_000

    @Flag(help: "Keep the stored orientation instead of turning the image upright.")
    var keepOrientation = false

    @Flag(help: "Print the header (format, size, orientation, frames) and make no thumbnail.")
    var header = false

    func validate() throws {
        guard header || output != nil else { throw ValidationError("Missing -o/--output (or --header).") }
        guard max >= 1 else { throw ValidationError("--max must be at least 1.") }
        guard memoryBudget >= 1 else { throw ValidationError("--memory-budget must be at least 1 MB.") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: input)
        do {
            if header {
                let found = try Thumbnailer.header(of: url)
                Output.line("\(input): \(found.format.rawValue) \(found.width) × \(found.height), orientation \(found.orientation.rawValue), "
                            + "\(found.frameCount) frame\(found.frameCount == 1 ? "" : "s")\(found.hasAlpha ? ", alpha" : "")")
                return
            }
            guard let output else { return }
            let thumbnailer = Thumbnailer(maxPixelSize: max, pixelLimit: pixelLimit, memoryBudget: memoryBudget << 20,
                                          appliesOrientation: !keepOrientation)
            let thumbnail = try thumbnailer.thumbnail(of: url)
            let encoding: Thumbnail.Encoding = output.lowercased().hasSuffix(".png") ? .png : .jpeg(quality: quality)
            try thumbnail.write(to: URL(fileURLWithPath: output), as: encoding)
            Output.line("\(output): \(thumbnail.width) × \(thumbnail.height)")
        } catch ThumbnailError.unreadable(let error) {
            throw BadInput("\(input): cannot read the image: \(error)")
        } catch {
            Output.error("\(input): \(error)")
            throw ExitCode.failure
        }
    }
}
