import ArgumentParser
import ExtensionRuntime
import Foundation
import PropertyLists
import SharingSystem

/// `sharing bundle`: an extension bundle (`Name.appex`) from a built program, the Info.plist Xcode projects
/// have (its build-setting variables expanded, the keys Xcode generates filled in) and resources. The `appex`
/// package plugin builds the product and calls this; it can also bundle a program built any other way.
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make an extension bundle (Name.appex) from a program, its Info.plist and its resources.",
        discussion: """
            The Info.plist's $(VARIABLE) and ${VARIABLE} build settings are expanded (also with Xcode's \
            :rfc1034identifier and :c99extidentifier modifiers): EXECUTABLE_NAME, PRODUCT_NAME, PRODUCT_MODULE_NAME, \
            PRODUCT_BUNDLE_IDENTIFIER, PRODUCT_BUNDLE_PACKAGE_TYPE, DEVELOPMENT_LANGUAGE, MARKETING_VERSION and \
            CURRENT_PROJECT_VERSION from the options below, any other from --set; one it cannot know is an error \
            naming it. Keys Xcode generates when they are missing (CFBundleExecutable, CFBundleIdentifier, \
            CFBundleName, CFBundlePackageType, CFBundleShortVersionString, CFBundleVersion, \
            CFBundleDevelopmentRegion) are filled in. Resources go to the bundle's top, where Bundle.main and \
            UIImage(named:) find them. Exit status 0, or 2 on bad input.
            """
    )

    @Argument(help: ArgumentHelp("The extension's program.", valueName: "executable"))
    var executable: String

    @Option(name: .customLong("info-plist"), help: ArgumentHelp("The extension's Info.plist.", valueName: "file"))
    var infoPlist: String

    @Option(help: ArgumentHelp("A file or folder to put at the bundle's top (repeatable).", valueName: "path"))
    var resource: [String] = []

    @Option(help: ArgumentHelp("Where to make the bundle (default: the current directory).", valueName: "directory"))
    var output: String = "."

    @Option(name: .customLong("product-name"), help: ArgumentHelp("PRODUCT_NAME, and the bundle's name (default: the program's name).", valueName: "name"))
    var productName: String?

    @Option(name: .customLong("module-name"), help: ArgumentHelp("PRODUCT_MODULE_NAME: the Swift module of the principal class (default: the product name as an identifier).", valueName: "name"))
    var moduleName: String?

    @Option(name: .customLong("bundle-identifier"), help: ArgumentHelp("PRODUCT_BUNDLE_IDENTIFIER (default: org.opensharing.local. and the product name).", valueName: "identifier"))
    var bundleIdentifier: String?

    @Option(name: .customLong("marketing-version"), help: ArgumentHelp("MARKETING_VERSION (default 1.0).", valueName: "version"))
    var marketingVersion = "1.0"

    @Option(name: .customLong("build-version"), help: ArgumentHelp("CURRENT_PROJECT_VERSION (default 1).", valueName: "version"))
    var buildVersion = "1"

    @Option(name: .customLong("development-language"), help: ArgumentHelp("DEVELOPMENT_LANGUAGE (default en).", valueName: "language"))
    var developmentLanguage = "en"

    @Option(name: .customLong("left-out"), help: ArgumentHelp("The extension's code that iOS compiles and this build leaves out, as the appex plugin lists it (JSON); each run reports it.", valueName: "file"))
    var leftOut: String?

    @Option(name: .customLong("entitlements"), help: ArgumentHelp("The extension's entitlements (its target's .entitlements file): the host makes a container for each app group it names.", valueName: "file"))
    var entitlements: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Another build setting the Info.plist uses (repeatable).", valueName: "NAME=VALUE"))
    var settings: [String] = []

    func run() throws {
        let program = URL(fileURLWithPath: executable)
        guard FileManager.default.isExecutableFile(atPath: program.path) else { throw BadInput("\(executable): not an executable file") }
        let name = productName ?? program.lastPathComponent
        var values: [String: String] = [
            "EXECUTABLE_NAME": name,
            "PRODUCT_NAME": name,
            "PRODUCT_MODULE_NAME": moduleName ?? BuildSettings.modified(name, "c99extidentifier"),
            "PRODUCT_BUNDLE_IDENTIFIER": bundleIdentifier ?? "org.opensharing.local.\(BuildSettings.modified(name, "rfc1034identifier"))",
            "PRODUCT_BUNDLE_PACKAGE_TYPE": "XPC!",
            "DEVELOPMENT_LANGUAGE": developmentLanguage,
            "MARKETING_VERSION": marketingVersion,
            "CURRENT_PROJECT_VERSION": buildVersion,
        ]
        for setting in settings {
            guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
                throw BadInput("--set \(setting): write NAME=VALUE")
            }
            values[String(setting[..<equals])] = String(setting[setting.index(after: equals)...])
        }
        let plist = try BuildSettings.expandedInfoPlist(at: URL(fileURLWithPath: infoPlist), values: values)
        let leftOutBlocks = try leftOut.map { path in
            do {
                return try LeftOutBlock.list(from: OpenFile.reading(URL(fileURLWithPath: path)).readAll(limit: 4 << 20))
            } catch {
                throw BadInput("--left-out \(path): \(error)")
            }
        }
        let entitlementsData = try entitlements.map { path in
            do {
                let data = try OpenFile.reading(URL(fileURLWithPath: path)).readAll(limit: 1 << 20)
                _ = try Entitlements.applicationGroups(from: data)
                return data
            } catch {
                throw BadInput("--entitlements \(path): \(error)")
            }
        }
        let bundle = URL(fileURLWithPath: output, isDirectory: true).appendingPathComponent("\(name).appex", isDirectory: true)
        do {
            try? FileManager.default.removeItem(at: bundle)
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: bundle.appendingPathComponent("Info.plist"))
            // A copy, not a link: Foundation finds Bundle.main's Info.plist beside the program's real path.
            try FileManager.default.copyItem(at: program, to: bundle.appendingPathComponent(name))
            if let entitlementsData { try entitlementsData.write(to: bundle.appendingPathComponent(Entitlements.fileName)) }
            if let leftOutBlocks { try LeftOutBlock.encoded(leftOutBlocks).write(to: bundle.appendingPathComponent(LeftOutBlock.fileName)) }
            for path in resource {
                let source = URL(fileURLWithPath: path)
                guard FileManager.default.fileExists(atPath: source.path) else { throw BadInput("--resource \(path): no such file or folder") }
                try FileManager.default.copyItem(at: source, to: bundle.appendingPathComponent(source.lastPathComponent))
            }
        } catch let error as BadInput {
            throw error
        } catch {
            throw BadInput("cannot make \(bundle.path): \((error as NSError).localizedDescription)")
        }
        Output.line("made \(bundle.path)")
        if let storyboard = (plist["NSExtension"] as? [String: Any])?["NSExtensionMainStoryboard"] as? String {
            Output.line("note: the Info.plist names the storyboard \(storyboard); storyboards are not loaded here, so the extension runs with the principal its program gives to ExtensionProcess.run")
        }
    }
}

