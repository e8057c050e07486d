public import Foundation

/// A clause of conditional compilation in an extension's own sources that iOS compiles and this build left
/// out (`#if os(iOS)`, `#if canImport(UIKit)`, the `#else` of `#if os(Linux)` …): code that runs on a device
/// and never here. The Appex plugin finds them when it bundles (with SwiftSyntax's evaluation of the conditions
/// for an iPhone and for this platform) and the bundle carries the list; every run reports them as the finding
/// `not-compiled-here`.
public struct LeftOutBlock: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The source file, relative to the package's directory.
    public var file: String
    /// The line of the clause's `#if`, `#elseif` or `#else`.
    public var line: Int
    /// The clause as written: `#if os(iOS)`, or `#else of #if os(Linux)`.
    public var condition: String

    public init(file: String, line: Int, condition: String) {
        self.file = file
        self.line = line
        self.condition = condition
    }

    /// `File.swift:12: #if os(iOS)`.
    public var description: String { "\(file):\(line): \(condition)" }

    /// The list's file in a bundle, beside the Info.plist.
    public static let fileName = "LeftOutCode.json"

    /// The list's format, the `format` member of its JSON.
    static let format = "opensharing-left-out/1"

    /// The most blocks a list holds, and the longest text of one.
    static let mostBlocks = 10_000, longestText = 4_096

    private struct List: Codable {
        var format: String
        var blocks: [LeftOutBlock]
    }

    /// The blocks a list's JSON names, each checked: a list is read as hostile, whoever wrote it.
    ///
    /// - Throws: a message naming what is wrong.
    public static func list(from data: Data) throws(LeftOutListError) -> [LeftOutBlock] {
        let list: List
        do {
            list = try JSONDecoder().decode(List.self, from: data)
        } catch {
            throw LeftOutListError("not a list of left-out code (JSON with format \"\(format)\" and blocks of file, line, condition)")
        }
        guard list.format == format else { throw LeftOutListError("its format is \"\(list.format)\"; this runtime reads \"\(format)\"") }
        guard list.blocks.count <= mostBlocks else { throw LeftOutListError("\(list.blocks.count) blocks; a list holds at most \(mostBlocks)") }
        for (index, block) in list.blocks.enumerated() {
            guard !block.file.isEmpty, block.file.utf8.count <= longestText, block.condition.utf8.count <= longestText, block.line >= 1 else {
                throw LeftOutListError("block \(index) has an empty or overlong file or condition, or a line below 1")
            }
        }
        return list.blocks
    }

    /// A list's JSON, as the bundle carries it.
    public static func encoded(_ blocks: [LeftOutBlock]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and arrays of them always encode.
        return (try? encoder.encode(List(format: format, blocks: blocks))) ?? Data()
    }
}

/// Why a list of left-out code was refused.
public struct LeftOutListError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
