import Catalog
import Corpus
import Index
import Query
import Store
import Synchronization

/// One loaded index with what STATS reports about it.
final class LoadedIndex: Sendable {
    let engine: SearchEngine
    /// Entities per kind, in kind order.
    let counts: [(kind: Kind, count: Int)]
    /// How long loading or rebuilding this index took.
    let loadMilliseconds: Double

    init(engine: SearchEngine, loadMilliseconds: Double) {
        self.engine = engine
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
        let index = try Catalog.buildIndex(store)
        return LoadedIndex(engine: SearchEngine(index: index),
                           loadMilliseconds: (monotonicSeconds() - start) * 1000)
    }
}

/// The index every request runs on. A reload swaps in a new one atomically: a request
/// runs entirely on the index it started with.
final class IndexHolder: Sendable {
    private let current: Mutex<LoadedIndex>

    init(_ loaded: LoadedIndex) { current = Mutex(loaded) }

    var loaded: LoadedIndex { current.withLock { $0 } }

    func replace(with loaded: LoadedIndex) { current.withLock { $0 = loaded } }
}
