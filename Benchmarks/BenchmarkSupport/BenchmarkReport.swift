import Foundation

/// One measured figure, with the references measured in the same run. Ratios (the figure
/// over a reference) are what a baseline comparison checks: absolute times drift on shared
/// machines, ratios to work done in the same run much less.
public struct Figure: Codable, Equatable, Sendable {
    /// How a baseline comparison treats the figure.
    public enum Check: String, Codable, Sendable {
        /// The ratios (or, with no reference, the value) must not all grow beyond the tolerance.
        case lowerIsBetter
        /// The ratios (or the value) must not all shrink beyond the tolerance.
        case higherIsBetter
        /// A percentage that must not drop by more than `Figure.recallPoints`.
        case recall
        /// Reported only (too noisy to gate on, or informative).
        case none
    }

    /// A reference measurement: its value (same unit) and the figure's ratio to it.
    public struct Reference: Codable, Equatable, Sendable {
        public var value: Double
        public var ratio: Double

        public init(value: Double, ratio: Double) {
            self.value = value
            self.ratio = ratio
        }
    }

    /// A goal from the issues: the value (or the ratio to `reference`) at most / at least `bound`.
    public struct Goal: Codable, Equatable, Sendable {
        public var bound: Double
        public var atMost: Bool
        public var reference: String?

        public init(atMost bound: Double, reference: String? = nil) {
            self.bound = bound
            self.atMost = true
            self.reference = reference
        }

        public init(atLeast bound: Double, reference: String? = nil) {
            self.bound = bound
            self.atMost = false
            self.reference = reference
        }
    }

    /// Recall may drop by this many percentage points before it counts as a regression
    /// (queries and index are deterministic, so any real drop shows).
    public static let recallPoints = 1.0

    public var name: String
    public var value: Double
    public var unit: String
    public var references: [String: Reference]
    public var check: Check
    /// The references whose ratios the check compares, when not all of them (a noisy
    /// reference is shown but does not gate).
    public var checkedReferences: [String]?
    public var goals: [Goal]

    public init(_ name: String, _ value: Double, unit: String, references: [String: Double] = [:],
                check: Check = .none, checking checkedReferences: [String]? = nil, goals: [Goal] = []) {
        self.name = name
        self.value = value
        self.unit = unit
        self.references = references.mapValues { Reference(value: $0, ratio: $0 == 0 ? 0 : value / $0) }
        self.check = check
        self.checkedReferences = checkedReferences
        self.goals = goals
    }

    /// Whether `goal` is met, nil when its reference was not measured.
    public func meets(_ goal: Goal) -> Bool? {
        let measured: Double
        if let reference = goal.reference {
            guard let ratio = references[reference]?.ratio else { return nil }
            measured = ratio
        } else {
            measured = value
        }
        guard !measured.isNaN else { return nil } // not measured in this run
        return goal.atMost ? measured <= goal.bound : measured >= goal.bound
    }
}

/// The results of one run: what `--out` writes and `--baseline` reads.
public struct BenchmarkReport: Codable, Equatable, Sendable {
    public static let formatVersion = 1

    public var format: Int
    public var quick: Bool
    public var machine: String
    public var date: String
    /// The checkout's commit, with `-dirty` when it had uncommitted changes (absent in runs
    /// written before the bench recorded it, and in scale workers' reports).
    public var commit: String?
    /// How the measured code was built: configuration, Swift runtime linking, profile.
    public var build: String?
    public var figures: [Figure]

    public init(quick: Bool, machine: String, date: String, commit: String? = nil, build: String? = nil, figures: [Figure]) {
        self.format = Self.formatVersion
        self.quick = quick
        self.machine = machine
        self.date = date
        self.commit = commit
        self.build = build
        self.figures = figures
    }

    public subscript(name: String) -> Figure? { figures.first { $0.name == name } }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func load(from path: String) throws -> BenchmarkReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchmarkError.badReport("cannot read \(path); write one with --out FILE")
        }
        let report: BenchmarkReport
        do { report = try JSONDecoder().decode(BenchmarkReport.self, from: data) } catch {
            throw BenchmarkError.badReport("\(path) is not a pokesearch-bench results file (\(error.localizedDescription))")
        }
        guard report.format == formatVersion else {
            throw BenchmarkError.badReport("\(path) has results format \(report.format), this bench writes \(formatVersion); write a new baseline")
        }
        return report
    }
}

/// A figure that got worse than its baseline beyond the tolerance.
public struct Regression: Equatable, Sendable, CustomStringConvertible {
    /// The figure, with the reference whose ratio regressed: `search.mixed.median vs naive`.
    public var figure: String
    public var baseline: Double
    public var current: Double
    public var description: String
}

public enum BaselineComparison {
    public static let defaultTolerance = 1.5

