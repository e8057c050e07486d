import Foundation
import PropertyLists
import SharingShim
import PackageSupport

extension ManifestLinter.Run {
    /// The keys the object an activation rule sees has (`{extensionItems: [{attachments: [{registeredTypeIdentifiers}]}]}`).
    static let objectKeys = ["extensionItems", "attachments", "registeredTypeIdentifiers"]

    /// Type identifiers activation rules use, for "did you mean".
    static let commonTypes = [
        "public.item", "public.content", "public.data", "public.directory", "public.folder", "public.text", "public.plain-text",
        "public.utf8-plain-text", "public.rtf", "public.html", "public.json", "public.image", "public.jpeg", "public.png",
        "public.heic", "public.tiff", "com.compuserve.gif", "com.microsoft.bmp", "org.webmproject.webp", "public.movie",
        "public.video", "public.audio", "public.mpeg-4", "com.apple.quicktime-movie", "public.url", "public.file-url",
        "com.adobe.pdf", "public.vcard", "com.apple.pkpass", "com.apple.property-list", "public.archive", "public.zip-archive",
        "com.apple.webarchive", "com.apple.live-photo",
    ]

    mutating func lintPredicateSemantics(_ predicate: PredicateNode, node: PropertyListNode, keyPath: String) {
        if case .constant(false, _) = predicate {
            return report(.error, keyPath, node.location, "FALSEPREDICATE: the extension is never offered")
        }
        var findings: [(Diagnostic.Severity, Int, String, String?)] = []
        Self.walk(predicate, bound: [], declared: manifest.declaredTypeIdentifiers) { severity, offset, message, fix in
            findings.append((severity, offset, message, fix))
        }
        for (severity, offset, message, fix) in findings {
            report(severity, keyPath, position(in: node, offset: offset), message, fix: fix)
        }
        if findings.contains(where: { $0.0 == .error }) { return }
        lintReach(predicate, node: node, keyPath: keyPath)
    }

    /// Whether the rule matches every typical share (even an empty one) or none: evaluated over the shares
    /// host apps make, plus one attachment of each type the predicate names.
    mutating func lintReach(_ predicate: PredicateNode, node: PropertyListNode, keyPath: String) {
        let evaluator = PredicateEvaluator.activation
        let samples = ActivationInput.samples(naming: Self.literals(in: predicate))
        let matched = samples.filter { evaluator.evaluate(predicate, on: $0.predicateValue) }
        if matched.count == samples.count {
            report(.error, keyPath, node.location,
                   "the rule matches every share, even one with nothing in it: it works as TRUEPREDICATE, which App Store review rejects")
        } else if matched.isEmpty {
            report(.warning, keyPath, node.location,
                   "the rule matches none of \(samples.count) typical shares (images, movies, URLs, text, files, one to eleven attachments): it may never match")
        }
    }

    /// Checks every comparison: type identifiers, lists compared without ANY, unbound variables, unknown keys.
    static func walk(_ predicate: PredicateNode, bound: Set<String>, declared: Set<String>,
                     _ report: (Diagnostic.Severity, Int, String, String?) -> Void) {
        switch predicate {
        case .constant: break
        case .not(let inner, _): walk(inner, bound: bound, declared: declared, report)
        case .and(let terms, _), .or(let terms, _): for term in terms { walk(term, bound: bound, declared: declared, report) }
        case .comparison(let comparison):
            walk(comparison.left, bound: bound, declared: declared, report)
            walk(comparison.right, bound: bound, declared: declared, report)
            if comparison.op == .conformsTo || comparison.op == .typeEquals, case .literal(.string(let type), let range) = comparison.right {
                lintType(type, offset: range.start, declared: declared, report)
            }
            if comparison.modifier == .direct, case .keyPath(_, let keys, _) = comparison.left,
               keys.last == "registeredTypeIdentifiers", comparison.op == .conformsTo || comparison.op == .equal || comparison.op == .typeEquals {
                report(.warning, comparison.range.start,
                       "registeredTypeIdentifiers is a list; comparing it as a whole is always false", "write ANY before it")
            }
        }
    }

    static func walk(_ expression: PredicateExpression, bound: Set<String>, declared: Set<String>,
                     _ report: (Diagnostic.Severity, Int, String, String?) -> Void) {
        switch expression {
        case .literal: break
        case .aggregate(let elements, _): for element in elements { walk(element, bound: bound, declared: declared, report) }
        case .arithmetic(_, let lhs, let rhs, _):
            walk(lhs, bound: bound, declared: declared, report)
            walk(rhs, bound: bound, declared: declared, report)
        case .negation(let operand, _): walk(operand, bound: bound, declared: declared, report)
        case .subquery(let collection, let variable, let predicate, _):
            walk(collection, bound: bound, declared: declared, report)
            walk(predicate, bound: bound.union([variable]), declared: declared, report)
        case .keyPath(let base, let keys, let range):
            switch base {
            case .variable(let name) where !bound.contains(name):
                report(.error, range.start, "$\(name) is not defined here: variables come from an enclosing SUBQUERY", nil)
            case .expression(let inner):
                walk(inner, bound: bound, declared: declared, report)
            default:
                break
            }
            for key in keys where !key.hasPrefix("@") && !objectKeys.contains(key) {
                let suggestion = objectKeys.min { editDistance(Array(key), Array($0)) < editDistance(Array(key), Array($1)) }
                let close = suggestion.map { editDistance(Array(key), Array($0)) <= 3 } ?? false
                report(.warning, range.start,
                       "\(key) is not a key of what the rule sees (extensionItems, attachments, registeredTypeIdentifiers)"
                       + (close ? "; did you mean \(suggestion!)?" : ""), close ? "rename it to \(suggestion!)" : nil)
            }
        }
    }

