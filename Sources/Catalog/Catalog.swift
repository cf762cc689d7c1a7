import Corpus
import Folding
import Foundation
import Index
import Query
import Store

public enum CatalogError: Error, CustomStringConvertible {
    case noBundledCorpus
    case missingDatabase(String)

    public var description: String {
        switch self {
        case .noBundledCorpus:
            return "cannot find the bundled corpus (corpus/names.tsv); set POKESEARCH_CORPUS to the corpus directory of a pokesearch checkout"
        case .missingDatabase(let path):
            return "no database at \(path); create it with `pokesearch ingest`"
        }
    }
}

/// An opened pokesearch database with its search engine: what every front end works on.
public final class Catalog {
    public let store: Store
    public let engine: SearchEngine
    public var index: IndexSnapshot { engine.index }
    public let isWritable: Bool

    init(store: Store, engine: SearchEngine, isWritable: Bool) {
        self.store = store
        self.engine = engine
        self.isWritable = isWritable
    }

    /// Opens the database at `path`. Storage first: with no database yet, ingests the
    /// bundled corpus (saying so with one line through `notice`) and goes on.
    /// `beforeLoadingIndex` is given the stored index's size in bytes before it is read (the
    /// CLI readies memory for it there: PokesearchCLI's IndexMemory).
    public static func open(path databasePath: String, beforeLoadingIndex: (_ bytes: Int) -> Void = { _ in },
                            notice: (String) -> Void) throws -> Catalog {
        let path = DatabaseFile.resolve(databasePath)
        if try DatabaseFile.inspect(path) != .database {
            guard let corpus = Paths.bundledCorpus() else { throw CatalogError.noBundledCorpus }
            notice("no database at \(path): building it from the bundled corpus (once)")
            _ = try Ingest.run(tables: try TSV.readCorpus(from: corpus), source: "bundled corpus", databasePath: path)
        }
        // Opened writable when it may be written, which also lets SQLite roll back a hot
        // journal an interrupted write left (a read-only connection cannot).
        var writable = true
        var store: Store
        if access(path, W_OK) == 0 {
            store = try Store(path: path)
        } else {
            writable = false
            store = try Store(path: path, readOnly: true)
        }
        if Int(store.meta("documents_version") ?? "1") ?? 1 < Documents.version {
            if writable {
                // Made by an older pokesearch: its documents again from its own corpus tables
                // (the source it was ingested from may be gone), its user data carried over.
                notice("the database at \(path) was made by an older pokesearch: rebuilding its search documents (once)")
                let tables = try store.readCorpusTables(), source = store.meta("source") ?? "the database's own corpus"
                _ = try Ingest.run(tables: tables, source: source, databasePath: path)
                store = try Store(path: path)
            } else {
                notice("the database at \(path) was made by an older pokesearch and is read-only: run `pokesearch ingest` where it can be written to search all of it")
            }
        }
        let index = try loadOrBuildIndex(store, beforeLoading: beforeLoadingIndex)
        if writable && index.rebuilt {
            // An index from another pokesearch version: keep the rebuilt one for next time.
            try? write(databasePath: path, opened: store, waitingAtMost: WriterLock.historyWait) { store in
                try store.database.transaction {
                    try store.writeIndexSnapshot(format: IndexSnapshot.formatVersion, bytes: index.snapshot.serialized())
                }
            }
        }
        if writable, (try? store.hasLookupIndexes()) == false {
            // A database from an older pokesearch: add the indexes details are read through.
            try? write(databasePath: path, opened: store, waitingAtMost: WriterLock.historyWait) { store in
                try store.database.transaction { try store.createLookupIndexes() }
            }
        }
        return Catalog(store: store, engine: SearchEngine(index: index.snapshot), isWritable: writable)
    }

    /// Writes user data (a favourite, the history) under the writer lock, waiting for it
    /// no longer than `WriterLock.userWait`. Should an ingest have swapped a new database
    /// in since this one was opened, the write goes to the new one.
    public func write<T>(_ body: (Store) throws -> T) throws -> T {
        try Self.write(databasePath: store.path, opened: store, waitingAtMost: WriterLock.userWait, body)
    }

    /// Records a search in the history of the database at `path`, through `opened` when
    /// it is still the file there. History is a convenience: it is skipped when another
    /// writer holds a lock for more than a moment, and never fails the search.
    public static func recordHistory(_ query: String, databasePath path: String, opened: Store?) {
        let path = DatabaseFile.resolve(path)
        guard access(path, W_OK) == 0 else { return }
        try? write(databasePath: path, opened: opened, waitingAtMost: WriterLock.historyWait) { store in
            store.database.setBusyTimeout(milliseconds: Int32(WriterLock.historyWait * 1000))
            try store.recordHistory(query)
        }
    }

    static func write<T>(databasePath path: String, opened: Store?, waitingAtMost seconds: Double,
                         _ body: (Store) throws -> T) throws -> T {
        try WriterLock.withLock(databasePath: path, waitingAtMost: seconds) {
            if let opened, !opened.database.fileHasMoved { return try body(opened) }
            return try body(try Store(path: path))
        }
    }

    /// The persisted index, or one rebuilt from the store when it is missing or from
    /// another format.
    public static func loadIndex(_ store: Store) throws -> IndexSnapshot {
        try loadOrBuildIndex(store).snapshot
    }

    static func loadOrBuildIndex(_ store: Store, beforeLoading: (_ bytes: Int) -> Void = { _ in })
        throws -> (snapshot: IndexSnapshot, rebuilt: Bool) {
        do {
            if let blob = try store.indexSnapshotBlob(format: IndexSnapshot.formatVersion) {
                beforeLoading(blob.count)
                if let snapshot = IndexSnapshot.deserialize(from: BlobSource(blob: blob)) { return (snapshot, false) }
            }
            return (try buildIndex(store), true)
        } catch {
            throw StoreError.from(error, path: store.path)
        }
    }

    /// Builds the index from the database's tables (what loading falls back to).
    public static func buildIndex(_ store: Store) throws -> IndexSnapshot {
        do {
            return IndexBuilder.build(IndexInput(entities: try store.readEntities(), names: try store.readFoldedNames(),
                                                 fields: try store.readFieldTexts(), corpus: try store.readCorpus()))
        } catch {
            throw StoreError.from(error, path: store.path)
        }
    }

    /// What answers `text:` and the move filters: a reader over this catalog's connection.
    public func databaseFilters() throws -> any DatabaseFilters { try DetailReader(store: store) }

    /// Favourite documents, for `is:fav`.
    public func favouriteDocs() -> Set<Int> {
        Set(((try? store.favourites()) ?? []).compactMap { index.doc(kind: $0.kind, slug: $0.slug) })
    }
}

/// A SQLite blob as a source of index bytes.
struct BlobSource: ByteSource {
    let blob: Blob
    var count: Int { blob.count }
    func read(into destination: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool { blob.read(into: destination, at: offset) }
}
