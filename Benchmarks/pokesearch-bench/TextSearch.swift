import Catalog
import Query
import Store

/// The `text:` workload: full-text searches of the prose, alone and with other filters, as a
/// person asks them, answered in process by the engine with the store's FTS5 index (what
/// `pokesearch "text:…"` and the server do).
enum TextSearch {
    static let queries = [
        "text:paralyze", "text:paralyze kind:move type:electric", "text:\"speed by two stages\" text:raises", "text:recoil",
        "text:\"critical hit\"", "text:weather", "text:sandstorm kind:ability", "text:poison type:poison", "text:heals",
        "text:flinch", "text:berry", "text:\"never misses\"", "text:evolve", "text:trap kind:move", "text:confuse",
        "text:paralyser", "text:empoisonner", "text:sleep -type:psychic", "text:doubles", "text:contact kind:ability",
    ]

    /// Median and 99th percentile, in nanoseconds, of `rounds` passes over the queries.
    static func measure(engine: SearchEngine, store: Store, rounds: Int) throws -> Samples {
        var options = SearchOptions()
        options.database = try DetailReader(store: store)
        for query in queries { _ = try engine.search(query, options: options) } // warm: statements, pages
        var samples: [Double] = []
        for _ in 0..<rounds {
            for query in queries { samples.append(try timed { _ = try engine.search(query, options: options) }) }
        }
        return Samples(samples)
    }
}
