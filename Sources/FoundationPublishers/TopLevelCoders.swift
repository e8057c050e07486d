public import Foundation
public import OpenCombine

// Foundation's coders as Combine's top-level coders, as Apple's Combine declares them: what `encode(encoder:)`,
// `decode(type:decoder:)` and CoreTransferable's `CodableRepresentation` take.

extension JSONEncoder: @retroactive TopLevelEncoder {}
extension JSONDecoder: @retroactive TopLevelDecoder {}
extension PropertyListEncoder: @retroactive TopLevelEncoder {}
extension PropertyListDecoder: @retroactive TopLevelDecoder {}
