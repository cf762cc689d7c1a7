import BenchmarkSupport
import Foundation

/// The command line of pokesearch-bench.
struct Options {
    var quick = false
    /// Only the in-process engine: index build, query latency and recall (for iterating on the engine).
    var engineOnly = false
    /// Only the socket figures: server against echo, pipelined rates, server memory (for iterating on the server).
    var socketOnly = false
    /// With `engineOnly`: time only these workloads (to profile one kind of query).
    var workloads: Set<Workload> = []
    /// With `engineOnly`: time only the `text:` workload (`--workloads text`; it is not one of
    /// the query file's workloads).
    var textOnly = false
    /// Whether only some workloads are timed (ten times the rounds, one index build).
    var profiling: Bool { !workloads.isEmpty || textOnly }
    /// With `engineOnly`: list this many of the slowest queries of each operation.
    var slowest = 0
    var out: String?
    /// Print two results files side by side and exit (scripts/bench-compare.sh).
    var compare: (old: String, new: String)?
    var baseline: String?
    var tolerance = BaselineComparison.defaultTolerance
    var scales: [Int] = []
    var regenerateQueries = false
    /// With `regenerateQueries`: the workloads' seed (another seed gives another query set of
    /// the same kinds: scripts/pgo.sh trains on one, so the benchmark measures queries the
    /// profile has not seen).
    var seed = WorkloadGenerator.defaultSeed
    /// Pipelined runs of this many requests each instead of sized by time (a fixed amount of
    /// work, for a training run: scripts/pgo.sh).
    var pipelinedRequests: Int?
    /// A `pokesearch` binary to measure instead of building one (e.g. a static build, or an
    /// older one for an A/B comparison).
    var pokesearch: String?
    var queryFile = Options.benchmarksDirectory.appendingPathComponent("queries.tsv").path
    /// Internal: measure one synthetic corpus size in this process and print its figures as JSON.
    var scaleWorker: Int?
    var help = false

    /// Benchmarks/ of the checkout this was built from (this file is Benchmarks/pokesearch-bench/Options.swift).
    static let benchmarksDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let checkout = benchmarksDirectory.deletingLastPathComponent()

