// libFuzzer entry point for the property-list reader: any bytes must give a tree or an error, never a
// crash, a hang or unbounded memory. Built by Fuzz/run.sh together with Sources/PropertyLists.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let node = try? PropertyList.read(Data(bytes: bytes, count: count)) else { return 0 }
    // Walk the whole tree, as the linter does, so that every node read is touched.
    var pending = [node], visited = 0
    while let node = pending.popLast() {
        visited += 1
        switch node.value {
        case .array(let elements): pending += elements
        case .dictionary(let dictionary): pending += dictionary.entries.map(\.value)
        default: break
        }
    }
    precondition(visited <= PropertyListLimits.maximumNodes, "more nodes than the limit: \(visited)")
    return 0
}
