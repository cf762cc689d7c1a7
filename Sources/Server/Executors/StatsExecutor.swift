import Catalog
import Synchronization

/// What STATS reports about the server, read at one moment.
struct ServerCounters {
    let startedAt: Double
    var requests = 0
    var connections = 0
    var acceptedConnections = 0
    var reloads = 0
}

/// The counts behind STATS, kept by the accepting thread, every connection's thread and the
/// reload threads at once: atomic counters, so that counting a request takes no lock.
final class ServerActivity: Sendable {
    let startedAt: Double
    let requests = Atomic<Int>(0)
    let connections = Atomic<Int>(0)
    let acceptedConnections = Atomic<Int>(0)
    let reloads = Atomic<Int>(0)

    init(startedAt: Double) { self.startedAt = startedAt }

    var counters: ServerCounters {
        ServerCounters(startedAt: startedAt, requests: requests.load(ordering: .relaxed),
                       connections: connections.load(ordering: .relaxed),
                       acceptedConnections: acceptedConnections.load(ordering: .relaxed),
                       reloads: reloads.load(ordering: .relaxed))
    }
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