/// Xcode's build settings as Info.plist files use them.
enum BuildSettings {
    /// The Info.plist at `url`, every `$(NAME)` and `${NAME}` in its strings replaced by `values`, and the keys
    /// Xcode generates filled in where missing.
    static func expandedInfoPlist(at url: URL, values: [String: String]) throws -> [String: Any] {
        let data: Data
        do {
            data = try OpenFile.reading(url).readAll(limit: 16 << 20)
        } catch {
            throw BadInput("--info-plist \(url.path): \(error)")
        }
        // Read as every plist the project reads: bounded in depth, size and count, whatever the bytes are.
        let node: PropertyListNode
        do {
            node = try PropertyList.read(data)
        } catch {
            throw BadInput("--info-plist \(url.path): \(error)")
        }
        guard let plist = node.foundationValue as? [String: Any] else {
            throw BadInput("--info-plist \(url.path): not a property list whose top is a dictionary")
        }
        guard var expanded = try expand(plist, values: values, at: "") as? [String: Any] else { return [:] }
        let generated: [(String, String)] = [
            ("CFBundleExecutable", "EXECUTABLE_NAME"), ("CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER"), ("CFBundleName", "PRODUCT_NAME"),
            ("CFBundlePackageType", "PRODUCT_BUNDLE_PACKAGE_TYPE"), ("CFBundleShortVersionString", "MARKETING_VERSION"),
            ("CFBundleVersion", "CURRENT_PROJECT_VERSION"), ("CFBundleDevelopmentRegion", "DEVELOPMENT_LANGUAGE"),
        ]
        for (key, setting) in generated where expanded[key] == nil { expanded[key] = values[setting] }
        return expanded
    }

    private static func expand(_ value: Any, values: [String: String], at path: String) throws -> Any {
        switch value {
        case let text as String:
            return try expand(text, values: values, at: path)
        case let dictionary as [String: Any]:
            var result: [String: Any] = [:]
            for (key, item) in dictionary { result[key] = try expand(item, values: values, at: path.isEmpty ? key : "\(path).\(key)") }
            return result
        case let array as [Any]:
            return try array.enumerated().map { index, item in try expand(item, values: values, at: "\(path)[\(index)]") }
        default:
            return value
        }
    }

    /// `text` with its `$(NAME)`, `${NAME}`, `$(NAME:modifier)` replaced; an unknown NAME is bad input naming it,
    /// where it is, and the option that sets it.
    static func expand(_ text: String, values: [String: String], at path: String) throws -> String {
        var result = ""
        var rest = text[...]
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, let close = ["(": ")", "{": "}"][rest[after]],
                  let end = rest[after...].firstIndex(of: Character(close)) else {
                result.append("$")
                rest = rest[after...]
                continue
            }
            let reference = rest[rest.index(after: after)..<end].split(separator: ":", maxSplits: 1).map(String.init)
            let name = reference.first ?? ""
            guard let value = values[name] else {
                throw BadInput("Info.plist \(path): $(\(name)) is a build setting not known here; give it with --set \(name)=VALUE")
            }
            result += reference.count == 2 ? modified(value, reference[1]) : value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// Xcode's modifiers: an RFC 1034 identifier (letters, digits, hyphens, dots), a C99 identifier
    /// (underscores for the rest, and not starting with a digit), lower and upper case.
    static func modified(_ value: String, _ modifier: String) -> String {
        switch modifier {
        case "rfc1034identifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "-" })
        case "c99extidentifier", "identifier":
            let mapped = String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            return mapped.first?.isNumber == true ? "_" + mapped : mapped
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        default: return value
        }
    }
}
