// Times OpenSharing's type lookups the same way Peers/gio_types.c times GIO's, for compare-types.sh.
// Prints one line per operation: name, nanoseconds per call, checksum (so nothing is optimized away).
import Foundation
import SharingShim

let iterations = 2_000_000

func time(_ name: String, _ body: (Int) -> Int) {
    var checksum = 0
    for i in 0..<10_000 { checksum &+= body(i) }  // warm up: first use loads the type table
    let start = ContinuousClock.now
    for i in 0..<iterations { checksum &+= body(i) }
    let elapsed = ContinuousClock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    print("\(name)\t\(String(format: "%.1f", nanoseconds / Double(iterations)))\t\(checksum)")
}

let types: [UTType] = [.shellScript, .jpeg, .html, .mpeg4Movie]
let supertypes: [UTType] = [.plainText, .image, .text, .movie]
let fileNames = ["photo.jpg", "page.html", "clip.mp4", "archive.zip", "notes.txt", "doc.pdf", "pic.png", "data.json"]
let extensions = fileNames.map { String($0.split(separator: ".").last!) }
let mimeTypes = ["image/jpeg", "text/html", "video/mp4", "application/zip", "text/plain", "application/pdf", "image/png", "application/json"]

time("conformance") { i in types[i & 3].conforms(to: supertypes[(i >> 2) & 3]) ? 1 : 0 }
time("by-extension") { i in UTType(filenameExtension: extensions[i & 7])!.identifier.utf8.count }
time("by-mime-type") { i in UTType(mimeType: mimeTypes[i & 7])!.identifier.utf8.count }
