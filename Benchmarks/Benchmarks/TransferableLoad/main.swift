// What CoreTransferable's machinery costs over the calls it makes, for compare-transferable.sh:
//
//   TransferableLoad file PATH TMP provider      loadFileRepresentation of PATH's file representation
//   TransferableLoad file PATH TMP transferable  loadTransferable of a type whose FileRepresentation imports it
//   TransferableLoad codable COUNT               five pairs of COUNT round trips of a small Codable value:
//                                                JSONEncoder and JSONDecoder alone, then through CodableRepresentation
//
// Both file loads end once the file copy is gone, and both look at the file the same way (its size).
import Foundation
import SharingShim

struct Movie: Transferable {
    var size: Int

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(importedContentType: .data) { received in
            Movie(size: try FileManager.default.attributesOfItem(atPath: received.file.path)[.size] as? Int ?? -1)
        }
    }
}

let noteType = UTType(exportedAs: "org.opensharing.bench.note")

struct Note: Codable, Transferable, Equatable {
    var title: String
    var body: String
    var tags: [String]
    var pinned: Bool

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: noteType)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "file" where arguments.count == 4:
    let provider = NSItemProvider(contentsOf: URL(fileURLWithPath: arguments[1]), contentType: .data)
    provider.temporaryDirectory = URL(fileURLWithPath: arguments[2])
    let done = DispatchSemaphore(value: 0)
    if arguments[3] == "provider" {
        _ = provider.loadFileRepresentation(for: .data) { url, _, error in
            guard let url else { fail("\(error!)") }
            print((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1)
            done.signal()
        }
    } else {
        _ = provider.loadTransferable(type: Movie.self) { result in
            switch result {
            case .success(let movie): print(movie.size)
            case .failure(let error): fail("\(error)")
            }
            done.signal()
        }
    }
    done.wait()
    // Over when no copy is left in TMP (the provider's, or the one loadTransferable kept for its importer).
    while (try? FileManager.default.contentsOfDirectory(atPath: arguments[2]))?.isEmpty == false { usleep(1000) }
case "codable" where arguments.count == 2:
    // Batches of COUNT, alternating: one of the coders alone, then one through CodableRepresentation; each pair
    // printed as the two means per round trip, in µs.
    guard let count = Int(arguments[1]) else { fail("codable COUNT") }
    let note = Note(title: "Groceries", body: "eggs, milk, flour, butter", tags: ["home", "weekly"], pinned: true)
    let done = DispatchSemaphore(value: 0)
    // Detached: top-level code is the main actor's, whose thread waits below.
    Task.detached {
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        func micro(_ duration: Duration) -> Double {
            (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(count)
        }
        for _ in 0..<5 {
            var start = ContinuousClock.now
            for _ in 0..<count {
                guard try decoder.decode(Note.self, from: try encoder.encode(note)) == note else { fail("round trip") }
            }
            let plain = ContinuousClock.now - start
            start = ContinuousClock.now
            for _ in 0..<count {
                let data = try await note.exported(as: nil)
                guard try await Note(importing: data, contentType: noteType) == note else { fail("round trip") }
            }
            let transferred = ContinuousClock.now - start
            print(String(format: "%.3f %.3f", micro(plain), micro(transferred)))
        }
        done.signal()
    }
    done.wait()
default:
    fail("usage: TransferableLoad file PATH TMP provider|transferable | TransferableLoad codable COUNT")
}
