import BenchmarkSupport
import Catalog
import Corpus
import Foundation
import Index
import Query
import Store

/// How much of everything a run does: the full suite, or `--quick` (at most a minute).
struct Effort {
    var ingestRuns: Int
    var buildRuns: Int
    var latencyRounds: Int
    var naivePerWorkload: Int
    /// Queries per workload for the pre-folded scan and FTS5 references.
    var referencePerWorkload: Int
    var roundTrips: Int
    var pipelinedSeconds: Double
    var oneShotRuns: Int

    static let full = Effort(ingestRuns: 3, buildRuns: 10, latencyRounds: 20, naivePerWorkload: 8, referencePerWorkload: 60,
                             roundTrips: 20_000, pipelinedSeconds: 3, oneShotRuns: 40)
    static let quick = Effort(ingestRuns: 1, buildRuns: 5, latencyRounds: 6, naivePerWorkload: 1, referencePerWorkload: 20,
                              roundTrips: 5_000, pipelinedSeconds: 2, oneShotRuns: 20)
}

/// The whole run: ingest, index, in-process latency and recall with their references, the
/// socket server, the one-shot CLI, and the scale runs, into one report.
struct Suite {
    static let queriesPerWorkload = 200

    let options: Options
    var effort: Effort {
        var effort: Effort = options.quick ? .quick : .full
        if options.socketOnly {
            // Ingest and the index only to have a database and an engine to serve.
            effort.ingestRuns = 1
            effort.buildRuns = 1
        }
        if options.profiling {
            // Profiling a few workloads: one index is enough, and the queries take the time.
            effort.ingestRuns = 1
            effort.buildRuns = 1
            effort.latencyRounds *= 10
        }
        return effort
    }
    var figures: [Figure] = []

    init(options: Options) { self.options = options }

    static func corpusDirectory() throws -> URL {
        guard let directory = Paths.bundledCorpus() else {
            throw BenchmarkError.failed("cannot find the bundled corpus (corpus/names.tsv); set POKESEARCH_CORPUS")
        }
        return directory
    }

    static func regenerateQueries(into path: String, seed: UInt64) throws {
        let corpus = try Corpus(directory: try corpusDirectory())
        let queries = WorkloadGenerator(corpus: corpus, seed: seed).queries(perWorkload: queriesPerWorkload)
        try QueryFile.encode(queries).write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(queries.count) queries (\(Workload.allCases.count) workloads) to \(path)")
    }

