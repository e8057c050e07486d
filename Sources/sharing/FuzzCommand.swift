#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import PackageSupport
import SharingSystem

/// `sharing fuzz`: generated shares against extension bundles until one breaks; each failure made as small as it
/// goes and written as a share fixture with the command that replays it. The fuzzer is `ConformanceMatrix`'s
/// `ShareFuzzer`; this is its options and its printing.
struct FuzzCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Run extension bundles on generated shares, keep each share that breaks one, and make it as small as it goes.",
        discussion: """
            Shares are made from the host profiles' own ways of sharing, changed as hosts are seen to differ (no \
            attachments key, no items, other types, failing or late loads, awkward names, many photos), and kept \
            within what each bundle's activation rule admits (those it does not are counted as skipped). A share \
            that crashes the extension, runs it out of memory, time or disk, breaks the protocol, or shows a fail \
            finding is reduced while it still ends the same way and written to --out with the `sharing run` \
            command that replays it. Failures that end the same way are one finding. The same seed and the same \
            number of shares (--shares) give the same findings. Exit status: 0 when nothing was found, 1 when \
            something was, 2 on bad input.
            """
    )

    @Argument(help: ArgumentHelp("Extension bundles (Name.appex); with --merge, the reports to join.", valueName: "bundle"))
    var bundles: [String] = []

    @Option(help: ArgumentHelp("Seconds to fuzz, shared among the bundles (shrinking comes after).", valueName: "seconds"))
    var time: Double?

    @Option(help: ArgumentHelp("Shares to run per bundle, in place of --time: the same for every machine.", valueName: "count"))
    var shares: Int?

    @Option(help: ArgumentHelp("Fixes the shares made (default: a new seed, printed and recorded).", valueName: "number"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Where each finding's share is written (default: fuzz-findings).", valueName: "directory"))
    var out = "fuzz-findings"

    @Option(help: ArgumentHelp("Where the shares' files go while they run (default: opensharing-fuzz in the temporary directory).", valueName: "directory"))
    var work: String?

    @Option(help: ArgumentHelp("Write the findings as JSON (opensharing-fuzz/1, docs/fuzzing.md).", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the findings as JUnit XML: a test case per finding.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Shares run at a time (default: two per core).", valueName: "count"))
    var jobs = 2 * ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("The device played (sharing run --list-devices), none for the extension point's own limits.", valueName: "name"))
    var device = DeviceClass.default.name

    @Option(help: ArgumentHelp("Host profiles whose ways of sharing make the shares: all, or names separated by commas.", valueName: "all|name,…"))
    var hosts = "all"

    @Option(help: ArgumentHelp("Seconds each share's extension has to end its request (default: its extension point's).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Runs shard I of N: every Nth share of the seed's sequence, from the Ith (1/4, 2/4, …).", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Join shards' JSON reports (the arguments) into one, each finding once: printed, and --json, --junit.")
    var merge = false

    func validate() throws {
        if merge {
            guard !bundles.isEmpty else { throw ValidationError("Give the reports to merge (--json files of sharing fuzz).") }
            return
        }
        guard !bundles.isEmpty else { throw ValidationError("Give the extension bundles (Name.appex).") }
        guard (time == nil) != (shares == nil) else { throw ValidationError("Give the budget: --time SECONDS or --shares COUNT, one of them.") }
        if let time, !(time > 0 && time <= 7 * 86_400) { throw ValidationError("--time must be more than 0 seconds and at most a week.") }
        if let shares, shares < 1 { throw ValidationError("--shares must be at least 1.") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be more than 0 seconds and at most a day.") }
        if let shard, TestCommand.shard(shard) == nil { throw ValidationError("--shard \(shard) is not I/N with 1 ≤ I ≤ N.") }
        _ = try playedDevice()
        _ = try hostProfiles()
    }

    private func playedDevice() throws(ValidationError) -> DeviceClass? {
        if device == "none" { return nil }
        guard let found = DeviceClass.named(device) else {
            throw ValidationError("--device: no device is named '\(device)'. They are: \((DeviceClass.all.map(\.name) + ["none"]).joined(separator: ", ")).")
        }
        return found
    }

    private func hostProfiles() throws(ValidationError) -> [HostProfile] {
        if hosts == "all" { return HostProfile.all }
        return try TestCommand.names(hosts, "--hosts", "host profile", HostProfile.named, all: HostProfile.all.map(\.name))
    }

    func run() async throws {
        try Output.checkWritable([("--json", json), ("--junit", junit)])
        if merge { return try mergeReports() }
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let budget: ShareFuzzer.Budget = if let shares { .shares(shares) } else { .time(.milliseconds(Int((time ?? 0) * 1000))) }
        let fuzzer = ShareFuzzer(bundles: bundles, hosts: try hostProfiles(), device: try playedDevice(), seed: seed, budget: budget, jobs: jobs,
                                 shard: shard.flatMap(TestCommand.shard) ?? (1, 1), timeout: timeout,
                                 work: URL(fileURLWithPath: work ?? FileSystem.temporaryDirectory.appending(component: "opensharing-fuzz").path),
                                 out: URL(fileURLWithPath: out))
        Output.line("fuzzing \(bundles.count) bundle\(bundles.count == 1 ? "" : "s") with seed \(seed) (sharing fuzz --seed \(seed) replays it)")
        let report: FuzzReport
        do {
            report = try await fuzzer.run { finding in
                Output.line("found: \(Escaped.terminal(finding.cell.bundleName)): \(Escaped.terminal(finding.summary))")
            }
        } catch {
            throw BadInput("\(error)")
        }
        try present(report)
    }

    /// Prints the run's size and each finding with its command, and writes the reports asked for.
    private func present(_ report: FuzzReport) throws {
        let info = report.runInfo
        // The rate of extensions run: a skipped share starts nothing.
        let started = info.sharesRun - info.skipped
        let rate = info.seconds > 0 ? Double(started) / info.seconds : 0
        Output.line("\n\(info.sharesRun) shares in \(String(format: "%.1f", info.seconds)) s, shrinking included: \(started) run "
                    + "(\(String(format: "%.1f", rate)) per second), \(info.skipped) skipped: the activation rule would not offer the extension")
        if report.findings.isEmpty { Output.line("no finding") }
        let invoked = CommandLine.arguments[0]
        let program = invoked.contains("/") ? invoked : "sharing"
        for finding in report.findings {
            Output.line("\n\(Escaped.terminal(finding.cell.bundleName)): \(Escaped.terminal(finding.summary))\(finding.reason.map { ": \(Escaped.terminal($0))" } ?? "")")
            Output.line("  \(finding.attachments) attachment\(finding.attachments == 1 ? "" : "s"), found after \(finding.foundAfter) share\(finding.foundAfter == 1 ? "" : "s")"
                        + (finding.replays ? "" : "; its share did not end the same way when replayed: it may depend on more than the share"))
            Output.line("  \(Escaped.terminal(finding.cell.reproduce(program: program)))")
        }
        for (path, data) in [(json, try TestCommand.encoder.encode(report)), (junit, Data(report.junit().utf8))] {
            if let path { try Output.write(data, to: path) }
        }
        if !report.findings.isEmpty { throw ExitCode.failure }
    }

    private func mergeReports() throws {
        var reports: [(report: FuzzReport, file: String)] = []
        do {
            for path in bundles { reports.append((try FuzzReport.read(from: URL(fileURLWithPath: path)), path)) }
            let merged = try FuzzReport.merged(reports)
            try present(merged)
        } catch let error as ReportError {
            throw BadInput("\(error)")
        }
    }
}
#endif
