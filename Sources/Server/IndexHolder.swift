import Catalog
import Corpus
import Index
import Query
import Store
import Locking

/// One loaded index with what GET needs (a reader of entity details from the database the
/// index came from) and what STATS reports about it.
public final class LoadedIndex: Sendable {
    let engine: SearchEngine
    let resolver: EntityResolver
    let details: DetailReader
    /// Entities per kind, in kind order.
    let counts: [(kind: Kind, count: Int)]
    /// How long loading or rebuilding this index took.
    let loadMilliseconds: Double

    public var entityCount: Int { engine.index.docCount }

    init(engine: SearchEngine, details: DetailReader, loadMilliseconds: Double) {
        self.engine = engine
        resolver = EntityResolver(engine: engine)
        self.details = details
        var counts = Kind.allCases.map { (kind: $0, count: 0) }
        for raw in engine.index.docKind { counts[Int(raw)].count += 1 }
        self.counts = counts
        self.loadMilliseconds = loadMilliseconds
    }

    /// The index of the database at `databasePath` now (RELOAD, SIGHUP): the one stored with
    /// its tables at ingest (a few milliseconds), or, stored by another pokesearch version or
    /// not at all, rebuilt from the tables. Read-only, so that it never waits for or blocks a
    /// writer (but for rolling back an interrupted write first: `Store.openForReading`). The
    /// connection it read stays open for GET, so that details come from the same file as the
    /// index even if an ingest replaces it.
    static func reload(databasePath: String) throws -> LoadedIndex {
        let start = monotonicSeconds()
        let store = try Store.openForReading(path: databasePath)
        let index = try Catalog.loadIndex(store)
        return LoadedIndex(engine: SearchEngine(index: index), details: try DetailReader(store: store),
                           loadMilliseconds: (monotonicSeconds() - start) * 1000)
    }

    /// The index an opened catalog already has; GET reads details through its connection.
    public static func load(_ catalog: Catalog, loadMilliseconds: Double) throws -> LoadedIndex {
        LoadedIndex(engine: catalog.engine, details: try DetailReader(store: catalog.store), loadMilliseconds: loadMilliseconds)
    }
}

/// The index every request runs on. A reload swaps in a new one atomically: a request
/// runs entirely on the index it started with.
final class IndexHolder: Sendable {
    private let current: Locked<LoadedIndex>

    init(_ loaded: LoadedIndex) { current = Locked(loaded) }

    var loaded: LoadedIndex { current.withLock { $0 } }

    /// Swaps `loaded` in; returns the index it replaces.
    func replace(with loaded: LoadedIndex) -> LoadedIndex {
        current.withLock { current in
            defer { current = loaded }
            return current
        }
    }
}