    mutating func run() throws -> BenchmarkReport {
        let corpusDirectory = try Self.corpusDirectory()
        guard let queryText = try? String(contentsOfFile: options.queryFile, encoding: .utf8) else {
            throw BenchmarkError.failed("no query file at \(options.queryFile); write it with --regenerate-queries")
        }
        var queries = try QueryFile.decode(queryText, file: options.queryFile)
        if !options.workloads.isEmpty { queries.removeAll { !options.workloads.contains($0.workload) } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pokesearch-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("bench.sqlite").path
        let effort = self.effort
        progress("corpus \(corpusDirectory.path), \(queries.count) queries, \(options.quick ? "quick" : "full") run")

        // Ingest: corpus files → a new database.
        var ingestTimes: [Double] = []
        for _ in 0..<effort.ingestRuns {
            try? FileManager.default.removeItem(atPath: database)
            ingestTimes.append(try timed {
                _ = try Ingest.run(tables: try TSV.readCorpus(from: corpusDirectory), source: "bench", databasePath: database)
            })
        }
        progress("ingested")

        // The index: built by IndexBuilder, rebuilt from the database's tables (RELOAD), loaded persisted (CLI).
        let store = try Store(path: database, readOnly: true)
        var builds: [Double] = [], rebuilds: [Double] = [], loads: [Double] = []
        var index: IndexSnapshot?
        for _ in 0..<effort.buildRuns {
            var built: IndexSnapshot?
            rebuilds.append(try timed { built = try Catalog.buildIndex(store) })
            builds.append(built!.buildMilliseconds * 1e6)
            loads.append(try timed { _ = try Catalog.loadIndex(store) })
            index = built
        }
        let engine = SearchEngine(index: index!)
        let processResident = residentBytes() ?? .nan
        progress("index built")

        // In-process latency and recall.
        let completed = queries.filter(\.workload.isCompleted)
        if options.socketOnly {
            // The engine's own rate on the same completions, for the pipelined figure's reference.
            let complete = LatencyRun(queries: completed, rounds: 1, seed: WorkloadGenerator.defaultSeed) { _ = try engine.complete($0) }
            try socketFigures(pokesearch: try pokesearchExecutable(), database: database, directory: directory, engine: engine,
                              completed: completed, inProcessMean: complete.mixed.mean)
            return report()
        }
        if options.textOnly {
            try textFigures(engine: engine, database: database)
            return report()
        }
        let search = LatencyRun(queries: queries, rounds: effort.latencyRounds, seed: WorkloadGenerator.defaultSeed) { _ = try engine.search($0) }
        let complete = LatencyRun(queries: completed, rounds: effort.latencyRounds, seed: WorkloadGenerator.defaultSeed) { _ = try engine.complete($0) }
        for failure in Set(search.failures + complete.failures).sorted() { progress("warning: the engine rejects the query '\(failure)'") }
        let recall = Recall(queries: queries, engine: engine)
        try textFigures(engine: engine, database: database)
        progress("in-process latency measured")
        for (operation, run) in [("search", search), ("complete", complete)] where options.slowest > 0 {
            progress("slowest \(operation) queries (median over the rounds):")
            for (query, median) in run.slowest.prefix(options.slowest) {
                let time = String(format: "%9.1f", median / 1e3)
                progress("  \(time) µs  \(query.workload.rawValue)  \(query.text)")
            }
        }
        if options.engineOnly {
            figures.append(Figure("index.build", Samples(builds).median / 1e6, unit: "ms", check: .lowerIsBetter, goals: [.init(atMost: 150)]))
            figures.append(Figure("index.bytes", Double(engine.index.byteSize), unit: "bytes", check: .lowerIsBetter, goals: [.init(atMost: 16e6)]))
            figures.append(Figure("process.rss", processResident, unit: "bytes"))
            latencyFigures("search", search, references: [:], medianGoal: 5, p99Goal: 50)
            latencyFigures("complete", complete, references: [:], medianGoal: 2, p99Goal: nil)
            figures.append(Figure("recall.mixed.top20", recall.mixedTop20, unit: "%", check: .recall))
            return report()
        }

        // References on a seeded sample of each workload. Folding every name once is itself
        // the reference for ingest and the index build: the least work any search structure
        // over folded names needs.
        let entities = ReferenceEntities(corpus: try Corpus(directory: corpusDirectory))
        let folded = entities.folded() // (the first folding opens the transliterators)
        let foldAll = Samples((0..<3).map { _ in timed { _ = entities.folded() } }).median
        let naive = NaiveScan(entities: entities)
        let scan = PrefoldedScan(folded: folded)
        let fullText = try PrefixFullText(folded: folded)
        let referenceTimes: [String: LatencyRun] = [
            "naive": Self.referenceTimes(queries, perWorkload: effort.naivePerWorkload, rounds: 1) { _ = naive.search($0) },
            "scan": Self.referenceTimes(queries, perWorkload: effort.referencePerWorkload, rounds: 3) { _ = scan.search($0) },
            "fts5": Self.referenceTimes(queries, perWorkload: effort.referencePerWorkload, rounds: 3) { _ = try fullText.search($0) },
        ]
        progress("references measured")

        figures.append(Figure("ingest.time", Samples(ingestTimes).median / 1e6, unit: "ms", references: ["fold-all": foldAll / 1e6],
                              check: .lowerIsBetter, goals: [.init(atMost: 2000)]))
        figures.append(Figure("index.build", Samples(builds).median / 1e6, unit: "ms", references: ["fold-all": foldAll / 1e6],
                              check: .lowerIsBetter, goals: [.init(atMost: 150)]))
        figures.append(Figure("index.rebuild", Samples(rebuilds).median / 1e6, unit: "ms", references: ["fold-all": foldAll / 1e6]))
        figures.append(Figure("index.load", Samples(loads).median / 1e6, unit: "ms", references: ["fold-all": foldAll / 1e6]))
        figures.append(Figure("index.bytes", Double(engine.index.byteSize), unit: "bytes", check: .lowerIsBetter, goals: [.init(atMost: 16e6)]))
        figures.append(Figure("process.rss", processResident, unit: "bytes"))
        latencyFigures("search", search, references: referenceTimes, medianGoal: 5, p99Goal: 50)
        latencyFigures("complete", complete, references: referenceTimes, medianGoal: 2, p99Goal: nil)
        for workload in Workload.allCases {
            guard let top = recall.top20[workload], let first = recall.first[workload] else { continue }
            figures.append(Figure("recall.\(workload.rawValue).top20", top, unit: "%", check: .recall,
                                  goals: workload.hasRecallGoal ? [.init(atLeast: 99)] : []))
            figures.append(Figure("recall.\(workload.rawValue).first", first, unit: "%", check: .recall))
        }
        figures.append(Figure("recall.mixed.top20", recall.mixedTop20, unit: "%", check: .recall))
        for workload in Workload.allCases where workload.hasRecallGoal {
            for miss in (recall.misses[workload] ?? []).prefix(3) {
                progress("recall miss (\(workload.rawValue)): '\(miss.text)' should find \(miss.expected)")
            }
        }
        figures.append(Figure("reference.fold-all", foldAll / 1e6, unit: "ms"))
        figures.append(Figure("reference.naive.median", referenceTimes["naive"]!.mixed.median / 1e6, unit: "ms"))
        figures.append(Figure("reference.scan.median", referenceTimes["scan"]!.mixed.median / 1e3, unit: "µs"))
        figures.append(Figure("reference.fts5.median", referenceTimes["fts5"]!.mixed.median / 1e3, unit: "µs"))

        // Out of process: the socket server and the one-shot CLI.
        let pokesearch = try pokesearchExecutable()
        try socketFigures(pokesearch: pokesearch, database: database, directory: directory, engine: engine,
                          completed: completed, inProcessMean: complete.mixed.mean)

        let oneShot = try OneShot.run(pokesearch: pokesearch, database: database, runs: effort.oneShotRuns, directory: directory)
        figures.append(Figure("cli.oneshot.median", oneShot.search.median / 1e6, unit: "ms", references: ["swift-hello": oneShot.hello.median / 1e6],
                              check: .lowerIsBetter, goals: [.init(atMost: 25)]))
        figures.append(Figure("cli.oneshot.faults", oneShot.searchFaults.median, unit: "pages",
                              references: ["swift-hello": oneShot.helloFaults.median]))
        // A one-shot search copies the whole index into fresh memory: in 4 KB pages a fault
        // each, in the huge pages IndexMemory readies a handful. Its faults beyond
        // `--version`'s, against the index's size in 4 KB pages.
        figures.append(Figure("cli.oneshot.index-faults", oneShot.searchFaults.median - oneShot.versionFaults.median, unit: "pages",
                              references: ["index-pages": (Double(engine.index.byteSize) / 4096).rounded(.up)],
                              goals: transparentHugePagesAvailable ? [.init(atMost: 0.5, reference: "index-pages")] : []))
        progress("one-shot CLI measured")

        for entities in options.scales {
            progress("scale \(entities): generating, folding, building (a child process)")
            figures += try Self.scaleFigures(entities)
        }
        return report()
    }

    /// The `text:` workload's median and p99.
    mutating func textFigures(engine: SearchEngine, database: String) throws {
        // (Its own connection: the detail reader takes over the one it is given.)
        let text = try TextSearch.measure(engine: engine, store: try Store(path: database, readOnly: true), rounds: effort.latencyRounds)
        figures.append(Figure("search.text.median", text.median / 1e3, unit: "µs", check: .lowerIsBetter, goals: [.init(atMost: 100)]))
        figures.append(Figure("search.text.p99", text.percentile(99) / 1e3, unit: "µs"))
    }

    func report() -> BenchmarkReport {
        BenchmarkReport(quick: options.quick, machine: machineDescription(), date: ISO8601DateFormatter().string(from: Date()),
                        commit: checkoutCommit(), build: buildDescription(), figures: figures)
    }

    /// `pokesearch serve` against the echo server: round trip, pipelined throughput (the
    /// benchmark's completions, PING, and one fixed cheap completion) and the server's memory.
    mutating func socketFigures(pokesearch: String, database: String, directory: URL, engine: SearchEngine,
                                completed: [BenchmarkQuery], inProcessMean: Double) throws {
        let effort = self.effort
        let socket = try SocketBench.run(pokesearch: pokesearch, database: database, requests: completed.map(\.text),
                                         roundTrips: effort.roundTrips, pipelined: options.pipelinedRequests.map { .requests($0) }
                                             ?? .seconds(effort.pipelinedSeconds), directory: directory)
        figures.append(Figure("socket.roundtrip.median", socket.roundTrip.median / 1e3, unit: "µs",
                              references: ["echo": socket.echoRoundTrip.median / 1e3], check: .lowerIsBetter,
                              goals: [.init(atMost: 1.5, reference: "echo")]))
        figures.append(Figure("socket.roundtrip.p99", socket.roundTrip.p99 / 1e3, unit: "µs", references: ["echo": socket.echoRoundTrip.p99 / 1e3]))
        // The echo server's pipelined rate swings with socket buffering; the engine's own
        // rate on the same completions (one after another in process) is the steady reference.
        figures.append(Figure("socket.pipelined", socket.requestsPerSecond, unit: "req/s",
                              references: ["echo": socket.echoRequestsPerSecond, "in-process": 1e9 / inProcessMean],
                              check: .higherIsBetter, checking: ["in-process"], goals: [.init(atLeast: 200_000)]))
        // What the server itself costs per request: PING does no engine work; one fixed
        // completion does a little, measured in process too.
        let fixedCalls = 20_000
        let fixedNanoseconds = timed { for _ in 0..<fixedCalls { _ = try? engine.complete(SocketBench.fixedPrefix) } }
        figures.append(Figure("socket.pipelined.ping", socket.pingRequestsPerSecond, unit: "req/s",
                              references: ["echo": socket.echoRequestsPerSecond]))
        figures.append(Figure("socket.pipelined.fixed", socket.fixedRequestsPerSecond, unit: "req/s",
                              references: ["in-process": Double(fixedCalls) * 1e9 / fixedNanoseconds]))
        figures.append(Figure("socket.server.rss", socket.serverResidentBytes, unit: "bytes", check: .lowerIsBetter, goals: [.init(atMost: 40e6)]))
        figures.append(Figure("socket.server.rss.start", socket.serverResidentAtStart, unit: "bytes"))
        // The server's first index in huge pages, handed back when a RELOAD replaces it (the
        // new one is in 4 KB pages: see IndexMemory), without the server growing.
        let hugePages = transparentHugePagesAvailable
        figures.append(Figure("socket.server.hugepages.start", socket.serverHugePagesAtStart, unit: "bytes",
                              goals: hugePages ? [.init(atLeast: 8 * 1024 * 1024)] : []))
        figures.append(Figure("socket.server.hugepages.reloaded", socket.serverHugePagesReloaded, unit: "bytes",
                              goals: hugePages ? [.init(atMost: 0)] : []))
        figures.append(Figure("socket.server.rss.reloaded", socket.serverResidentReloaded, unit: "bytes",
                              references: ["before-reload": socket.serverResidentBytes],
                              goals: hugePages ? [.init(atMost: 1.1, reference: "before-reload")] : []))
        progress("socket measured (servers on CPU \(socket.serverCPU))")
    }

    /// The references a goal is stated against and a regression judged by: the strongest,
    /// the pre-folded scan and unranked FTS5 (the naive scan is reported beside them).
    static let strongReferences = ["scan", "fts5"]

    /// Median, p99 and p99.9 per workload and mixed, each with its ratio to the references'
    /// median on the same workload (medians gate regressions; the tails are reported).
    mutating func latencyFigures(_ operation: String, _ run: LatencyRun, references runs: [String: LatencyRun],
                                 medianGoal: Double, p99Goal: Double?) {
        func add(_ label: String, _ samples: Samples, _ referenceMedians: [String: Double], mixed: Bool) {
            // (No reference where none was timed: `--engine` runs time none.)
            let references = referenceMedians.filter(\.value.isFinite).mapValues { $0 / 1e3 }
            var medianGoals: [Figure.Goal] = []
            if mixed {
                medianGoals.append(.init(atMost: medianGoal))
                // The speed-up goals (search), on the same queries: at least 20x the
                // pre-folded scan and 3x unranked FTS5.
                if operation == "search" { medianGoals += [.init(atMost: 1.0 / 20, reference: "scan"), .init(atMost: 1.0 / 3, reference: "fts5")] }
            }
            // Only the mixed medians gate (against both strong references at once);
            // per-workload medians move too much between runs.
            figures.append(Figure("\(operation).\(label).median", samples.median / 1e3, unit: "µs", references: references,
                                  check: mixed ? .lowerIsBetter : .none, checking: Self.strongReferences, goals: medianGoals))
            figures.append(Figure("\(operation).\(label).p99", samples.p99 / 1e3, unit: "µs", references: references,
                                  goals: mixed ? p99Goal.map { [.init(atMost: $0)] } ?? [] : []))
            figures.append(Figure("\(operation).\(label).p999", samples.p999 / 1e3, unit: "µs", references: references))
        }
        for workload in Workload.allCases {
            guard let samples = run.byWorkload[workload] else { continue }
            add(workload.rawValue, samples, runs.compactMapValues { $0.byWorkload[workload]?.median }, mixed: false)
        }
        add("mixed", run.mixed, runs.mapValues(\.mixed.median), mixed: true)
    }

    /// A reference timed on the first `perWorkload` queries of each workload in a seeded
    /// shuffle (the references are slow; a sample of each workload gives their medians).
    static func referenceTimes(_ queries: [BenchmarkQuery], perWorkload: Int, rounds: Int, _ operation: (String) throws -> Void) -> LatencyRun {
        var random = SplitMix64.stream("reference-sample", seed: WorkloadGenerator.defaultSeed)
        var sample: [BenchmarkQuery] = []
        for workload in Workload.allCases {
            var ofWorkload = queries.filter { $0.workload == workload }
            random.shuffle(&ofWorkload)
            sample += ofWorkload.prefix(perWorkload)
        }
        return LatencyRun(queries: sample, rounds: rounds, seed: WorkloadGenerator.defaultSeed, operation)
    }

    /// `--pokesearch PATH`, else the release `pokesearch` beside this executable, built (or
    /// brought up to date) first.
    func pokesearchExecutable() throws -> String {
        guard let given = options.pokesearch else { return try Self.builtPokesearch() }
        guard FileManager.default.isExecutableFile(atPath: given) else { throw BenchmarkError.failed("no executable at \(given) (--pokesearch)") }
        progress("measuring \(given) (--pokesearch)")
        return given
    }

    static func builtPokesearch() throws -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let sibling = executable.deletingLastPathComponent().appendingPathComponent("pokesearch").path
        // Built as this bench was (same configuration, same Swift runtime linking), so the two
        // share one build directory instead of each rebuilding the other's modules.
        let configuration = executable.deletingLastPathComponent().lastPathComponent.contains("debug") ? "debug" : "release"
        let command = ["swift", "build", "-c", configuration] + (Self.staticSwiftRuntime ? ["--static-swift-stdlib"] : [])
            + ["--product", "pokesearch"]
        progress("building pokesearch (\(command.joined(separator: " ")))")
        try Processes.run(command, in: Options.checkout)
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw BenchmarkError.failed("no pokesearch executable at \(sibling) after building it")
        }
        return sibling
    }

    /// Whether this process has the Swift runtime linked in (`--static-swift-stdlib`, as
    /// `scripts/setup.sh` builds pokesearch) rather than loaded from libswiftCore.so.
    static let staticSwiftRuntime: Bool = {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return false }
        return !maps.contains("libswiftCore.so")
    }()

    /// Runs `--scale-worker N` in a child process and reads its figures.
    static func scaleFigures(_ entities: Int) throws -> [Figure] {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let output = try Processes.run([executable, "--scale-worker", "\(entities)"])
        guard let start = output.firstIndex(of: "{"),
              let report = try? JSONDecoder().decode(BenchmarkReport.self, from: Data(output[start...].utf8)) else {
            throw BenchmarkError.failed("the scale run for \(entities) entities gave no results: \(output.suffix(500))")
        }
        return report.figures
    }
}

/// A progress line on stderr (stdout carries the table).
func progress(_ message: String) {
    FileHandle.standardError.write(Data("pokesearch-bench: \(message)\n".utf8))
}
