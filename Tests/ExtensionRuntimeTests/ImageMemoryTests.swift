import ExtensionRuntime
import Foundation
import HostProfiles
import OpenItemProvider
import Testing

/// A photo of 48 megapixels (8,000 × 6,000) as a phone's camera takes, written by Pillow: a JPEG of about a
/// megabyte whose pixels take 192 MB decoded.
enum LargePhoto {
    static func make(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("photo-48mp.jpg")
        let script = """
        import sys
        from PIL import Image, ImageDraw
        size = (8000, 6000)
        ramp = Image.linear_gradient("L").resize(size)
        photo = Image.merge("RGB", (ramp, ramp.rotate(90).resize(size), Image.new("L", size, 128)))
        ImageDraw.Draw(photo).ellipse([500, 500, 3000, 3000], fill=(230, 30, 30))
        photo.save(sys.argv[1], quality=85)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        return url
    }
}

@Suite("Images cost in an extension what they cost on a device")
struct ImageMemoryTests {
    @Test("a 48 MP photo resized for upload on a scale-3 phone: through UIImage it is ended for memory at 120 MB; through ImageIO it completes, small")
    func resizeForUpload() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = try LargePhoto.make(in: directory)
        let groups = directory.appendingPathComponent("groups")
        let device = try #require(DeviceClass.named("iphone-13"))
        let host = ExtensionHost(device: device, appGroupContainers: groups)
        let share = { try #require(HostProfile.named("photos")).share(SharedContent(files: [photo])).makeItems(relativeTo: directory) }

        let naive = try await host.run(ExtensionBundle(url: ExampleBundles.make("NaiveResizer", in: directory)), items: try share())
        guard case .interrupted(.memoryLimit(let limit, let peak)) = naive.outcome else { Issue.record("\(naive.outcome): \(naive.log)"); return }
        #expect(limit == 120 << 20 && peak > limit)

        let downsampling = try await host.run(ExtensionBundle(url: ExampleBundles.make("DownsamplingResizer", in: directory)), items: try share())
        guard case .completed = downsampling.outcome else { Issue.record("\(downsampling.outcome): \(downsampling.log)"); return }
        // The thumbnail's bitmap (2,000 × 1,500 × 4 bytes: 12 MB) and the program: far under the limit.
        #expect(downsampling.peakFootprint < 40 << 20, "\(downsampling.peakFootprint)")
        let uploaded = groups.appendingPathComponent("group.org.opensharing.examples/Uploads/resized.jpg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; from PIL import Image; print('%dx%d' % Image.open(sys.argv[1]).size)", uploaded.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "2000x1500\n")
    }
}

@Suite("Devices")
struct DeviceTests {
    @Test("a device's baseline (what an empty extension uses there) is charged against the limit, and shows in the peak")
    func baselineCharged() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory))
        let roomy = DeviceClass(name: "roomy", model: "a test device", screenScale: 2, screenWidth: 375, screenHeight: 667,
                                memoryLimits: ["com.apple.services": 64 << 20], baselines: ["com.apple.services": 8 << 20], sources: [])
        let fits = try await ExtensionHost(device: roomy).run(bundle, items: try ExampleBundles.text("hello"))
        guard case .completed = fits.outcome else { Issue.record("\(fits.outcome): \(fits.log)"); return }
        #expect(fits.peakFootprint >= 8 << 20, "\(fits.peakFootprint)")
        var tight = roomy
        tight.baselines = ["com.apple.services": 63 << 20]
        let over = try await ExtensionHost(device: tight).run(bundle, items: try ExampleBundles.text("hello"))
        guard case .interrupted(.memoryLimit(let limit, _)) = over.outcome else { Issue.record("\(over.outcome)"); return }
        #expect(limit == 64 << 20)
    }
}
