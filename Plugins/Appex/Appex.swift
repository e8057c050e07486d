import Foundation
import PackagePlugin

/// `swift package appex --product NAME`: builds an extension's product and makes `NAME.appex` of it — its
/// program, its target's Info.plist (build settings expanded), its target's resources, and the list of its code
/// that iOS compiles and this build leaves out (found by `LeftOutCode`) — with `sharing bundle`, where the work
/// is done. Only orchestration here.
///
///     swift package --allow-writing-to-package-directory appex --product MyShare [--product …]
///         [--configuration release|debug] [--output DIRECTORY] [--bundle-identifier ID] [--set NAME=VALUE …]
@main
struct Appex: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let products = arguments.extractOption(named: "product")
        let configuration = arguments.extractOption(named: "configuration").last ?? "release"
        let output = arguments.extractOption(named: "output").last
        let passed = ["bundle-identifier", "marketing-version", "build-version", "development-language", "set"].flatMap { option in
            arguments.extractOption(named: option).flatMap { ["--\(option)", $0] }
        }
        guard arguments.remainingArguments.isEmpty else {
            throw AppexError("unexpected arguments: \(arguments.remainingArguments.joined(separator: " "))")
        }
        guard !products.isEmpty else { throw AppexError("name the extension's product: --product NAME") }
        guard ["release", "debug"].contains(configuration) else { throw AppexError("--configuration takes release or debug, not \(configuration)") }
        let directory = output.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL) }
            ?? context.package.directoryURL.appendingPathComponent(".build/appex")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sharing = try context.tool(named: "sharing")
        let leftOutCode = try context.tool(named: "LeftOutCode")

        for name in products {
            guard let target = mainTarget(of: name, in: context.package) else {
                throw AppexError("no executable product or target named \(name) in \(context.package.displayName)")
            }
            let result = try packageManager.build(.product(name),
                                                  parameters: .init(configuration: configuration == "debug" ? .debug : .release, logging: .concise))
            guard result.succeeded, let program = result.builtArtifacts.first(where: { $0.kind == .executable })?.url else {
                throw AppexError("building \(name) failed:\n\(result.logText)")
            }
            let plist = target.directoryURL.appendingPathComponent("Info.plist")
            guard FileManager.default.fileExists(atPath: plist.path) else {
                throw AppexError("\(target.name) has no Info.plist in \(target.directoryURL.path): put the extension's there (and exclude it from the target)")
            }
            let resources = target.sourceFiles.filter { $0.type == .resource }.map { $0.url.path }
            // The target's entitlements, as Xcode keeps them beside the Info.plist: the target's own name first.
            let entitlementFiles = ((try? FileManager.default.contentsOfDirectory(atPath: target.directoryURL.path)) ?? [])
                .filter { $0.hasSuffix(".entitlements") }.sorted()
            let entitlements = entitlementFiles.first { $0 == "\(target.name).entitlements" } ?? entitlementFiles.first
            guard entitlementFiles.count <= 1 || entitlements == "\(target.name).entitlements" else {
                throw AppexError("\(target.name) has several .entitlements files (\(entitlementFiles.joined(separator: ", "))): name the extension's \(target.name).entitlements")
            }
            // The code of the extension's own that iOS compiles and this build leaves out: its target's sources and
            // those of the package's targets it depends on (not other packages', whose Apple branches are theirs).
            // In OpenSharing's own package (its examples), OpenSharing's libraries are a dependency as for any user,
            // not the extension's code: left out as another package's are.
            let vended = isOpenSharing(context.package)
                ? Set(context.package.products.compactMap { $0 as? LibraryProduct }.flatMap(\.targets)
                    .flatMap { [$0] + $0.recursiveTargetDependencies }.map(\.id)) : []
            let own = Set(context.package.targets.map(\.id)).subtracting(vended)
            let targets = [target] + target.recursiveTargetDependencies.filter { own.contains($0.id) }.compactMap { $0 as? SourceModuleTarget }
            let sources = targets.flatMap { $0.sourceFiles(withSuffix: "swift").map { $0.url.path } }
            let leftOut = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)-left-out.json")
            try run(leftOutCode.url, ["--package-directory", context.package.directoryURL.path, "--output", leftOut.path] + sources)
            try run(sharing.url, ["bundle", program.path, "--info-plist", plist.path, "--output", directory.path, "--product-name", name,
                                  "--module-name", target.moduleName, "--left-out", leftOut.path]
                + (entitlements.map { ["--entitlements", target.directoryURL.appendingPathComponent($0).path] } ?? [])
                + resources.flatMap { ["--resource", $0] } + passed)
        }
    }

    /// Whether `package` is OpenSharing itself, the package that holds this plugin: the one that vends
    /// `SharingShim`, a product no package depending on OpenSharing can vend beside it.
    private func isOpenSharing(_ package: Package) -> Bool {
        package.products.contains { $0 is LibraryProduct && $0.name == "SharingShim" }
    }

    /// The target that makes the product `name`'s program: the product's, or an executable target of that name.
    private func mainTarget(of name: String, in package: Package) -> SourceModuleTarget? {
        if let product = package.products.first(where: { $0.name == name }) as? ExecutableProduct {
            return product.mainTarget as? SourceModuleTarget
        }
        return package.targets.first { $0.name == name && ($0 as? SourceModuleTarget)?.kind == .executable } as? SourceModuleTarget
    }

    private func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw AppexError("\(tool.lastPathComponent) \(arguments.first ?? "") failed (exit status \(process.terminationStatus))")
        }
    }
}

struct AppexError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
