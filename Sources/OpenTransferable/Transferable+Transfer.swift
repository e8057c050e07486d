public import Foundation
public import OpenUniformTypeIdentifiers

// The iOS 18.2 / macOS 15.2 calls that move a value through its own representations, without an item provider.

extension Transferable {
    /// The types this type exports as, most preferred first, for receivers of `visibility`. An exporting condition
    /// needs a value to judge and so does not narrow this list.
    ///
    /// Stands in for CoreTransferable's `Transferable.exportedContentTypes(visibility:)`.
    public static func exportedContentTypes(visibility: TransferRepresentationVisibility = .all) -> [UTType] {
        var types: [UTType] = []
        for entry in transferEntries where entry.exporter != nil && entry.visibility.admits(visibility) {
            if let type = entry.exportedContentType, !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// The name a receiver writing this value to disk should give it, from the first representation this value
    /// exports through that names one; `nil` when none does.
    ///
    /// Stands in for CoreTransferable's `Transferable.suggestedFilename`.
    public var suggestedFilename: String? {
        Self.transferEntries.lazy.filter { $0.exports(self) }.compactMap { $0.suggestedFileName?(self) }.first
    }

    /// This value's bytes through the first representation it exports through that conforms to `contentType`
    /// (the first it exports through, when `nil`). A file representation is read whole.
    ///
    /// Stands in for CoreTransferable's `Transferable.exported(as:)`.
    public func exported(as contentType: UTType?) async throws -> Data {
        let entry = try exportEntry(for: contentType)
        switch try await entry.export(self) {
        case .data(let data): return data
        case .file(let sent): return try Data(contentsOf: sent.file)
        }
    }

    /// Writes this value into `destinationDirectory` through the first representation it exports through that
    /// conforms to `contentType` (the first it exports through, when `nil`), named by its suggested file name
    /// (else "Untitled") with the type's extension, and never over an existing file. The caller owns the file.
    ///
    /// Stands in for CoreTransferable's `Transferable.export(to:contentType:)`.
    public func export(to destinationDirectory: URL, contentType: UTType?) async throws -> URL {
        let entry = try exportEntry(for: contentType)
        let payload = try await entry.export(self)
        let type = entry.exportedContentType
        var name = entry.suggestedFileName?(self) ?? suggestedFilename ?? "Untitled"
        if case .file(let sent) = payload, entry.suggestedFileName?(self) == nil { name = sent.file.lastPathComponent }
        let destination = Self.freeName(name, type: type, in: destinationDirectory)
        switch payload {
        case .data(let data): try data.write(to: destination, options: .withoutOverwriting)
        case .file(let sent): try FileManager.default.copyItem(at: sent.file, to: destination)
        }
        return destination
    }

    /// Writes this value to a temporary file as `export(to:contentType:)` does, runs `fileHandler` on it and
    /// removes it.
    ///
    /// Stands in for CoreTransferable's `Transferable.withExportedFile(contentType:fileHandler:)`.
    public func withExportedFile<Result>(contentType: UTType?, fileHandler: (URL) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenSharing-export-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await fileHandler(try await export(to: directory, contentType: contentType))
    }

    /// Makes a value from `data` through the first representation importing a type that `contentType` conforms
    /// to; when `contentType` is `nil`, through each importing representation in turn until one succeeds.
    ///
    /// Stands in for CoreTransferable's `Transferable.init(importing:contentType:)` (data).
    public init(importing data: Data, contentType: UTType?) async throws {
        self = try await Self.importThrough(contentType) { try await $0.import(.data(data), as: Self.self) }
    }

    /// Makes a value from the file at `file` through the first representation importing a type that
    /// `contentType` (else the type its extension names) conforms to; when neither is known, through each
    /// importing representation in turn until one succeeds. A file representation gets the original file only
    /// when it asks to open in place; otherwise a copy that is removed afterwards.
    ///
    /// Stands in for CoreTransferable's `Transferable.init(importing:contentType:)` (file).
    public init(importing file: URL, contentType: UTType?) async throws {
        let type = contentType ?? UTType(filenameExtension: file.pathExtension)
        self = try await Self.importThrough(type) { entry in
            switch entry.form {
            case .data:
                return try await entry.import(.data(try Data(contentsOf: file)), as: Self.self)
            case .file where entry.attemptsOpeningInPlace:
                return try await entry.import(.file(ReceivedTransferredFile(file: file, isOriginalFile: true)), as: Self.self)
            case .file:
                return try await ReceivedTransferredFile.withKept({ try KeptFile(copying: file) }) { copy in
                    try await entry.import(.file(copy), as: Self.self)
                }
            }
        }
    }

    // MARK: Choosing a representation

    /// The first representation this value exports through whose type conforms to `contentType`.
    func exportEntry(for contentType: UTType?) throws -> TransferEntry {
        let exporting = Self.transferEntries.filter { $0.exports(self) }
        let match = exporting.first { entry in contentType.map { entry.exportedContentType?.conforms(to: $0) == true } ?? true }
        guard let match else {
            throw TransferFailure.noRepresentation(Self.self, exporting: true, contentType: contentType,
                                                   offered: exporting.compactMap(\.exportedContentType))
        }
        return match
    }

    /// Imports through the first importing representation whose type `contentType` conforms to, or, with no
    /// type, through each in turn until one succeeds (the last failure is thrown).
    private static func importThrough(_ contentType: UTType?, _ body: (TransferEntry) async throws -> Self) async throws -> Self {
        let importing = transferEntries.filter { $0.importer != nil && $0.importedContentType != nil }
        if let contentType {
            guard let entry = importing.first(where: { contentType.conforms(to: $0.importedContentType!) }) else {
                throw TransferFailure.noRepresentation(Self.self, exporting: false, contentType: contentType,
                                                       offered: importing.compactMap(\.importedContentType))
            }
            return try await body(entry)
        }
        var lastError: (any Error)?
        for entry in importing {
            do { return try await body(entry) } catch { lastError = error }
        }
        throw lastError ?? TransferFailure.noRepresentation(Self.self, exporting: false, contentType: nil, offered: [])
    }

    /// `name` in `directory` with `type`'s extension if it has none, numbered past any file already there.
    private static func freeName(_ name: String, type: UTType?, in directory: URL) -> URL {
        var base = name.replacingOccurrences(of: "/", with: "_")
        if base.isEmpty || base == "." || base == ".." { base = "Untitled" }
        var ext = (base as NSString).pathExtension
        if ext.isEmpty {
            ext = type?.preferredFilenameExtension ?? ""
        } else {
            base = (base as NSString).deletingPathExtension
        }
        let suffix = ext.isEmpty ? "" : ".\(ext)"
        var candidate = directory.appendingPathComponent(base + suffix)
        var number = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = directory.appendingPathComponent("\(base) \(number)\(suffix)")
            number += 1
        }
        return candidate
    }
}

extension TransferEntry {
    func export(_ item: any Sendable) async throws -> ExportedPayload {
        guard let exporter else {
            throw TransferFailure.noRepresentation(type(of: item), exporting: true, contentType: exportedContentType, offered: [])
        }
        return try await exporter(item)
    }

    func `import`<Item>(_ payload: ImportedPayload, as: Item.Type) async throws -> Item {
        guard let importer else { throw TransferFailure.noRepresentation(Item.self, exporting: false, contentType: importedContentType, offered: []) }
        return try cast(try await importer(payload), to: Item.self)
    }
}

extension TransferRepresentationVisibility {
    /// Whether a representation of this visibility reaches a receiver of `audience`.
    func admits(_ audience: TransferRepresentationVisibility) -> Bool {
        self == .all || self == audience || audience == .ownProcess
    }
}
