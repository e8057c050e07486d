public import Foundation
import PropertyLists
import SharingShim
import PackageSupport

/// Checks an extension's Info.plist against Apple's App Extension Keys: what is missing, misplaced,
/// misspelled, of the wrong type, meant for another extension point or platform, and activation rules that
/// do not parse, name unknown types, or match everything or nothing.
public enum ManifestLinter {
    /// The findings for a manifest, most severe first, then in document order.
    public static func lint(_ manifest: ExtensionManifest) -> [Diagnostic] {
        var linter = Run(manifest: manifest)
        linter.lintAll()
        return linter.diagnostics.enumerated()
            .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
    }

    /// Reads and lints a file; a file that does not read is one error.
    public static func lint(fileAt url: URL) -> (path: String, manifest: ExtensionManifest?, diagnostics: [Diagnostic]) {
        do {
            let manifest = try ExtensionManifest.read(contentsOf: url)
            return (manifest.path ?? url.relativePath, manifest, lint(manifest))
        } catch {
            return (error.path ?? url.relativePath, nil,
                    [Diagnostic(severity: .error, keyPath: "", line: error.line, column: error.column, message: error.message)])
        }
    }

    /// Whether a value is an Xcode build-setting reference or install-time placeholder (`$(PRODUCT_NAME)`,
    /// `${VERSION}`, `__BUNDLE_IDENTIFIER__`), whose real value is not known until the build.
    static func isBuildSetting(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${") || (text.hasPrefix("__") && text.hasSuffix("__") && text.count > 4)
    }

    struct Run {
        let manifest: ExtensionManifest
        var diagnostics: [Diagnostic] = []

        init(manifest: ExtensionManifest) {
            self.manifest = manifest
        }

        mutating func report(_ severity: Diagnostic.Severity, _ keyPath: String, _ location: PropertyListLocation?,
                             _ message: String, fix: String? = nil) {
            diagnostics.append(Diagnostic(severity: severity, keyPath: keyPath, line: location?.line, column: location?.column,
                                          byteOffset: location?.line == nil ? location?.byteOffset : nil, message: message, fix: fix))
        }

        mutating func lintAll() {
            guard let top = manifest.root.dictionary else {
                return report(.error, "", manifest.root.location, "the Info.plist's root is \(Self.article(manifest.root.kindName)), not a dict")
            }
            lintEntries(top, level: .infoPlist, path: "")
            guard let extensionNode = top["NSExtension"] else {
                return report(.error, "NSExtension", manifest.root.location,
                              "no NSExtension dictionary: this is not an app extension's Info.plist")
            }
            guard let extensionDictionary = extensionNode.dictionary else {
                return report(.error, "NSExtension", extensionNode.location, "NSExtension is \(Self.article(extensionNode.kindName)), not a dict")
            }
            if let packageType = top["CFBundlePackageType"]?.string, !ManifestLinter.isBuildSetting(packageType), packageType != "XPC!" {
                report(.warning, "CFBundlePackageType", top["CFBundlePackageType"]?.location,
                       "CFBundlePackageType is \"\(packageType)\"; app extensions are \"XPC!\" bundles", fix: "set it to XPC!")
            }
            lintExtension(extensionDictionary)
        }

        // MARK: Keys, levels, types

        mutating func lintEntries(_ dictionary: PropertyListDictionary, level: KeyLevel, path: String) {
            var seen: Set<String> = []
            for entry in dictionary.entries {
                let keyPath = path.isEmpty ? entry.key : "\(path).\(entry.key)"
                if !seen.insert(entry.key).inserted {
                    report(.warning, keyPath, entry.keyLocation, "\(entry.key) appears twice; the last one counts")
                }
                if let known = ManifestKey.byName[entry.key] {
                    if known.level == level {
                        lintValue(entry.value, for: known, keyPath: keyPath)
                        lintApplicability(known, keyPath: keyPath, location: entry.keyLocation)
                    } else if known.commonlyAt == level {
                        lintValue(entry.value, for: known, keyPath: keyPath)
                        report(.note, keyPath, entry.keyLocation,
                               "Apple's App Extension Keys reference places \(entry.key) in \(known.level.rawValue); shipping extensions "
                               + "commonly put it in \(level.rawValue), as here. Which the system reads is not documented; OpenSharing reads both, this one first")
                    } else {
                        lintMisplaced(entry, known: known, level: level, keyPath: keyPath)
                    }
                } else if level != .infoPlist {
                    lintUnknown(entry, level: level, keyPath: keyPath)
                }
            }
        }

        mutating func lintMisplaced(_ entry: PropertyListDictionary.Entry, known: ManifestKey, level: KeyLevel, keyPath: String) {
            let ignored = known.level == .infoPlist || (known.level == .activationDictionary && level == .attributes)
            report(ignored ? .warning : .error, keyPath, entry.keyLocation,
                   "\(entry.key) belongs in \(known.level.rawValue), not in \(level.rawValue); here the system ignores it",
                   fix: "move it into \(known.level.rawValue)")
            // Its value is still checked, so one fix does not reveal another mistake.
            lintValue(entry.value, for: known, keyPath: keyPath)
        }

        mutating func lintUnknown(_ entry: PropertyListDictionary.Entry, level: KeyLevel, keyPath: String) {
            let candidates = ManifestKey.all.filter { $0.level != .infoPlist }
            if let closest = ManifestKey.closest(to: entry.key, among: candidates) {
                report(level == .activationDictionary ? .error : .warning, keyPath, entry.keyLocation,
                       "unknown key \(entry.key): did you mean \(closest.name)? As written the system ignores it",
                       fix: "rename it to \(closest.name)")
            } else {
                report(.warning, keyPath, entry.keyLocation, "\(entry.key) is not a key of \(level.rawValue)")
            }
        }

        mutating func lintValue(_ node: PropertyListNode, for key: ManifestKey, keyPath: String) {
            if let text = node.string, ManifestLinter.isBuildSetting(text), key.type != .string { return }
            let fits: Bool
            switch (key.type, node.value) {
            case (.string, .string), (.boolean, .boolean), (.integer, .integer), (.dictionary, .dictionary), (.array, .array),
                 (.number, .integer), (.number, .real), (.stringOrDictionary, .string), (.stringOrDictionary, .dictionary),
                 (.stringOrArray, .string), (.stringOrArray, .array):
                fits = true
            default:
                fits = false
            }
            if !fits {
                var message = "\(key.name) is \(Self.article(node.kindName)); it takes \(Self.article(key.type.rawValue))"
                if key.type == .boolean, case .integer(let value) = node.value {
                    message += " (write <\(value == 0 ? "false" : "true")/>; App Store validation rejects an integer here)"
                }
                if key.type == .integer, case .boolean(let value) = node.value {
                    message += " (a boolean reads as \(value ? 1 : 0) here)"
                }
                report(.error, keyPath, node.location, message)
            }
        }

        static func article(_ noun: String) -> String {
            ("aeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun
        }

        mutating func lintApplicability(_ key: ManifestKey, keyPath: String, location: PropertyListLocation) {
            if let points = key.extensionPoints, let point = manifest.extensionPointIdentifier,
               ExtensionPoint.named(point) != nil, !points.contains(point) {
                let names = points.compactMap { ExtensionPoint.named($0)?.name }.sorted().joined(separator: ", ")
                report(.warning, keyPath, location, "\(key.name) applies to \(names) extensions, not to \(ExtensionPoint.named(point)!.name)")
            }
            if let platforms = key.platforms, let platform = manifest.platform, !platforms.contains(platform) {
                report(.warning, keyPath, location,
                       "\(key.name) is a \(platforms.map(\.rawValue).sorted().joined(separator: "/")) key; this Info.plist is for \(platform.rawValue), which ignores it")
            }
        }

        // MARK: NSExtension

        mutating func lintExtension(_ dictionary: PropertyListDictionary) {
            lintEntries(dictionary, level: .extensionDictionary, path: "NSExtension")
            let location = manifest.root.dictionary?.entries.first { $0.key == "NSExtension" }?.keyLocation
            guard let pointNode = dictionary["NSExtensionPointIdentifier"] else {
                return report(.error, "NSExtension.NSExtensionPointIdentifier", location,
                              "no NSExtensionPointIdentifier: the system cannot tell what kind of extension this is",
                              fix: "add NSExtensionPointIdentifier, such as com.apple.share-services")
            }
            guard let identifier = pointNode.string else { return }
            let point = ExtensionPoint.named(identifier)
            if point == nil && !ManifestLinter.isBuildSetting(identifier) {
                report(.warning, "NSExtension.NSExtensionPointIdentifier", pointNode.location,
                       "unknown extension point \(identifier)"
                       + (closestPoint(identifier).map { "; did you mean \($0)?" } ?? ""))
            }
            if let point { lintEntryPoint(dictionary, point: point, location: location) }
            let attributesNode = dictionary["NSExtensionAttributes"]
            if let attributes = attributesNode?.dictionary {
                lintEntries(attributes, level: .attributes, path: "NSExtension.NSExtensionAttributes")
            }
            if point?.usesActivationRule == true {
                lintActivationRule(attributesNode?.dictionary, extensionLocation: location)
            }
        }

        func closestPoint(_ identifier: String) -> String? {
            let lowered = Array(identifier.lowercased())
            let best = ExtensionPoint.all.min { editDistance(lowered, Array($0.identifier.lowercased())) < editDistance(lowered, Array($1.identifier.lowercased())) }
            guard let best, editDistance(lowered, Array(best.identifier.lowercased())) <= 3 else { return nil }
            return best.identifier
        }

        mutating func lintEntryPoint(_ dictionary: PropertyListDictionary, point: ExtensionPoint, location: PropertyListLocation?) {
            let principal = dictionary["NSExtensionPrincipalClass"], storyboard = dictionary["NSExtensionMainStoryboard"]
            if point.hasUserInterface {
                if principal == nil && storyboard == nil {
                    report(.error, "NSExtension", location,
                           "a \(point.name) extension needs NSExtensionMainStoryboard or NSExtensionPrincipalClass (its view controller)")
                } else if principal != nil && storyboard != nil {
                    report(.warning, "NSExtension.NSExtensionPrincipalClass", principal?.location,
                           "both NSExtensionMainStoryboard and NSExtensionPrincipalClass: give one (the storyboard's initial view controller or the class)")
                }
            } else if principal == nil && point.identifier != "com.apple.widgetkit-extension" {
                report(.error, "NSExtension", location, "a \(point.name) extension needs NSExtensionPrincipalClass")
            }
            if let platform = manifest.platform, !point.platforms.contains(platform) {
                report(.warning, "NSExtension.NSExtensionPointIdentifier", dictionary["NSExtensionPointIdentifier"]?.location,
                       "\(point.name) extensions do not exist on \(platform.rawValue)")
            }
        }

        // MARK: The activation rule

        mutating func lintActivationRule(_ attributes: PropertyListDictionary?, extensionLocation: PropertyListLocation?) {
            let keyPath = "NSExtension.NSExtensionAttributes.NSExtensionActivationRule"
            guard let rule = attributes?["NSExtensionActivationRule"] else {
                return report(.error, keyPath, extensionLocation,
                              "no NSExtensionActivationRule: a share or action extension without one is never offered",
                              fix: "add a rule naming what it accepts, such as NSExtensionActivationSupportsImageWithMaxCount")
            }
            if let predicate = rule.string {
                lintPredicate(predicate, node: rule, keyPath: keyPath)
            } else if let dictionary = rule.dictionary {
                lintEntries(dictionary, level: .activationDictionary, path: keyPath)
                lintActivationDictionary(dictionary, node: rule, keyPath: keyPath)
            }
        }

        mutating func lintActivationDictionary(_ dictionary: PropertyListDictionary, node: PropertyListNode, keyPath: String) {
            for entry in dictionary.entries {
                guard entry.key.hasSuffix("Count"), let count = ExtensionManifest.integer(entry.value) else { continue }
                if count < 0 {
                    report(.error, "\(keyPath).\(entry.key)", entry.value.location, "\(entry.key) is \(count); a count cannot be negative")
                } else if count == 0 {
                    report(.warning, "\(keyPath).\(entry.key)", entry.value.location,
                           "\(entry.key) is 0, which means the kind is not supported", fix: "remove the key, or give the largest count the extension takes")
                }
            }
            let versions = [("\(keyPath).NSExtensionActivationDictionaryVersion", dictionary["NSExtensionActivationDictionaryVersion"]),
                            ("NSExtension.NSExtensionAttributes.NSExtensionActivationDictionaryVersion",
                             manifest.attributes?["NSExtensionActivationDictionaryVersion"])]
            for case let (path, version?) in versions {
                if let number = ExtensionManifest.integer(version), ![1, 2].contains(number) {
                    report(.error, path, version.location, "NSExtensionActivationDictionaryVersion is \(number); it is 1 (strict) or 2 (fuzzy)")
                }
            }
            if let inRule = versions[0].1.flatMap(ExtensionManifest.integer), let inAttributes = versions[1].1.flatMap(ExtensionManifest.integer),
               inRule != inAttributes {
                report(.warning, versions[0].0, versions[0].1?.location,
                       "NSExtensionActivationDictionaryVersion is \(inRule) here and \(inAttributes) in NSExtensionAttributes; OpenSharing uses \(inRule)")
            }
            // A count given as a build setting is unknown until Xcode substitutes it, so the rule may take it.
            let countsAreKnown = !dictionary.entries.contains { $0.value.string.map(ManifestLinter.isBuildSetting) ?? false }
            if countsAreKnown, case .dictionary(let rule)? = manifest.activationRule, rule.predicateSource == "FALSEPREDICATE" {
                report(.error, keyPath, node.location, "the rule takes no kind of attachment (every count is 0 or absent): the extension is never offered")
            }
        }

        mutating func lintPredicate(_ predicate: String, node: PropertyListNode, keyPath: String) {
            let trimmed = predicate.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.uppercased() == "TRUEPREDICATE" {
                return report(.error, keyPath, node.location,
                              "TRUEPREDICATE offers the extension for everything; Apple allows it only during development and App Store review rejects it",
                              fix: "name what the extension accepts, with the dictionary keys or a SUBQUERY predicate")
            }
            let parsed: PredicateNode
            do {
                parsed = try PredicateParser.parse(predicate)
            } catch {
                return report(.error, keyPath, position(in: node, offset: error.offset), "the predicate does not parse: \(error.message)")
            }
            lintPredicateSemantics(parsed, node: node, keyPath: keyPath)
        }
    }
}
