import Foundation
import Testing

@Suite("sharing thumbnail")
struct ThumbnailCommandTests {
    @Test("--header, then a thumbnail turned upright, as JPEG or PNG by the name")
    func thumbnail() async throws {
        try await withTemporaryDirectory { directory in
            let header = try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg", "--header"], in: repositoryRoot)
            #expect(header.status == 0 && header.standardOutput == "Examples/files/sunset.jpg: jpeg 1200 × 800, orientation 6, 1 frame\n")
            for name in ["t.jpg", "t.png"] {
                let output = directory.appendingPathComponent(name).path
                let made = try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg", "--max", "160", "-o", output], in: repositoryRoot)
                #expect(made.status == 0 && made.standardOutput == "\(output): 107 × 160\n", "\(made.standardError)")
                let written = try await Sharing.run(["thumbnail", output, "--header"])
                #expect(written.standardOutput.hasSuffix("\(name.hasSuffix(".png") ? "png" : "jpeg") 107 × 160, orientation 1, 1 frame\n"))
            }
            let stored = directory.appendingPathComponent("stored.jpg").path
            let kept = try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg", "--max", "160", "--keep-orientation", "-o", stored], in: repositoryRoot)
            #expect(kept.standardOutput == "\(stored): 160 × 107\n")
        }
    }

    @Test("what is not an image, too many pixels: a message and exit status 1; usage errors and a missing image: 2")
    func errors() async throws {
        let text = try await Sharing.run(["thumbnail", "Examples/files/notes.txt", "-o", "/tmp/never.jpg"], in: repositoryRoot)
        #expect(text.status == 1 && text.standardError.contains("Examples/files/notes.txt: unsupported: not a JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP image"))
        let bomb = try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg", "--pixel-limit", "1000", "-o", "/tmp/never.jpg"], in: repositoryRoot)
        #expect(bomb.status == 1 && bomb.standardError.contains("1200 × 800 pixels is more than the limit of 1000 pixels"))
        #expect(try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg"], in: repositoryRoot).status == 2)
        #expect(try await Sharing.run(["thumbnail", "Examples/files/sunset.jpg", "--max", "0", "-o", "x.jpg"], in: repositoryRoot).status == 2)
        let missing = try await Sharing.run(["thumbnail", "Examples/files/nothing.jpg", "-o", "/tmp/never.jpg"], in: repositoryRoot)
        #expect(missing.status == 2)
        #expect(missing.standardError == "sharing: error: Examples/files/nothing.jpg: cannot read the image: opening \(repositoryRoot.path)/Examples/files/nothing.jpg failed: No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.jpg"))
    }
}
