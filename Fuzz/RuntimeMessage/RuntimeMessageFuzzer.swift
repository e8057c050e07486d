// libFuzzer entry point for the extension runtime's message decoder: any packet, with any number of
// descriptors, must give a message or a protocol violation, never a crash or a large allocation; and a message
// that decodes must encode to bytes that decode to it again. Built by Fuzz/run.sh as a target of the package.
@testable import ExtensionRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRuntimeMessage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    // The first byte says how many descriptors arrived with the packet; the rest is the packet.
    let descriptors = Int(bytes[0] % 17)
    let packet = Array(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
    guard let message = try? RuntimeMessage.decode(packet, descriptors: descriptors) else { return 0 }
    let encoded = message.encoded()
    precondition(encoded.descriptors == descriptors, "\(message) names \(encoded.descriptors) descriptors, decoded with \(descriptors)")
    precondition((try? RuntimeMessage.decode(encoded.bytes, descriptors: descriptors)) == message, "\(message) does not survive re-encoding")
    return 0
}
