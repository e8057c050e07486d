import Foundation
import HostProfiles
import ShareInbox
import ShareIntake
import SharingShim
import Testing
import Thumbnails

/// What a package that depends on OpenSharing writes, built against it as `make test` resolves it: by version,
/// from a tagged clone (`Tools/versioned-clone.sh`), which SwiftPM accepts only for a package without unsafe
/// flags.
@Suite("OpenSharing as a versioned dependency")
struct VersionedDependencyTests {
    static let files = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/files")

    @Test("the clone is what this build resolved: OPENSHARING_VERSIONED_CLONE names a tagged repository")
    func resolvedByVersion() throws {
        let clone = try #require(ProcessInfo.processInfo.environment["OPENSHARING_VERSIONED_CLONE"],
                                 "make test sets OPENSHARING_VERSIONED_CLONE; without it this package takes the checkout by path")
        #expect(FileManager.default.fileExists(atPath: clone + "/Package.swift"))
        #expect(FileManager.default.fileExists(atPath: clone + "/.git"))
    }

    @Test("SharingShim: a type by extension, its conformance, and an item provider's data")
    func sharingShim() async throws {
        let heic = try #require(UTType(filenameExtension: "heic"))
        #expect(heic.identifier == "public.heic")
        #expect(heic.conforms(to: .image))
        let provider = try #require(NSItemProvider(contentsOf: Self.files.appendingPathComponent("notes.txt")))
        let data = try await provider.loadData(for: .plainText)
        #expect(data == (try Data(contentsOf: Self.files.appendingPathComponent("notes.txt"))))
    }

    @Test("ShareIntake and ShareInbox: a Photos share received into an inbox, with a preview")
    func intake() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("versioned-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let inbox = try ShareInbox(at: directory)
        let share = try HostProfile.named("photos")!.share(SharedContent(files: [Self.files.appendingPathComponent("sunset.jpg")]))
        let intake = try ShareIntake(policy: IntakePolicy(acceptedTypes: [.image], previewSizes: [120]))
        let report = try await intake.receive(try share.makeItems(relativeTo: URL(fileURLWithPath: "/")), into: inbox)
        guard case .received(let received)? = report.entries.first?.outcome else {
            Issue.record("expected the photo received, got \(report.entries)")
            return
        }
        #expect(received.type == "public.jpeg")
        #expect(received.size == 31_863)
        #expect(try inbox.pending().map(\.id) == [received.id])
    }

    @Test("Thumbnails: the header, then a thumbnail no larger than asked, upright")
    func thumbnails() throws {
        let photo = Self.files.appendingPathComponent("sunset.jpg")
        let header = try Thumbnailer.header(of: photo)
        #expect(header.width == 1200 && header.height == 800)
        let thumbnail = try Thumbnailer(maxPixelSize: 160).thumbnail(of: photo)
        #expect(thumbnail.width == 107 && thumbnail.height == 160)
    }
}
