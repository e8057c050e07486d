import ArgumentParser
import Foundation
import SharingShim

/// `sharing types`: what the type system says about identifiers, filename extensions, MIME types and files.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Show a type: identifier, conformance, tags, declared or dynamic.",
        discussion: """
            A query is a type identifier (public.heic), a filename extension with its dot (.pdf) or a MIME \
            type (image/png). A bare word that is no identifier is read as a filename extension.
            """
    )

    @Argument(help: "Type identifiers, .extensions or MIME types.")
    var queries: [String] = []

    @Option(name: .customLong("file"), help: ArgumentHelp("The type of a file, by its extension.", valueName: "path"))
    var files: [String] = []

    @Option(name: .customLong("declarations"), help: ArgumentHelp("An Info.plist whose UTExportedTypeDeclarations and UTImportedTypeDeclarations to know first.", valueName: "plist"))
    var declarationFiles: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if queries.isEmpty && files.isEmpty { throw ValidationError("Give at least one type, extension, MIME type or --file.") }
    }

    func run() throws {
        for path in files where !FileManager.default.fileExists(atPath: path) { throw BadInput("--file \(path): no such file or directory") }
        try registerDeclarations()
        var answers: [TypeAnswer] = []
        var failed = false
        for query in queries {
            do { answers.append(try TypeAnswer(query: query)) } catch { Output.error("\(error)"); failed = true }
        }
        for path in files {
            answers.append(TypeAnswer(file: path))
        }
        if json {
            try Output.json(answers)
        } else {
            Output.line(answers.map(\.text).joined(separator: "\n"))
        }
        if failed { throw ExitCode.failure }
    }

    private func registerDeclarations() throws {
        for path in declarationFiles {
            #if canImport(OpenUniformTypeIdentifiers)
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw BadInput("--declarations: cannot read \(path): \(error.localizedDescription)")
            }
            do {
                UTType.registerDeclarations(try UTTypeDeclaration.declarations(inInfoPlist: data))
            } catch {
                throw BadInput("--declarations \(path): \(error)")
            }
            #else
            throw BadInput("--declarations is for systems without UniformTypeIdentifiers; here the system registers declarations")
            #endif
        }
    }
}

/// Why a query names no type.
struct TypeQueryError: Error, CustomStringConvertible {
    var description: String
}

/// One answered query, as text and as JSON.
struct TypeAnswer: Encodable {
    var query: String
    var identifier: String
    var description: String?
    var kind: String
    var conformsTo: [String]
    var tags: [String: [String]]
    /// Other declared types that claim the same tag, when the query was a tag.
    var alsoClaimedBy: [String]

    init(query: String) throws {
        if query.hasPrefix(".") {
            try self.init(query: query, tag: String(query.dropFirst()), tagClass: .filenameExtension)
        } else if query.contains("/") {
            try self.init(query: query, tag: query, tagClass: .mimeType)
        } else if let type = UTType(query) {
            self.init(query: query, type: type)
        } else if !query.contains(".") && !query.isEmpty {
            try self.init(query: query, tag: query, tagClass: .filenameExtension)
        } else {
            throw TypeQueryError(description: "'\(query)' is not a type identifier known here (write a filename extension as .ext, a MIME type as type/subtype)")
        }
    }

    init(file path: String) {
        let values = try? URL(fileURLWithPath: path).resourceValues(forKeys: [.contentTypeKey])
        self.init(query: path, type: values?.contentType ?? .data)
    }

    private init(query: String, tag: String, tagClass: UTTagClass) throws {
        guard let type = UTType(tag: tag, tagClass: tagClass, conformingTo: tagClass == .filenameExtension ? .data : nil) else {
            throw TypeQueryError(description: "'\(query)' is empty")
        }
        self.init(query: query, type: type)
        alsoClaimedBy = UTType.types(tag: tag, tagClass: tagClass, conformingTo: nil)
            .filter { $0.isDeclared && $0 != type }.map(\.identifier)
    }

    private init(query: String, type: UTType) {
        self.query = query
        identifier = type.identifier
        description = type.localizedDescription
        kind = type.isSystem ? "system" : type.isDeclared ? "declared" : type.isDynamic ? "dynamic" : "undeclared"
        conformsTo = type.ancestors.map(\.identifier)
        tags = Dictionary(uniqueKeysWithValues: type.tags.map { ($0.key.rawValue, $0.value) })
        alsoClaimedBy = []
    }

    var text: String {
        var lines = [identifier + (description.map { "  \($0)" } ?? "")]
        func row(_ label: String, _ value: String) { lines.append("  " + (label + ":").padding(toLength: 14, withPad: " ", startingAt: 0) + value) }
        if query != identifier { row("query", query) }
        row("kind", kind)
        row("conforms to", conformsTo.isEmpty ? "(nothing)" : conformsTo.joined(separator: ", "))
        if let extensions = tags[UTTagClass.filenameExtension.rawValue] { row("extensions", extensions.joined(separator: ", ")) }
        if let mimeTypes = tags[UTTagClass.mimeType.rawValue] { row("MIME types", mimeTypes.joined(separator: ", ")) }
        for (tagClass, values) in tags.sorted(by: { $0.key < $1.key })
        where tagClass != UTTagClass.filenameExtension.rawValue && tagClass != UTTagClass.mimeType.rawValue {
            row(tagClass, values.joined(separator: ", "))
        }
        if !alsoClaimedBy.isEmpty { row("also claimed", alsoClaimedBy.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
