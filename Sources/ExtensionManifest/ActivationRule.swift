import Foundation
import SharingShim

/// An `NSExtensionActivationRule`: a predicate string, or the dictionary of counts Apple translates into one.
public enum ActivationRule: Sendable, Hashable {
    case predicate(String)
    case dictionary(ActivationDictionary)

    /// The rule as a predicate: the string itself, or the dictionary's translation.
    public var predicateSource: String {
        switch self {
        case .predicate(let source): source
        case .dictionary(let dictionary): dictionary.predicateSource
        }
    }

    /// Whether the rule accepts what a host shares, and if not, why: the clauses that fail, and for the
    /// SUBQUERYs among them, the items and attachments that do not satisfy them.
    ///
    /// - Throws: `PredicateSyntaxError` for a predicate string that does not parse.
    public func evaluate(_ input: ActivationInput) throws(PredicateSyntaxError) -> ActivationResult {
        let (predicate, text) = try ParsedRules.shared.predicate(for: self)
        let evaluator = PredicateEvaluator.activation
        let object = input.predicateValue
        let matches = evaluator.evaluate(predicate, on: object)
        var reasons: [String] = []
        if !matches {
            // A dictionary rule is explained in its own terms, kinds and counts, not in its translation's.
            if case .dictionary(let dictionary) = self { reasons = dictionary.refusals(input) }
            else { reasons = evaluator.explain(predicate, on: object) }
        }
        return ActivationResult(matches: matches, reasons: reasons, predicate: text)
    }
}

/// Rules parsed before: a host asks the same few rules about share after share, and parsing one (a
/// dictionary's translation runs to a kilobyte) costs more than evaluating it.
// @unchecked: its mutable state is only touched under its lock.
private final class ParsedRules: @unchecked Sendable {
    static let shared = ParsedRules()
    /// Enough for every extension on a device; past it the cache starts over.
    private static let capacity = 512

    private let lock = NSLock()
    private var predicates: [ActivationRule: (PredicateNode, String)] = [:]

    /// The rule's predicate, and its text on one line.
    func predicate(for rule: ActivationRule) throws(PredicateSyntaxError) -> (PredicateNode, String) {
        if let cached = lock.withLock({ predicates[rule] }) { return cached }
        let predicate = try PredicateParser.parse(rule.predicateSource)
        let parsed = (predicate, predicate.description)
        lock.withLock {
            if predicates.count >= Self.capacity { predicates.removeAll(keepingCapacity: true) }
            predicates[rule] = parsed
        }
        return parsed
    }
}

/// Whether a rule accepts a share, and the reasons when it does not.
public struct ActivationResult: Sendable, Equatable {
    public var matches: Bool
    public var reasons: [String]
    /// The rule as the predicate evaluated, written out on one line (a dictionary rule translated).
    public var predicate: String
}

extension PredicateEvaluator {
    /// The evaluator activation rules use: `UTI-CONFORMS-TO` answered by `UTType`, an identifier nobody
    /// declares conforming only to itself.
    static let activation = PredicateEvaluator { type, supertype in
        let subject = UTType(type) ?? UTType(importedAs: type)
        return subject.conforms(to: UTType(supertype) ?? UTType(importedAs: supertype))
    }
}

extension ExtensionManifest {
    /// Whether the system would offer the extension for a share, and if not, why; as on a device, the types
    /// its Info.plist declares are registered first, so that its rule can name them. An extension without a
    /// rule is never offered.
    ///
    /// - Throws: `PredicateSyntaxError` for a predicate string that does not parse.
    public func activation(for input: ActivationInput) throws(PredicateSyntaxError) -> ActivationResult {
        #if canImport(OpenUniformTypeIdentifiers)
        if let path, let data = FileManager.default.contents(atPath: path),
           let declarations = try? UTTypeDeclaration.declarations(inInfoPlist: data) {
            UTType.registerDeclarations(declarations)
        }
        #endif
        guard let rule = activationRule else {
            return ActivationResult(matches: false, reasons: ["no NSExtensionActivationRule: the extension is never offered"], predicate: "")
        }
        return try rule.evaluate(input)
    }
}