    static let usage = """
        usage: pokesearch-bench [--quick] [--engine [--workloads W,...] [--slowest N] | --socket] [--out FILE] [--baseline FILE [--tolerance X]] [--scale N[,N...]]
                                [--queries FILE] [--regenerate-queries [--seed N]] [--pokesearch PATH] [--pipelined-requests N]
               pokesearch-bench --compare OLD.json NEW.json
          --quick               fewer iterations, no scale runs: at most a minute (what CI runs)
          --engine              only the in-process figures: index build, latency, recall (no references,
                                socket or CLI; for iterating on the engine, not for --baseline)
          --workloads W[,W...]  with --engine: only these workloads' queries (e.g. typo-insert,whole-name), ten
                                times as many rounds, one index build: to profile one kind of query; `text`
                                alone times only the `text:` searches
          --slowest N           with --engine: also list the N queries of each operation with the highest
                                median time (the queries behind a p99), on stderr
          --socket              only the socket figures: round trip, pipelined rates (completions, PING, one
                                fixed completion), server memory (for iterating on the server, not for --baseline)
          --out FILE            write the results as JSON (with the machine, commit and build)
          --compare OLD NEW     print two results files' figures and ratios side by side, and exit
          --baseline FILE       compare ratios with a results file; exit 1 naming each regression
          --tolerance X         how much worse a ratio may get before it is a regression (default 1.5)
          --scale N[,N...]      also build and time synthetic corpora of N entities (e.g. 10000,100000,1000000)
          --queries FILE        the fixed query file (default Benchmarks/queries.tsv)
          --regenerate-queries  rewrite the query file from the corpus (seeded, deterministic) and exit
          --seed N              with --regenerate-queries: another seed, for another query set of the same
                                kinds (scripts/pgo.sh trains on one; the committed file keeps the default)
          --pokesearch PATH     measure this pokesearch binary (socket and one-shot figures) instead of building
                                one, e.g. `swift build -c release --static-swift-stdlib` as scripts/setup.sh installs it
          --pipelined-requests N
                                send N requests in each pipelined run instead of as many as fill its seconds:
                                the same work in every run (scripts/pgo.sh trains on it)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw BenchmarkError.usage("\(flag) needs a value; see --help") }
            return next
        }
        func count(_ text: String, _ flag: String) throws -> Int {
            guard let n = Int(text.replacingOccurrences(of: "_", with: "")), n >= 100 else {
                throw BenchmarkError.usage("\(flag) takes entity counts of at least 100, e.g. \(flag) 10000,100000; got '\(text)'")
            }
            return n
        }
        while let word = rest.popFirst() {
            switch word {
            case "--quick": options.quick = true
            case "--engine": options.engineOnly = true
            case "--socket": options.socketOnly = true
            case "--workloads":
                for name in try value(word).split(separator: ",") {
                    if name == "text" {
                        options.textOnly = true
                        continue
                    }
                    guard let workload = Workload(rawValue: String(name)) else {
                        let names = (Workload.allCases.map(\.rawValue) + ["text"]).joined(separator: " ")
                        throw BenchmarkError.usage("--workloads: no workload '\(name)' (workloads: \(names))")
                    }
                    options.workloads.insert(workload)
                }
            case "--slowest":
                let text = try value(word)
                guard let n = Int(text), n > 0 else { throw BenchmarkError.usage("--slowest takes a count of queries, e.g. 20; got '\(text)'") }
                options.slowest = n
            case "--out": options.out = try value(word)
            case "--compare": options.compare = (try value(word), try value(word))
            case "--baseline": options.baseline = try value(word)
            case "--tolerance":
                let text = try value(word)
                guard let tolerance = Double(text), tolerance >= 1 else {
                    throw BenchmarkError.usage("--tolerance takes a factor of at least 1 (e.g. 1.5); got '\(text)'")
                }
                options.tolerance = tolerance
            case "--scale":
                options.scales += try value(word).split(separator: ",").map { try count(String($0), word) }
            case "--queries": options.queryFile = try value(word)
            case "--pokesearch": options.pokesearch = try value(word)
            case "--regenerate-queries": options.regenerateQueries = true
            case "--seed":
                let text = try value(word)
                guard let seed = UInt64(text) else { throw BenchmarkError.usage("--seed takes a whole number, e.g. 7; got '\(text)'") }
                options.seed = seed
            case "--pipelined-requests":
                let text = try value(word)
                guard let n = Int(text.replacingOccurrences(of: "_", with: "")), n > 0 else {
                    throw BenchmarkError.usage("--pipelined-requests takes a count of requests, e.g. 200000; got '\(text)'")
                }
                options.pipelinedRequests = n
            case "--scale-worker": options.scaleWorker = try count(try value(word), word)
            case "--help", "-h": options.help = true
            default: throw BenchmarkError.usage("unknown option '\(word)'; see --help")
            }
        }
        if (options.engineOnly || options.socketOnly) && options.baseline != nil {
            throw BenchmarkError.usage("--engine and --socket leave out figures a baseline compares; run without them to compare")
        }
        if options.slowest > 0 && !options.engineOnly {
            throw BenchmarkError.usage("--slowest goes with --engine")
        }
        if options.textOnly && !options.workloads.isEmpty {
            throw BenchmarkError.usage("--workloads text times the text: searches alone; give it without other workloads")
        }
        if options.profiling && !options.engineOnly {
            throw BenchmarkError.usage("--workloads goes with --engine (the other figures need every workload)")
        }
        if options.engineOnly && options.socketOnly {
            throw BenchmarkError.usage("--engine and --socket each measure only one part; give one of them")
        }
        if options.seed != WorkloadGenerator.defaultSeed && !options.regenerateQueries {
            throw BenchmarkError.usage("--seed goes with --regenerate-queries (a run measures the queries of its query file)")
        }
        if options.quick && !options.scales.isEmpty {
            throw BenchmarkError.usage("--quick skips the scale runs; leave out --scale or --quick")
        }
        return options
    }
}