    static func lintType(_ type: String, offset: Int, declared: Set<String>, _ report: (Diagnostic.Severity, Int, String, String?) -> Void) {
        guard UTType(type) == nil, !declared.contains(type.lowercased()) else { return }
        let lowered = Array(type.lowercased())
        let best = commonTypes.min { editDistance(lowered, Array($0)) < editDistance(lowered, Array($1)) }
        if let best, editDistance(lowered, Array(best)) <= 2 {
            report(.warning, offset, "\(type) is not a known type identifier; did you mean \(best)?", "write \(best)")
        } else {
            report(.warning, offset, "\(type) is declared neither by the system nor by this Info.plist; the rule relies on the host app registering it", nil)
        }
    }

    /// The string literals a predicate compares types with.
    static func literals(in predicate: PredicateNode) -> [String] {
        switch predicate {
        case .constant: return []
        case .not(let inner, _): return literals(in: inner)
        case .and(let terms, _), .or(let terms, _): return terms.flatMap(literals(in:))
        case .comparison(let comparison):
            var found: [String] = []
            if case .literal(.string(let type), _) = comparison.right { found.append(type) }
            return found + literals(in: comparison.left) + literals(in: comparison.right)
        }
    }

    static func literals(in expression: PredicateExpression) -> [String] {
        switch expression {
        case .subquery(let collection, _, let predicate, _): literals(in: collection) + literals(in: predicate)
        case .keyPath(.expression(let inner), _, _): literals(in: inner)
        case .arithmetic(_, let lhs, let rhs, _): literals(in: lhs) + literals(in: rhs)
        case .aggregate(let elements, _): elements.flatMap(literals(in:))
        default: []
        }
    }

    /// Where the character at `offset` of a string value stands in the file: its line and column in an XML
    /// property list (entities and CDATA decoded on the way), the string's own position otherwise.
    func position(in node: PropertyListNode, offset: Int) -> PropertyListLocation {
        let bytes = [UInt8](manifest.source)
        guard var line = node.location.line, var column = node.location.column,
              var index = bytes[node.location.byteOffset...].firstIndex(of: UInt8(ascii: ">")) else { return node.location }
        column += index - node.location.byteOffset + 1
        index += 1
        var decoded = 0
        func advanceRaw() {
            if bytes[index] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        while decoded < offset, index < bytes.count, bytes[index] != UInt8(ascii: "<") || bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
            if bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
                for _ in 0..<9 { advanceRaw() }
                continue
            }
            if bytes[index] == UInt8(ascii: "&") {
                while index < bytes.count, bytes[index] != UInt8(ascii: ";") { advanceRaw() }
                if index < bytes.count { advanceRaw() }
            } else {
                advanceRaw()
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            }
            decoded += 1
        }
        return PropertyListLocation(byteOffset: index, line: line, column: column)
    }
}

extension ActivationInput {
    /// Shares host apps typically make, and one attachment of each type in `types`: what the linter tries a
    /// rule on to tell whether it matches everything or nothing.
    static func samples(naming types: [String]) -> [ActivationInput] {
        let singles = ["public.jpeg", "public.png", "public.heic", "public.mpeg-4", "com.apple.quicktime-movie", "public.url",
                       "public.plain-text", "public.utf8-plain-text", "com.adobe.pdf", "public.data", "public.vcard", "com.apple.pkpass",
                       "public.zip-archive", "public.folder"] + types
        var samples: [ActivationInput] = [ActivationInput(items: []), ActivationInput(items: [[]])]
        samples += singles.map { ActivationInput(items: [[[$0]]]) }
        samples += [
            ActivationInput(items: [[["public.file-url", "com.adobe.pdf"]]]),
            ActivationInput(items: [[["com.apple.property-list", "public.url"]]]),
            ActivationInput(items: [[["public.url"]], [["public.plain-text"]]]),
            ActivationInput(items: [[["public.url"], ["public.plain-text"]]]),
            ActivationInput(items: [[["public.jpeg"], ["public.plain-text"]]]),
        ]
        for count in [2, 5, 11] {
            samples.append(ActivationInput(items: [Array(repeating: ["public.jpeg"], count: count)]))
            samples.append(ActivationInput(items: [Array(repeating: ["com.adobe.pdf"], count: count)]))
        }
        return samples
    }
}
