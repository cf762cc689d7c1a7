import Catalog
import Corpus
import Index
import Query
import Store
import Locking

/// One loaded index with what GET needs (the details of every entity) and what STATS
/// reports about it.
public final class LoadedIndex: Sendable {
    let engine: SearchEngine
    let resolver: EntityResolver
    let pokedex: Pokedex
    /// Entities per kind, in kind order.
    let counts: [(kind: Kind, count: Int)]
    /// How long loading or rebuilding this index took.
    let loadMilliseconds: Double

    init(engine: SearchEngine, corpus: Corpus, loadMilliseconds: Double) {
        self.engine = engine
        resolver = EntityResolver(engine: engine)
        pokedex = Pokedex(corpus: corpus, index: engine.index)
        var counts = Kind.allCases.map { (kind: $0, count: 0) }
        for raw in engine.index.docKind { counts[Int(raw)].count += 1 }
        self.counts = counts
        self.loadMilliseconds = loadMilliseconds
    }

    /// Rebuilds the index from the database's tables (RELOAD, SIGHUP), read-only so that it
    /// never waits for or blocks a writer.
    static func rebuild(databasePath: String) throws -> LoadedIndex {
        let start = monotonicSeconds()
        let store = try Store(path: databasePath, readOnly: true)
        let corpus = try store.readCorpus()
        let index = try Catalog.buildIndex(store, corpus: corpus)
        return LoadedIndex(engine: SearchEngine(index: index), corpus: corpus,
                           loadMilliseconds: (monotonicSeconds() - start) * 1000)
    }

    /// The index an opened catalog already has, with its corpus for GET.
    public static func load(_ catalog: Catalog, loadMilliseconds: Double) throws -> LoadedIndex {
        LoadedIndex(engine: catalog.engine, corpus: try catalog.store.readCorpus(), loadMilliseconds: loadMilliseconds)
    }
}

/// The index every request runs on. A reload swaps in a new one atomically: a request
/// runs entirely on the index it started with.
final class IndexHolder: Sendable {
    private let current: Locked<LoadedIndex>

    init(_ loaded: LoadedIndex) { current = Locked(loaded) }

    var loaded: LoadedIndex { current.withLock { $0 } }

    func replace(with loaded: LoadedIndex) { current.withLock { $0 = loaded } }
}