    /// The regressions of `current` against `baseline`. Figures only one of them has (a
    /// quick run has no scale figures) are not compared.
    public static func regressions(current: BenchmarkReport, baseline: BenchmarkReport,
                                   tolerance: Double = defaultTolerance) -> [Regression] {
        var found: [Regression] = []
        for figure in current.figures where figure.check != .none {
            guard let old = baseline[figure.name] else { continue }
            switch figure.check {
            case .none: continue
            case .recall:
                if figure.value < old.value - Figure.recallPoints {
                    found.append(Regression(figure: figure.name, baseline: old.value, current: figure.value,
                                            description: "\(figure.name): \(format(old.value))% → \(format(figure.value))% (more than \(format(Figure.recallPoints)) point lower)"))
                }
            case .lowerIsBetter, .higherIsBetter:
                let lowerIsBetter = figure.check == .lowerIsBetter
                var pairs: [(label: String, old: Double, new: Double, what: String)] = []
                if figure.references.isEmpty {
                    pairs.append((figure.name, old.value, figure.value, figure.unit))
                } else {
                    for (reference, ratio) in figure.references.sorted(by: { $0.key < $1.key })
                    where figure.checkedReferences?.contains(reference) ?? true {
                        guard let oldRatio = old.references[reference]?.ratio else { continue }
                        pairs.append(("\(figure.name) vs \(reference)", oldRatio, ratio.ratio, "ratio to \(reference)"))
                    }
                }
                // With several references, the figure regresses only when it got worse
                // against every one of them: a reference that itself ran slow or fast in one
                // run (they drift too) moves one ratio, a slower engine moves them all.
                let judged = pairs.filter { $0.old > 0 }.map { pair in
                    (pair, lowerIsBetter ? pair.new / pair.old : pair.old / max(pair.new, .leastNonzeroMagnitude))
                }
                guard !judged.isEmpty, judged.allSatisfy({ $0.1 > tolerance }) else { continue }
                for (pair, worse) in judged {
                    found.append(Regression(figure: pair.label, baseline: pair.old, current: pair.new,
                                            description: "\(pair.label): \(pair.what) \(format(pair.old)) → \(format(pair.new)) (\(format(worse))x worse, tolerance \(format(tolerance))x)"))
                }
            }
        }
        return found
    }

    /// Four significant digits (whole numbers from 1000), enough to see a change.
    public static func format(_ value: Double) -> String {
        abs(value) >= 1000 ? String(format: "%.0f", value) : String(format: "%.4g", value)
    }
}

/// Two runs side by side (`pokesearch-bench --compare OLD NEW`): each figure either has,
/// its two values and new/old, and for each reference both have, the two ratios.
public enum RunComparison {
    public static func lines(old: BenchmarkReport, new: BenchmarkReport) -> [String] {
        func describe(_ report: BenchmarkReport) -> String {
            "\(report.quick ? "quick" : "full") run, \(report.date), commit \(report.commit ?? "unknown"), \(report.build ?? "build unknown")"
        }
        var lines = ["old: " + describe(old), "     " + old.machine, "new: " + describe(new), "     " + new.machine, ""]
        if old.quick != new.quick { lines += ["(a quick and a full run: the references' samples differ, so their ratios compare loosely)", ""] }
        lines.append(pad("figure", 34) + pad("old", 16, right: true) + pad("new", 16, right: true) + pad("new/old", 10, right: true))
        for figure in new.figures {
            guard let before = old[figure.name] else { continue }
            let change = before.value == 0 || before.value.isNaN || figure.value.isNaN ? "" : BaselineComparison.format(figure.value / before.value)
            lines.append(pad(figure.name, 34) + pad(displayed(before.value, figure.unit), 16, right: true)
                         + pad(displayed(figure.value, figure.unit), 16, right: true) + pad(change, 10, right: true))
            for (name, reference) in figure.references.sorted(by: { $0.key < $1.key }) {
                guard let oldReference = before.references[name] else { continue }
                lines.append(pad("  ratio to \(name)", 34) + pad(BaselineComparison.format(oldReference.ratio), 16, right: true)
                             + pad(BaselineComparison.format(reference.ratio), 16, right: true))
            }
        }
        let onlyOld = old.figures.map(\.name).filter { new[$0] == nil }, onlyNew = new.figures.map(\.name).filter { old[$0] == nil }
        if !onlyOld.isEmpty { lines += ["", "only in old: " + onlyOld.joined(separator: ", ")] }
        if !onlyNew.isEmpty { lines += ["", "only in new: " + onlyNew.joined(separator: ", ")] }
        return lines
    }

}

/// A value in its unit for people: sizes in MB, rates whole, percentages to a tenth.
public func displayed(_ value: Double, _ unit: String) -> String {
    if value.isNaN { return "n/a" }
    switch unit {
    case "bytes": return String(format: "%.2f MB", value / 1e6)
    case "req/s": return String(format: "%.0f req/s", value)
    case "%": return String(format: "%.1f%%", value)
    default: return "\(BaselineComparison.format(value)) \(unit)"
    }
}

/// `text` padded with spaces to `width` characters (the report's names and values are ASCII
/// but for units like µs, one column each), on the left when `right`.
public func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}
