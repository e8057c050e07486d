import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// A clause of `#if` that iOS compiles and this platform does not: the code in it never runs here.
struct LeftOutBlock: Codable, Equatable {
    /// The source file, relative to the package's directory.
    var file: String
    /// The line of the clause's `#if`, `#elseif` or `#else`.
    var line: Int
    /// The clause as written: `#if os(iOS)`, `#elseif canImport(UIKit)`, or `#else` with the `#if` it ends.
    var condition: String
}

/// Finds the outermost clauses of conditional compilation in a source file that a device's build compiles and
/// this platform's does not. A clause iOS does not compile is not looked into (it is not the device's code); one
/// both compile is looked into for the same difference further in. A clause holding only imports is not
/// reported: an import runs nothing.
final class LeftOutFinder: SyntaxVisitor {
    private let file: String
    private let lines: SourceLocationConverter
    private(set) var found: [LeftOutBlock] = []

    init(file: String, source: SourceFileSyntax) {
        self.file = file
        lines = SourceLocationConverter(fileName: file, tree: source)
        super.init(viewMode: .sourceAccurate)
    }

    /// The clauses of `source` left out here, in the order they appear.
    static func find(in source: String, file: String) -> [LeftOutBlock] {
        let tree = Parser.parse(source: source)
        let finder = LeftOutFinder(file: file, source: tree)
        finder.walk(tree)
        return finder.found
    }

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let onDevice = node.activeClause(in: TargetPlatform.iOSDevice).clause, let elements = onDevice.elements else {
            return .skipChildren
        }
        let here = node.activeClause(in: TargetPlatform.here).clause
        if here?.id == onDevice.id {
            walk(elements)
        } else if runsCode(elements) {
            found.append(LeftOutBlock(file: file, line: lines.location(for: onDevice.poundKeyword.positionAfterSkippingLeadingTrivia).line,
                                      condition: written(onDevice, of: node)))
        }
        return .skipChildren
    }

    /// Whether a clause holds anything but imports (and clauses of imports).
    private func runsCode(_ elements: IfConfigClauseSyntax.Elements) -> Bool {
        let items: [Syntax]
        switch elements {
        case .statements(let statements): items = statements.map { Syntax($0.item) }
        case .decls(let members): items = members.map { Syntax($0.decl) }
        default: return !elements.trimmedDescription.isEmpty
        }
        return items.contains { item in
            if item.is(ImportDeclSyntax.self) { return false }
            if let nested = item.as(IfConfigDeclSyntax.self) {
                return nested.clauses.contains { clause in clause.elements.map(runsCode) ?? false }
            }
            return true
        }
    }

    private func written(_ clause: IfConfigClauseSyntax, of block: IfConfigDeclSyntax) -> String {
        if let condition = clause.condition { return "\(clause.poundKeyword.text) \(condition.trimmedDescription)" }
        let opening = block.clauses.first?.condition?.trimmedDescription ?? ""
        return "#else of #if \(opening)"
    }
}
