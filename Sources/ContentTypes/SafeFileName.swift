#if canImport(Darwin)
package import UniformTypeIdentifiers
#else
package import OpenUniformTypeIdentifiers
#endif

/// The one naming rule for files named by a sender: a name from another app is data, not a path.
///
/// - Unicode NFC (names differing only in normalization are one name);
/// - only the last component of a path-like name (`../../x` is `x`), no control characters, no bidirectional overrides that disguise an
///   extension; no `.`/`..`, no leading dots (no hidden files), no trailing dots or spaces;
/// - reserved device names (`CON`, `NUL`, `COM1`, …) get a leading `_`, so the name is safe on every system;
/// - at most 255 UTF-8 bytes, cut at a character boundary and keeping the extension;
/// - the extension of the type actually received: kept when it is one of the type's, replaced when it is
///   some other type's, added when there is none or it is not an extension at all.
package struct SafeFileName: Sendable {
    /// What the type received says about extensions.
    package struct ExtensionRule: Sendable {
        /// The extension to add or substitute; `nil` leaves the name's extension alone.
        package var preferred: String?
        /// Whether an extension belongs to the type received (case-insensitive).
        package var accepts: @Sendable (String) -> Bool
        /// Whether an extension belongs to some declared type (so it is replaced rather than kept before a new one).
        package var isKnown: @Sendable (String) -> Bool

        package init(preferred: String?, accepts: @escaping @Sendable (String) -> Bool, isKnown: @escaping @Sendable (String) -> Bool) {
            self.preferred = preferred
            self.accepts = accepts
            self.isKnown = isKnown
        }

        /// No opinion about extensions: the name keeps whatever it has.
        package static let keep = ExtensionRule(preferred: nil, accepts: { _ in true }, isKnown: { _ in false })
    }

    package static let maximumBytes = 255
    private static let reservedNames = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// A safe name for a file, from the sender's name (possibly a path, possibly hostile) or, failing that,
    /// `fallback`.
    package static func make(from proposed: String?, fallback: String, extension rule: ExtensionRule) -> String {
        var (stem, ext) = split(clean(proposed ?? ""))
        if stem.isEmpty && ext.isEmpty { (stem, ext) = split(clean(fallback)) }
        if stem.isEmpty { stem = "file" }
        if let preferred = rule.preferred.map(clean), !preferred.isEmpty {
            if ext.isEmpty {
                ext = preferred
            } else if !rule.accepts(ext) {
                if !rule.isKnown(ext) { stem += "." + ext }
                ext = preferred
            }
        } else if !ext.isEmpty && !rule.accepts(ext) && rule.isKnown(ext) {
            // A type without an extension of its own: an extension that says it is something else goes.
            ext = ""
        }
        if reservedNames.contains(stem.uppercased()) { stem = "_" + stem }
        return limit(stem: stem, extension: ext)
    }

    /// The name's last path component with control and format characters, leading dots and trailing dots
    /// and spaces removed.
    static func clean(_ name: String) -> String {
        // Only the last component of anything path-like is a name.
        let lastComponent = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        // NFC from the standard library's own tables: Foundation's precomposedStringWithCanonicalMapping
        // loads ICU, 1 to 2 MB of memory an extension with a 24 MB budget should not spend on a name.
        let composed = String(decoding: lastComponent._nfcCodeUnits, as: UTF8.self)
        for scalar in composed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                continue
            default:
                scalars.append(scalar)
            }
        }
        var cleaned = String(scalars)
        cleaned = String(cleaned.drop(while: { $0 == "." || $0.isWhitespace }))
        while let last = cleaned.last, last == "." || last.isWhitespace { cleaned.removeLast() }
        return cleaned
    }

    /// Stem and extension; a name whose only dot is its first character has no extension.
    private static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let ext = String(name[name.index(after: dot)...])
        // A long or spaced "extension" is part of the name (`Report v1.0 final`).
        guard !ext.isEmpty, ext.utf8.count <= 16, !ext.contains(where: \.isWhitespace) else { return (name, "") }
        return (String(name[..<dot]), ext)
    }

    private static func limit(stem: String, extension ext: String) -> String {
        let suffix = ext.isEmpty ? "" : "." + String(ext.prefix(16))
        var stem = stem
        while stem.utf8.count + suffix.utf8.count > maximumBytes, !stem.isEmpty { stem.removeLast() }
        return stem + suffix
    }

    /// `name`, or `name 2`, `name 3`, … before the extension: the first that `isTaken` says is free.
    package static func unique(_ name: String, isTaken: (String) -> Bool) -> String {
        guard isTaken(name) else { return name }
        let (stem, ext) = split(name)
        var number = 2
        while true {
            let suffix = " \(number)" + (ext.isEmpty ? "" : "." + ext)
            var base = stem
            while base.utf8.count + suffix.utf8.count > maximumBytes, !base.isEmpty { base.removeLast() }
            let candidate = base + suffix
            if !isTaken(candidate) { return candidate }
            number += 1
        }
    }
}

extension SafeFileName.ExtensionRule {
    /// The rule for a file of a type: its preferred extension (or, for a type without one such as
    /// `public.utf8-plain-text`, that of its most specific supertype with one: `txt`); any extension of a
    /// type conforming to it is accepted; an extension some declared type claims is known.
    package init(for type: UTType) {
        let inherited = type.supertypes.filter { $0.preferredFilenameExtension != nil }
            .max { ($0.supertypes.count, $1.identifier) < ($1.supertypes.count, $0.identifier) }
        self.init(
            preferred: type.preferredFilenameExtension ?? inherited?.preferredFilenameExtension,
            accepts: { UTType(filenameExtension: $0, conformingTo: type)?.isDeclared == true || type.tags[.filenameExtension]?.contains($0.lowercased()) == true },
            isKnown: { UTType.types(tag: $0, tagClass: .filenameExtension, conformingTo: nil).contains(where: \.isDeclared) }
        )
    }
}
