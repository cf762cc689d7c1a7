import BenchmarkSupport
import Foundation

/// The human table on stdout: one line per figure with its references as ratios, then the
/// goals, then (with --baseline) the regressions.
enum ReportPrinter {
    static func print(_ report: BenchmarkReport) {
        Swift.print("pokesearch-bench\(report.quick ? " --quick" : "") · \(report.machine) · \(report.date)")
        Swift.print("commit \(report.commit ?? "unknown") · \(report.build ?? "build unknown")")
        var section = ""
        for figure in report.figures {
            let head = String(figure.name.split(separator: ".").first ?? "")
            if head != section {
                section = head
                Swift.print("\n\(section)")
            }
            Swift.print("  " + line(figure))
        }
        let goals = report.figures.flatMap { figure in figure.goals.map { (figure, $0) } }
        if !goals.isEmpty {
            Swift.print("\ngoals")
            for (figure, goal) in goals {
                let verdict = figure.meets(goal).map { $0 ? "met   " : "MISSED" } ?? "n/a   "
                Swift.print("  \(verdict) \(pad(figure.name, 36)) \(goalText(figure, goal))")
            }
        }
    }

    static func line(_ figure: Figure) -> String {
        var text = pad(figure.name, 36) + " " + pad(displayed(figure.value, figure.unit), 12, right: true)
        for (name, reference) in figure.references.sorted(by: { $0.key < $1.key }) {
            text += "   \(name) \(displayed(reference.value, figure.unit)): ×\(BaselineComparison.format(reference.ratio))"
            if figure.check == .higherIsBetter || figure.unit == "req/s" { continue }
            if reference.ratio > 0 && reference.ratio < 1 { text += " (\(BaselineComparison.format(1 / reference.ratio))x faster)" }
        }
        return text
    }

    static func goalText(_ figure: Figure, _ goal: Figure.Goal) -> String {
        let relation = goal.atMost ? "≤" : "≥"
        if let reference = goal.reference {
            let measured = figure.references[reference]?.ratio
            let speedup = goal.atMost && goal.bound < 1 ? " (\(BaselineComparison.format(1 / goal.bound))x faster)" : ""
            return "ratio to \(reference) \(relation) \(BaselineComparison.format(goal.bound))\(speedup): measured \(measured.map(BaselineComparison.format) ?? "n/a")"
        }
        return "\(relation) \(displayed(goal.bound, figure.unit)): measured \(displayed(figure.value, figure.unit))"
    }

}

/// Which machine, for the report's header.
func machineDescription() -> String {
    var name = utsname()
    uname(&name)
    let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let cpus = ProcessInfo.processInfo.activeProcessorCount
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1e9
    let runtime = Suite.staticSwiftRuntime ? "static Swift runtime" : "dynamic Swift runtime"
    return String(format: "Linux %@ %@, %d CPUs, %.0f GB, load %.2f, %@", release, machine, cpus, memory, loadAverage(), runtime)
}

/// The checkout's commit, `-dirty` when tracked files have uncommitted changes (nil outside
/// a git checkout).
func checkoutCommit() -> String? {
    guard let commit = try? Processes.run(["git", "-C", Options.checkout.path, "rev-parse", "--short=12", "HEAD"]),
          let status = try? Processes.run(["git", "-C", Options.checkout.path, "status", "--porcelain", "--untracked-files=no"]) else { return nil }
    return commit.trimmingCharacters(in: .whitespacesAndNewlines) + (status.isEmpty ? "" : "-dirty")
}

/// How this bench (and the pokesearch it builds the same way) was built, as far as it can
/// tell: the configuration, the Swift runtime's linking, and the profile release builds take
/// (`POKESEARCH_PGO=off` in this environment, as scripts/bench.sh builds in it, or none in
/// the checkout, leaves it out; `scripts/pgo.sh --check` says whether it is current).
func buildDescription() -> String {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let configuration = executable.deletingLastPathComponent().lastPathComponent.contains("debug") ? "debug" : "release"
    let runtime = Suite.staticSwiftRuntime ? "static Swift runtime" : "dynamic Swift runtime"
    let profilePath = Options.checkout.appendingPathComponent("pgo/pokesearch.profdata").path
    let profile: String
    if configuration == "debug" {
        profile = "no profile"
    } else if ProcessInfo.processInfo.environment["POKESEARCH_PGO"] == "off" || !FileManager.default.fileExists(atPath: profilePath) {
        profile = "no profile (POKESEARCH_PGO=off or none)"
    } else {
        let current = (try? Processes.run(["bash", Options.checkout.appendingPathComponent("scripts/pgo.sh").path, "--check"])) != nil
        profile = current ? "profile current" : "profile stale (trained on other code)"
    }
    return "\(configuration), \(runtime), \(profile)"
}
