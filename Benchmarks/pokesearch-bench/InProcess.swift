import BenchmarkSupport
import Foundation
import Query

/// Latencies of one operation over a query set: every query timed on its own, in a seeded
/// shuffled order each round (so the mixed workload sees realistic cache states), after
/// one warm-up round.
struct LatencyRun {
    var byWorkload: [Workload: Samples]
    var mixed: Samples
    /// Queries the operation threw on (a malformed generated query would show here).
    var failures: [String]
    /// Each query with its median time, slowest first: which queries make a p99.
    var slowest: [(query: BenchmarkQuery, median: Double)]

    /// No measurements (a reference left out of the run).
    static let empty = LatencyRun(queries: [], rounds: 0, seed: 0) { _ in }

    init(queries: [BenchmarkQuery], rounds: Int, seed: UInt64, _ operation: (String) throws -> Void) {
        var failed = Set<String>()
        for query in queries where (try? operation(query.text)) == nil { failed.insert(query.text) }
        var samples = [[Double]](repeating: [], count: Workload.allCases.count)
        var perQuery = [[Double]](repeating: [], count: queries.count)
        var order = Array(queries.indices)
        var random = SplitMix64(seed: seed)
        for _ in 0..<rounds {
            random.shuffle(&order)
            for index in order {
                let query = queries[index]
                let nanoseconds = timed { _ = try? operation(query.text) }
                samples[query.workload.position].append(nanoseconds)
                perQuery[index].append(nanoseconds)
            }
        }
        var byWorkload: [Workload: Samples] = [:]
        for workload in Workload.allCases where !samples[workload.position].isEmpty {
            byWorkload[workload] = Samples(samples[workload.position])
        }
        self.byWorkload = byWorkload
        mixed = Samples(samples.flatMap { $0 })
        failures = failed.sorted()
        slowest = rounds == 0 ? [] : zip(queries, perQuery).map { ($0, Samples($1).median) }.sorted { $0.median > $1.median }
    }
}

extension Workload {
    var position: Int { Workload.allCases.firstIndex(of: self)! }
}

/// Recall: how often the entity a query was made from is in the top 20, and first.
struct Recall {
    var top20: [Workload: Double] = [:]
    var first: [Workload: Double] = [:]
    var mixedTop20 = 0.0
    /// Examples of misses per workload, for the report.
    var misses: [Workload: [BenchmarkQuery]] = [:]

    init(queries: [BenchmarkQuery], engine: SearchEngine) {
        var inTop = [Workload: Int](), atFirst = [Workload: Int](), total = [Workload: Int]()
        for query in queries {
            total[query.workload, default: 0] += 1
            let results = (try? engine.search(query.text)).map { Array($0.results) } ?? []
            let keys = results.map { "\($0.kind.rawValue):\($0.slug)" }
            if let position = keys.firstIndex(of: query.expected) {
                inTop[query.workload, default: 0] += 1
                if position == 0 { atFirst[query.workload, default: 0] += 1 }
            } else {
                misses[query.workload, default: []].append(query)
            }
        }
        for (workload, count) in total {
            top20[workload] = 100 * Double(inTop[workload] ?? 0) / Double(count)
            first[workload] = 100 * Double(atFirst[workload] ?? 0) / Double(count)
        }
        mixedTop20 = 100 * Double(inTop.values.reduce(0, +)) / Double(max(1, queries.count))
    }
}
