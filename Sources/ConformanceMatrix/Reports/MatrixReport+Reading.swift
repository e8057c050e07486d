public import Foundation
import SharingSystem
import ExtensionRuntime
import HostProfiles
import OpenExtensionUI

extension MatrixReport {
    /// The largest report read (a matrix of every example, host and fault writes about 3 MB).
    static let largestReport = 256 << 20

    /// Reads a report another run, or another machine, wrote (`--retry`, `--merge`) — as data, never as
    /// commands: it must be this schema's JSON with no field the schema lacks; every cell's host, device, user
    /// and faults must be known; every cell must be one that can run and must name only the bundles, hosts or
    /// payloads, devices, users, faults and time limit its run information lists. Each cell's reproduce
    /// command is rendered again from the cell, so a report says only what its cells say.
    ///
    /// - Throws: `ReportError` naming the file, the field (`cells[3].cell.faults[0]`) and what is wrong.
    public static func read(from url: URL) throws(ReportError) -> MatrixReport {
        let file = url.path
        var report = try ReportError.readStrictly(MatrixReport.self, from: url, limit: largestReport, schema: \.schema, named: schemaName,
                                                  writtenBy: "sharing test")
        try report.checkCells(file: file)
        for index in report.cells.indices { report.cells[index].reproduce = report.cells[index].cell.reproduce() }
        return report
    }

    /// Checks each cell against itself and against the run information.
    private func checkCells(file: String) throws(ReportError) {
        let info = runInfo
        let bundles = Set(info.bundles.map(\.path))
        for (index, result) in cells.enumerated() {
            let cell = result.cell
            func refuse(_ field: String, _ problem: String) -> ReportError {
                ReportError(.inconsistent, file: file, field: "cells[\(index)].cell.\(field)", problem)
            }
            do {
                try cell.validate()
            } catch {
                throw ReportError(.inconsistent, file: file, field: "cells[\(index)].cell" + (error.field.map { ".\($0)" } ?? ""), error.message)
            }
            guard bundles.contains(cell.bundle) else { throw refuse("bundle", "\(cell.bundle) is not among the run's bundles") }
            if let host = cell.host, !info.hosts.contains(host) { throw refuse("host", "\(host.name) is not among the run's hosts") }
            if let fixture = cell.fixture, !(info.shares ?? []).contains(fixture) {
                throw refuse("fixture", "\(fixture) is not among the run's share fixtures")
            }
            if cell.fixture != nil && cell.faults.contains(where: \.isLargeShare) { throw refuse("faults", "a share fixture takes no large-share fault") }
            if let payload = cell.payloads.first(where: { !info.payloads.contains($0) }) { throw refuse("payloads", "\(payload) is not among the run's payloads") }
            if cell.payloads.count > 1 { throw refuse("payloads", "a matrix cell is sent one payload") }
            if !info.devices.contains(cell.device) { throw refuse("device", "\(cell.device?.name ?? "none") is not among the run's devices") }
            if cell.kind == .share && !info.users.contains(cell.user) { throw refuse("user", "\(cell.user.rawValue) is not among the run's users") }
            if let fault = cell.faults.first(where: { !info.faults.contains($0) }) { throw refuse("faults", "\(fault) is not among the run's faults") }
            if cell.faults.count > 1 { throw refuse("faults", "a matrix cell has one fault") }
            if cell.timeout != info.timeout { throw refuse("timeout", "\(cell.timeout.map { "\($0)" } ?? "none") is not the run's (\(info.timeout.map { "\($0)" } ?? "none"))") }
            // A cell writes only in the run's work directory, in the folder the planner gave it.
            for (field, path, name) in [("appGroup", cell.appGroup, "groups"), ("dataStore", cell.dataStore, "store")] {
                guard let path else { continue }
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                let cells = folder.deletingLastPathComponent()
                guard URL(fileURLWithPath: path).lastPathComponent == name, Int(folder.lastPathComponent) != nil,
                      cells.deletingLastPathComponent().path == URL(fileURLWithPath: info.work).path,
                      cells.lastPathComponent.hasPrefix("cells-"), Int32(cells.lastPathComponent.dropFirst("cells-".count)) != nil else {
                    throw refuse(field, "\(path) is not a cell's folder of the run's work directory (\(info.work)/cells-PID/N/\(name))")
                }
            }
            if cell.memoryLimit != nil || cell.diskLimit != nil || cell.ignoresActivation || cell.allowsFiltering {
                throw refuse("memoryLimit", "the matrix sets no limit, activation or entitlement of its own per cell")
            }
        }
    }
}

