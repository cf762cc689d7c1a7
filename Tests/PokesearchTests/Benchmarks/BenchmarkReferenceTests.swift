import BenchmarkSupport
import Foundation
import Testing

/// The bench's references: the pre-folded scan answers what the naive scan answers (it only
/// folds once), FTS5's prefix query finds only entities having every term, and two runs'
/// results print side by side.
@Suite("Benchmark references")
struct BenchmarkReferenceTests {
    static let entities = ReferenceEntities(corpus: Fixture.corpus)
    static let folded = entities.folded()
    static let scan = PrefoldedScan(folded: folded)

    /// A few queries of each workload, and some the scans could get wrong (a term at a name's
    /// end, spanning two names, a filter, nothing but a numeric filter). (The workload tests'
    /// generator, of the default seed: a generator's making reads the whole corpus.)
    static let queries: [String] = {
        var byWorkload: [Workload: [String]] = [:]
        for query in BenchmarkWorkloadTests.generator.queries(perWorkload: 2) { byWorkload[query.workload, default: []].append(query.text) }
        return Workload.allCases.flatMap { byWorkload[$0] ?? [] } + ["chu", "saur", "pikachu raichu", "type:fire char", "gen:1", "Évoli", "xyzzy"]
    }()

    /// How many `queries` there are: two of each workload and seven more. (The cases are
    /// numbered rather than made: the test runner makes every test's cases before any test
    /// runs, one after another, where the generator would keep the other cores waiting.)
    static let queryCount = Workload.allCases.count * 2 + 7

    @Test(.tags(.exhaustive), arguments: Exhaustive.sample(0..<queryCount, oneIn: 3))
    func thePrefoldedScanFindsWhatTheNaiveScanFinds(_ n: Int) throws {
        try #require(Self.queries.count == Self.queryCount, "\(Self.queries.count) queries")
        let query = Self.queries[n]
        #expect(Self.scan.search(query) == NaiveScan(entities: Self.entities).search(query), "'\(query)'")
    }

    @Test func theScanNeverMatchesAcrossTwoNames() {
        let text = Array("pika\0chu\0".utf8)
        text.withUnsafeBufferPointer { text in
            #expect(PrefoldedScan.contains(text, Array("chu".utf8)))
            #expect(!PrefoldedScan.contains(text, Array("kachu".utf8)))
            #expect(!PrefoldedScan.contains(UnsafeBufferPointer(rebasing: text[0..<3]), Array("pika".utf8)))
        }
    }

    @Test func fullTextFindsOnlyEntitiesHavingEveryTermAtAWordStart() throws {
        let fullText = try PrefixFullText(folded: Self.folded)
        for query in Self.queries {
            let terms = ReferenceTerms.of(query)
            for entity in try fullText.search(query) {
                let words = Self.folded[entity].flatMap { $0.split(separator: " ") }
                #expect(terms.allSatisfy { term in words.contains { $0.hasPrefix(term) } }, "'\(query)' found \(Self.entities.keys[entity])")
            }
        }
        let pikachu = try #require(Self.entities.keys.firstIndex(of: "pokemon:pikachu"))
        #expect(try fullText.search("pika").contains(pikachu))
        #expect(try fullText.search("type:electric pikach").contains(pikachu))
        #expect(try fullText.search("xyzzy").isEmpty && fullText.search("gen:1").isEmpty)
    }

    /// The runs kept as data (`Benchmarks/runs/`): each a full run's results file saying
    /// where it ran, on which commit and build, with its notes beside it.
    @Test func theKeptRunsAreFullRunsWithTheirProvenance() throws {
        let directory = Fixture.root.appendingPathComponent("Benchmarks/runs")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let runs = files.filter { $0.hasSuffix(".json") }
        #expect(!runs.isEmpty, "no run in Benchmarks/runs")
        for run in runs {
            let report = try BenchmarkReport.load(from: directory.appendingPathComponent(run).path)
            #expect(!report.quick && report.commit != nil && report.build != nil && !report.machine.isEmpty, "\(run)")
            #expect(report["search.mixed.median"]?.references["scan"] != nil && report["search.mixed.median"]?.references["fts5"] != nil, "\(run)")
            #expect(files.contains(run.replacingOccurrences(of: ".json", with: ".md")), "\(run) has no notes beside it")
        }
    }

    @Test func twoRunsPrintSideBySide() {
        let old = BenchmarkReport(quick: false, machine: "machine A", date: "2026-01-01T00:00:00Z", commit: "abc", build: "release", figures: [
            Figure("search.mixed.median", 2, unit: "µs", references: ["scan": 200], check: .lowerIsBetter),
            Figure("index.load", 5, unit: "ms"),
        ])
        let new = BenchmarkReport(quick: false, machine: "machine B", date: "2026-01-02T00:00:00Z", commit: "def-dirty", build: "release", figures: [
            Figure("search.mixed.median", 3, unit: "µs", references: ["scan": 150], check: .lowerIsBetter),
            Figure("cli.oneshot.median", 11, unit: "ms"),
        ])
        let lines = RunComparison.lines(old: old, new: new)
        #expect(lines.contains { $0.contains("commit abc") } && lines.contains { $0.contains("commit def-dirty") })
        let median = lines.first { $0.hasPrefix("search.mixed.median") }?.split(separator: " ").map(String.init)
        #expect(median == ["search.mixed.median", "2", "µs", "3", "µs", "1.5"])
        let ratio = lines.first { $0.contains("ratio to scan") }?.split(separator: " ").map(String.init)
        #expect(ratio == ["ratio", "to", "scan", "0.01", "0.02"])
        #expect(lines.contains("only in old: index.load") && lines.contains("only in new: cli.oneshot.median"))
    }
}
