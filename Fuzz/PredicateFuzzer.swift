// libFuzzer entry point for the predicate language: any string must parse or give a syntax error, never
// crash or hang; what parses must be written back to a string that parses to the same text, and must
// evaluate and explain itself over a share. Built by Fuzz/run.sh together with the predicate sources.
import Foundation

/// A share with an image, a web URL and text, in two items, as activation rules see one. Made afresh for
/// each input, so that LeakSanitizer has no long-lived global to mistake for a leak.
func makeShare() -> PredicateValue {
    .object(label: "the share", fields: ["extensionItems": .array([
        .object(label: "item 1", fields: ["attachments": .array([
            .object(label: "attachment 1", fields: ["registeredTypeIdentifiers": .array([.string("public.jpeg"), .string("public.file-url")])]),
            .object(label: "attachment 2", fields: ["registeredTypeIdentifiers": .array([.string("public.url")])]),
        ])]),
        .object(label: "item 2", fields: ["attachments": .array([
            .object(label: "attachment 1", fields: ["registeredTypeIdentifiers": .array([.string("public.plain-text")])]),
        ])]),
    ])])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let predicate = try? PredicateParser.parse(source) else { return 0 }
    let share = makeShare()
    let evaluator = PredicateEvaluator { type, supertype in type == supertype || supertype == "public.item" }
    let written = predicate.description
    guard let reread = try? PredicateParser.parse(written) else { fatalError("\(written) does not parse again") }
    precondition(reread.description == written, "\(written) is written back as \(reread.description)")
    let holds = evaluator.evaluate(predicate, on: share)
    precondition(holds == evaluator.evaluate(reread, on: share), "\(written) answers differently once written back")
    precondition(evaluator.explain(predicate, on: share).isEmpty == holds, "\(written): explained when it holds, or not when it fails")
    return 0
}
