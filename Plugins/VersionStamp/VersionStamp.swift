import Foundation
import PackagePlugin

/// Stamps `sharing` with the version of the checkout it is built from: `git describe --tags --always` of the
/// package's directory (a tag such as `0.3.0` in a package that depends on OpenSharing by version, a commit
/// elsewhere), or `unknown` where the source is not a git checkout. Reports then name the code that made them,
/// not a number written once in the source.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Stamp")
        // Only what a version may hold reaches the Swift source; the file is rewritten only when the version
        // changed, so that an unchanged checkout rebuilds nothing.
        let script = """
            mkdir -p "$2"
            version=$(git -C "$1" describe --tags --always 2>/dev/null | tr -cd 'A-Za-z0-9._+-')
            [ -n "$version" ] || version=unknown
            line="let stampedVersion = \\"$version\\""
            [ "$(cat "$2/StampedVersion.swift" 2>/dev/null)" = "$line" ] || printf '%s\\n' "$line" > "$2/StampedVersion.swift"
            """
        return [.prebuildCommand(displayName: "Stamping \(target.name) with the checkout's version", executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", script, "stamp", context.package.directoryURL.path, output.path], outputFilesDirectory: output)]
    }
}
