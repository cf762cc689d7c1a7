import BenchmarkSupport
import Foundation
import Testing

/// `pokesearch-bench --baseline FILE`: which changes of a results file count as regressions.
@Suite("Benchmark baseline comparison")
struct BenchmarkBaselineTests {
    /// A results file like a run writes, with one figure of each kind of check.
    static func report(searchNaive: Double = 2_000, searchFTS: Double = 40, echo: Double = 70, pipelined: Double = 250_000,
                       typoRecall: Double = 99.5, searchP99: Double = 30, indexBytes: Double = 7.6e6) -> BenchmarkReport {
        BenchmarkReport(quick: true, machine: "test", date: "2025-01-01T00:00:00Z", figures: [
            Figure("search.mixed.median", 4, unit: "µs", references: ["naive": searchNaive, "fts5": searchFTS], check: .lowerIsBetter,
                   goals: [.init(atMost: 5), .init(atMost: 1.0 / 20, reference: "naive")]),
            Figure("search.mixed.p99", searchP99, unit: "µs", references: ["naive": 2_000]),
            Figure("socket.roundtrip.median", 100, unit: "µs", references: ["echo": echo], check: .lowerIsBetter),
            Figure("socket.pipelined", pipelined, unit: "req/s", references: ["echo": 1_000_000], check: .higherIsBetter),
            Figure("recall.typo-insert.top20", typoRecall, unit: "%", check: .recall, goals: [.init(atLeast: 99)]),
            Figure("index.bytes", indexBytes, unit: "bytes", check: .lowerIsBetter),
        ])
    }

    /// The report written with `--out` and read back with `--baseline`.
    static func roundTrip(_ report: BenchmarkReport) throws -> BenchmarkReport {
        let path = NSTemporaryDirectory() + "pokesearch-bench-test-\(getpid())-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try report.encoded().write(to: URL(fileURLWithPath: path))
        return try BenchmarkReport.load(from: path)
    }

    @Test func anUnchangedResultsFilePasses() throws {
        let baseline = try Self.roundTrip(Self.report())
        #expect(baseline == Self.report())
        #expect(BaselineComparison.regressions(current: try Self.roundTrip(Self.report()), baseline: baseline).isEmpty)
    }

    @Test func oneRatioTwiceAsBadIsARegressionNamingTheFigure() throws {
        // The echo server answered twice as fast as before: the socket round trip is 2x worse relative to it.
        let current = try Self.roundTrip(Self.report(echo: 35))
        let regressions = BaselineComparison.regressions(current: current, baseline: try Self.roundTrip(Self.report()))
        #expect(regressions.map(\.figure) == ["socket.roundtrip.median vs echo"])
        let regression = try #require(regressions.first)
        #expect(regression.description.contains("socket.roundtrip.median vs echo"))
        #expect(regression.description.contains("2x worse"))
        #expect(abs(regression.current / regression.baseline - 2) < 1e-9)
    }

    @Test func aFigureWithSeveralReferencesRegressesWhenWorseAgainstAll() {
        // Only the naive reference ran faster this time: noise in one reference, not a regression.
        #expect(BaselineComparison.regressions(current: Self.report(searchNaive: 1_000), baseline: Self.report()).isEmpty)
        // Both ratios 2x worse: the search itself got slower.
        let regressions = BaselineComparison.regressions(current: Self.report(searchNaive: 1_000, searchFTS: 20), baseline: Self.report())
        #expect(regressions.map(\.figure) == ["search.mixed.median vs fts5", "search.mixed.median vs naive"])
    }

    @Test func halvedThroughputIsARegression() {
        let regressions = BaselineComparison.regressions(current: Self.report(pipelined: 125_000), baseline: Self.report())
        #expect(regressions.map(\.figure) == ["socket.pipelined vs echo"])
    }

    @Test func changesWithinTheToleranceAndUncheckedFiguresPass() {
        // 1.4x worse against a 1.5x tolerance; p99 is reported only; faster is never a regression.
        let current = Self.report(searchNaive: 2_000 / 1.4, searchFTS: 40 / 1.4, pipelined: 900_000, searchP99: 400)
        #expect(BaselineComparison.regressions(current: current, baseline: Self.report()).isEmpty)
        // The same change against a tighter tolerance is one.
        #expect(BaselineComparison.regressions(current: current, baseline: Self.report(), tolerance: 1.2).map(\.figure)
                == ["search.mixed.median vs fts5", "search.mixed.median vs naive"])
    }

    @Test func aFigureWithoutReferenceComparesItsValue() {
        let regressions = BaselineComparison.regressions(current: Self.report(indexBytes: 16e6), baseline: Self.report())
        #expect(regressions.map(\.figure) == ["index.bytes"])
    }

    @Test func recallMayNotDropByMoreThanAPoint() {
        #expect(BaselineComparison.regressions(current: Self.report(typoRecall: 99), baseline: Self.report()).isEmpty)
        let regressions = BaselineComparison.regressions(current: Self.report(typoRecall: 97), baseline: Self.report())
        #expect(regressions.map(\.figure) == ["recall.typo-insert.top20"])
    }

    @Test func figuresOnlyOneSideHasAreNotCompared() {
        var current = Self.report()
        current.figures.append(Figure("scale.10000.build", 500, unit: "ms", check: .lowerIsBetter))
        var baseline = Self.report()
        baseline.figures.removeAll { $0.name == "socket.pipelined" }
        #expect(BaselineComparison.regressions(current: current, baseline: baseline).isEmpty)
    }

    @Test func goalsAreJudgedOnValuesAndRatios() throws {
        let figure = try #require(Self.report()["search.mixed.median"])
        #expect(figure.goals.map { figure.meets($0) } == [true, true])
        let slow = try #require(Self.report(searchNaive: 60)["search.mixed.median"])
        #expect(slow.goals.map { slow.meets($0) } == [true, false])
        let recall = try #require(Self.report(typoRecall: 98)["recall.typo-insert.top20"])
        #expect(recall.goals.map { recall.meets($0) } == [false])
    }

    /// An `--engine` run times no reference, and a figure may fail to be read (a process's
    /// memory): such goals are not judged, rather than reported missed.
    @Test func goalsOfWhatWasNotMeasuredAreNotJudged() {
        let unmeasured = Figure("search.mixed.median", .nan, unit: "µs",
                                goals: [.init(atMost: 5), .init(atMost: 1.0 / 20, reference: "naive")])
        #expect(unmeasured.goals.map { unmeasured.meets($0) } == [nil, nil])
    }

    @Test func aFileThatIsNotAResultsFileIsAClearError() throws {
        let path = NSTemporaryDirectory() + "pokesearch-bench-test-\(getpid())-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "{\"figures\": 3}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: BenchmarkError.self) { try BenchmarkReport.load(from: path) }
        do {
            _ = try BenchmarkReport.load(from: path + ".missing")
            Issue.record("a missing file was read")
        } catch {
            #expect("\(error)".contains("cannot read \(path).missing"))
        }
    }
}
