// Loads a file representation as a file copy, the way an extension receives a shared file, for
// compare-provider-copy.sh. `ProviderCopy --baseline` does nothing, to measure the process's own footprint.
import Foundation
import SharingShim

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, path != "--baseline" else { exit(0) }
let source = URL(fileURLWithPath: path)
let provider = NSItemProvider(contentsOf: source, contentType: .data)
if arguments.count > 1 { provider.temporaryDirectory = URL(fileURLWithPath: arguments[arguments.startIndex + 1]) }
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var copy: URL?
_ = provider.loadFileRepresentation(for: .data) { url, _, error in
    if let error { FileHandle.standardError.write(Data("\(error)\n".utf8)); exit(1) }
    // The copy exists until this returns; check its size as a consumer would before moving it on.
    let size = (try? FileManager.default.attributesOfItem(atPath: url!.path)[.size] as? Int) ?? -1
    print(size)
    copy = url
    done.signal()
}
done.wait()
// The load is over when the provider has removed its copy: wait for that, so it counts.
while let directory = copy?.deletingLastPathComponent(), FileManager.default.fileExists(atPath: directory.path) {
    usleep(1000)
}
