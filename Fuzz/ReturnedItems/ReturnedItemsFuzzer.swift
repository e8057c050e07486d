// libFuzzer entry point for what a hostile extension's `complete` makes the host do: the message decoded, its
// payloads checked against the descriptors that came with it (memory files sealed or not, files sparse or not,
// directories, pipes), the returned items built, and every representation loaded every way a host can (data,
// file, file in place, item). No input may crash, hang (a load unanswered within 10 s), answer a load twice, or
// make the host read what it must not (a pipe is held open, so a read of it would hang). Built by Fuzz/run.sh as
// a target of the package, which Package.swift adds when OPENSHARING_FUZZ is set.
import CSharingSystem
import Dispatch
import Foundation
@testable import ExtensionRuntime
import OpenItemProvider
import PackageSupport
import SharingSystem

/// Where the inputs' files are made.
private let scratch: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("returned-items-fuzzer-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// The descriptors of one input, made as the input says: two bytes each, a kind and a size.
private func descriptors(_ spec: ArraySlice<UInt8>, pipesKeptOpen: inout [OpenFile]) -> [OpenFile] {
    var files: [OpenFile] = []
    var spec = spec
    while spec.count >= 2 {
        let kind = spec.removeFirst() % 6, size = Int(spec.removeFirst()) * 97
        let bytes = [UInt8](repeating: 0x5a, count: size)
        do {
            switch kind {
            case 0, 1:
                let file = OpenFile.adopting(csharing_memfd_create("fuzz"), path: "memfd")
                _ = bytes.withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) }
                if kind == 0 { _ = csharing_memfd_seal(file.descriptor) }
                files.append(file)
            case 2, 3:
                let url = scratch.appendingPathComponent(UUID().uuidString)
                try Data(bytes).write(to: url)
                if kind == 3 { truncate(url.path, off_t(size) << 20) }
                files.append(try OpenFile.reading(url))
                try FileManager.default.removeItem(at: url)
            case 4:
                files.append(try OpenFile.reading(scratch, regularOnly: false))
            default:
                let pipe = try StreamPipe.make(name: "fuzz")
                pipesKeptOpen.append(pipe.writing)
                files.append(pipe.reading)
            }
        } catch {
            continue
        }
    }
    return files
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReturnedItems(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let described = Int(input[0] % 17)
    let specEnd = min(count, 1 + 2 * described)
    var pipes: [OpenFile] = []
    let files = descriptors(input[1..<specEnd], pipesKeptOpen: &pipes)
    let packet = Array(input[specEnd...])
    guard case .complete(let wire)? = try? RuntimeMessage.decode(packet, descriptors: files.count),
          let items = try? ProviderMirror.returnedItems(wire, files: files) else { return 0 }
    // What `sharing run` reports reads statuses only.
    _ = ProviderMirror.records(of: wire, files: files)
    let loads = DispatchGroup()
    func answered() -> @Sendable () -> Void {
        let answers = Locked(0)
        loads.enter()
        return {
            let count = answers.withLock { count in count += 1; return count }
            precondition(count == 1, "a load answered twice")
            loads.leave()
        }
    }
    for provider in items.flatMap({ $0.attachments ?? [] }) {
        for type in provider.registeredTypeIdentifiers {
            let data = answered(), file = answered(), inPlace = answered(), item = answered()
            _ = provider.loadDataRepresentation(forTypeIdentifier: type) { _, _ in data() }
            _ = provider.loadFileRepresentation(forTypeIdentifier: type) { url, _ in
                if let url { precondition(FileManager.default.fileExists(atPath: url.path), "a file load's URL names nothing") }
                file()
            }
            _ = provider.loadInPlaceFileRepresentation(forTypeIdentifier: type) { _, _, _ in inPlace() }
            provider.loadItem(forTypeIdentifier: type, options: [AnyHashable: Any]?.none) { _, _ in item() }
        }
    }
    precondition(loads.wait(timeout: .now() + 10) == .success, "a load of a returned item never answered")
    withExtendedLifetime(pipes) {}
    return 0
}
