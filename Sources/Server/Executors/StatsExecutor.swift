import Catalog

/// What the server counts while it runs, for STATS.
struct ServerCounters {
    let startedAt: Double
    var requests = 0
    var connections = 0
    var acceptedConnections = 0
    var reloads = 0
}

/// STATS → entity counts, index build time, uptime, requests served, connections.
enum StatsExecutor {
    static func run(loaded: LoadedIndex, counters: ServerCounters, now: Double, databasePath: String, into out: ByteBuffer) {
        let entities = JSONText.object(loaded.counts.map { ($0.kind.rawValue, String($0.count)) })
        Response.ok([
            ("entities", entities),
            ("index_build_ms", JSONText.number((loaded.loadMilliseconds * 10).rounded() / 10)),
            ("uptime_s", JSONText.number(((now - counters.startedAt) * 10).rounded() / 10)),
            ("requests", String(counters.requests)),
            ("connections", String(counters.connections)),
            ("connections_total", String(counters.acceptedConnections)),
            ("reloads", String(counters.reloads)),
            ("database", JSONText.string(databasePath)),
        ], into: out)
    }
}