/// Why a report, or expectations, another run wrote cannot be used: what is wrong (`code`), the file, the field
/// (`cells[3].cell.faults[0]`), and the problem in words.
extension ReportError {
    /// Reads a report file `command --json` wrote, as data: at most `limit` bytes, JSON of `T` whose `schema` is
    /// `schemaName`, with no field `T` lacks. What it says is the caller's to check.
    ///
    /// - Throws: `ReportError` naming the file, the field and what is wrong.
    static func readStrictly<T: Codable>(_ type: T.Type, from url: URL, limit: Int, schema: (T) -> String, named schemaName: String,
                                         writtenBy command: String) throws(ReportError) -> T {
        let file = url.path
        let data: Data
        do {
            data = try OpenFile.reading(url).readAll(limit: limit)
        } catch {
            throw ReportError(.unreadable, file: file, field: nil, "cannot be read: \(error)")
        }
        let report: T
        do {
            report = try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw ReportError(.notAReport, file: file, field: nil, "not a report of \(command) --json (not JSON)")
        } catch let error as DecodingError {
            throw ReportError(error, file: file)
        } catch {
            throw ReportError(.notAReport, file: file, field: nil, "not a report of \(command) --json: \(error)")
        }
        guard schema(report) == schemaName else {
            throw ReportError(.wrongSchema, file: file, field: "schema", "is '\(schema(report))', not \(schemaName)")
        }
        if let unknown = try? UnknownFields.first(in: data, comparedWith: JSONEncoder().encode(report)) {
            throw ReportError(.unknownField, file: file, field: unknown, "is not a field of a report of \(command) (\(schemaName))")
        }
        return report
    }
}

public struct ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The file cannot be read.
        case unreadable
        /// Not JSON, or JSON of another shape.
        case notAReport
        /// Another schema or version.
        case wrongSchema
        /// A field the schema does not have.
        case unknownField
        /// A value of the wrong kind, or not in its vocabulary (an unknown host, device, user, fault or status).
        case badValue
        /// Cells that disagree with themselves, with the run information, or with what the run would plan.
        case inconsistent
    }

    public var code: Code
    public var file: String
    public var field: String?
    public var problem: String

    public init(_ code: Code, file: String, field: String?, _ problem: String) {
        self.code = code
        self.file = file
        self.field = field
        self.problem = problem
    }

    /// The error of a decoding failure, its coding path as the field.
    init(_ error: DecodingError, file: String) {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let base = path(context)
            self.init(.notAReport, file: file, field: base.isEmpty ? key.stringValue : "\(base).\(key.stringValue)", "is missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self.init(.badValue, file: file, field: path(context), context.debugDescription)
        case .dataCorrupted(let context):
            self.init(.badValue, file: file, field: path(context), context.debugDescription)
        @unknown default:
            self.init(.notAReport, file: file, field: nil, "\(error)")
        }
    }

    public var description: String {
        "\(file): " + (field.map { "\($0): " } ?? "") + problem
    }
}

/// Fields a JSON document holds that a value decoded from it and encoded again does not: what the decoder
/// ignored. A field given as `null` is taken as absent.
enum UnknownFields {
    /// The path of the first such field (`cells[2].arguments`), or `nil`.
    static func first(in given: Data, comparedWith known: Data) throws -> String? {
        let a = try JSONSerialization.jsonObject(with: given, options: [.fragmentsAllowed])
        let b = try JSONSerialization.jsonObject(with: known, options: [.fragmentsAllowed])
        return first(a, b, path: "")
    }

    private static func first(_ given: Any, _ known: Any, path: String) -> String? {
        switch (given, known) {
        case let (given as [String: Any], known as [String: Any]):
            for key in given.keys.sorted() {
                let field = path.isEmpty ? key : "\(path).\(key)"
                guard let value = given[key], !(value is NSNull) else { continue }
                guard let counterpart = known[key] else { return field }
                if let found = first(value, counterpart, path: field) { return found }
            }
            return nil
        case let (given as [Any], known as [Any]):
            for (index, (value, counterpart)) in zip(given, known).enumerated() {
                if let found = first(value, counterpart, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
