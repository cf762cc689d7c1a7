import BenchmarkSupport
import Foundation

/// The human table on stdout: one line per figure with its references as ratios, then the
/// goals, then (with --baseline) the regressions.
enum ReportPrinter {
    static func print(_ report: BenchmarkReport) {
        Swift.print("pokesearch-bench\(report.quick ? " --quick" : "") · \(report.machine) · \(report.date)")
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
        var text = pad(figure.name, 36) + " " + pad(display(figure.value, figure.unit), 12, right: true)
        for (name, reference) in figure.references.sorted(by: { $0.key < $1.key }) {
            text += "   \(name) \(display(reference.value, figure.unit)): ×\(BaselineComparison.format(reference.ratio))"
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
        return "\(relation) \(display(goal.bound, figure.unit)): measured \(display(figure.value, figure.unit))"
    }

    /// A value in its unit, sizes in MB.
    static func display(_ value: Double, _ unit: String) -> String {
        if value.isNaN { return "n/a" }
        switch unit {
        case "bytes": return String(format: "%.2f MB", value / 1e6)
        case "req/s": return String(format: "%.0f req/s", value)
        case "%": return String(format: "%.1f%%", value)
        default: return "\(BaselineComparison.format(value)) \(unit)"
        }
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
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
