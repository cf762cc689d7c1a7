import Corpus
import Folding
import Foundation
import Index
import Store
#if canImport(Glibc)
import Glibc
#endif

/// Counts and timings of one ingest.
public struct IngestReport: Sendable {
    public var counts: [Kind: Int]
    public var names: Int
    public var milliseconds: Double
    public var path: String
    public var carriedFavourites: Int
}

/// Builds the database from a corpus: aside, in a new file, then renamed over the old one,
/// so a reader sees the old database or the new one and never a half-built one, and a
/// kill at any instant leaves the previous database as it was.
///
/// Only one ingest runs at a time (the `IngestLock`); the writer lock is taken only to
/// swap, so that favourites and history written while the new database is built go to the
/// old one and are copied into the new one under that lock, just before it replaces it.
public enum Ingest {
    /// `carry` writes more data into the new database (a sync's fresh HTTP responses) in
    /// the same transaction, after the previous database's HTTP cache has been copied.
    public static func run(tables: CorpusTables, source: String, databasePath: String,
                           progress: ((String) -> Void)? = nil, carry: ((Store) throws -> Void)? = nil) throws -> IngestReport {
        let start = monotonicSeconds()
        let path = DatabaseFile.resolve(databasePath)
        let tables = tables.completed(source: source)
        let corpus = try Corpus(tables: tables)
        try ensureDirectory(for: path)
        return try IngestLock.withLock(databasePath: path) {
            removeLeftovers(of: path)
            // Refused before any work: what is at the path must be ours to replace.
            var previous = try Previous.open(path)
            // The user's synonyms are names of the new documents.
            let userSynonyms: [Synonym]
            if case .readable(let old, _) = previous { userSynonyms = (try? old.userSynonyms()) ?? [] } else { userSynonyms = [] }
            // The database's writes are one thread's work, on this one; folding the names and
            // then building the index are done on others meanwhile (ICU's transliteration
            // leaves a core idle, SQLite another): about a fifth of an ingest.
            progress?("folding \(corpus.names.count) names")
            let folding = Pending { Documents(corpus: corpus, userSynonyms: userSynonyms) }
            let temporary = path + ".ingest-\(getpid())"
            var carried = 0
            do {
                let store = try Store.create(at: temporary)
                progress?("writing the database")
                try store.database.transaction {
                    try store.writeCorpus(tables)
                    try store.createLookupIndexes()
                    let folded = folding.value
                    progress?("building the index")
                    let building = Pending {
                        IndexBuilder.build(folded.indexInput(corpus))
                    }
                    try store.writeEntities(folded.entities)
                    try store.writeFoldedNames(folded.names)
                    try store.writeFullText(names: folded.fullTextNames, fields: folded.fields)
                    try store.writeProse(folded.prose)
                    try store.writeIndexSnapshot(format: IndexSnapshot.formatVersion, bytes: building.value.serialized())
                    try store.setMeta("corpus_version", corpusVersion(tables))
                    try store.setMeta("documents_version", String(Documents.version))
                    try store.setMeta("source", source)
                    try store.setMeta("built_at", ISO8601DateFormatter().string(from: Date()))
                    if case .readable(let old, _) = previous { try store.copyHTTPCache(from: old) }
                    try carry?(store)
                }
                try store.database.execute("PRAGMA optimize")
                try syncFile(temporary)
                try WriterLock.withLock(databasePath: path, waitingAtMost: WriterLock.swapWait) {
                    // Under the writer lock nothing else writes the old database: what was
                    // written to it during the build is copied now, then the new one goes in.
                    previous = try Previous.open(path)
                    if case .readable(let old, _) = previous {
                        try store.database.transaction { try store.copyUserData(from: old) }
                        carried = try old.favourites().count
                    }
                    try syncFile(temporary)
                    if let attributes = previous.attributes { DatabaseFile.apply(attributes, to: temporary) }
                    if case .damaged(let error, _) = previous {
                        let aside = DatabaseFile.setAside(path)
                        FileHandle.standardError.write(Data("pokesearch: the previous database could not be read (\(error)); kept it as \(aside)\n".utf8))
                    }
                    previous = .none
                    guard rename(temporary, path) == 0 else {
                        throw StoreError.io("cannot move the new database into place at \(path): \(String(cString: strerror(errno)))")
                    }
                }
            } catch {
                unlink(temporary)
                unlink(temporary + "-journal")
                throw StoreError.from(error, path: temporary)
            }
            syncDirectory(of: path)
            let documents = folding.value
            var counts: [Kind: Int] = [:]
            for e in documents.entities { counts[e.kind, default: 0] += 1 }
            return IngestReport(counts: counts, names: documents.names.count,
                                milliseconds: (monotonicSeconds() - start) * 1000, path: path, carriedFavourites: carried)
        }
    }

    /// The database an ingest replaces. It is opened so that SQLite may write it, which
    /// rolls back a hot journal an interrupted write left beside it; it is replaced only
    /// when it is a pokesearch database that could be read (its user data is carried over)
    /// or a damaged SQLite file (kept aside with its journal). Anything else stops the
    /// ingest: what is not ours, what cannot be read, a newer schema, a lock held elsewhere.
    enum Previous {
        case none
        case empty(stat)
        case readable(Store, stat)
        case damaged(StoreError, stat)

        var attributes: stat? {
            switch self {
            case .none: return nil
            case .empty(let info), .readable(_, let info), .damaged(_, let info): return info
            }
        }

        static func open(_ path: String) throws -> Previous {
            let state = try DatabaseFile.inspect(path)
            guard state == .database, let info = DatabaseFile.attributes(of: path) else {
                setAsideOrphanJournal(of: path)
                return state == .empty ? DatabaseFile.attributes(of: path).map(Previous.empty) ?? .none : .none
            }
            do {
                let old = try Store(path: path, readOnly: access(path, W_OK) != 0)
                _ = try old.favourites()
                return .readable(old, info)
            } catch let error as StoreError where error.isDamage {
                return .damaged(error, info)
            } catch {
                throw StoreError.from(error, path: path)
            }
        }

        /// A journal with no database beside it (left by an older pokesearch that moved a
        /// database without it) would be rolled into the new database: moved aside, kept.
        static func setAsideOrphanJournal(of path: String) {
            let journal = path + "-journal"
            guard access(journal, F_OK) == 0 else { return }
            rename(journal, journal + ".orphaned-\(Int(Date().timeIntervalSince1970))")
        }
    }

    /// A stable identifier of the corpus content: FNV-1a over its tables.
    public static func corpusVersion(_ tables: CorpusTables) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for stem in CorpusTables.allStems {
            guard let table = tables.tables[stem] else { continue }
            for byte in TSV.encode(table).utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }

    static func ensureDirectory(for path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.io("cannot create the database directory \(directory): \(error.localizedDescription)")
        }
    }

    /// Temporary files of ingests that were killed (we hold the writer lock: none is running).
    static func removeLeftovers(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent + ".ingest-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        for entry in entries where entry.hasPrefix(base) {
            unlink((directory.isEmpty ? "" : directory + "/") + entry)
        }
    }

    static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw StoreError.io("cannot reopen \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io("cannot write \(path) to disk: \(String(cString: strerror(errno)))") }
    }

    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// A value made on another thread while this one goes on; `value` waits for it (read once
/// made, from any thread).
final class Pending<Value: Sendable>: @unchecked Sendable {
    private var made: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.made = make()
            self.done.signal()
        }
    }

    var value: Value {
        done.wait()
        defer { done.signal() }
        return made!
    }
}

/// One writer at a time per database (favourites, history, and an ingest while it swaps
/// its database in): an advisory lock on `<database>.lock`. Nobody holds it for long, so
/// nobody waits for it long: a writer that cannot have it within its wait gives up.
public enum WriterLock {
    /// A favourite added or removed, the history cleared: what a person waits for.
    public static let userWait = 2.0
    /// The history a search records at exit: a convenience, skipped rather than waited for.
    public static let historyWait = 0.1
    /// An ingest that has built its database and waits for the writes in progress to end.
    static let swapWait = 10.0

    public static func withLock<T>(databasePath: String, waitingAtMost seconds: Double, _ body: () throws -> T) throws -> T {
        try FileLock.withLock(databasePath + ".lock", waitingAtMost: seconds, busy: StoreError.writerBusy(path: databasePath), body)
    }
}

/// One ingest at a time per database, for the whole of its build: an advisory lock on
/// `<database>.ingest.lock`, waited for as long as the other ingest takes.
enum IngestLock {
    static func withLock<T>(databasePath: String, _ body: () throws -> T) throws -> T {
        try FileLock.withLock(databasePath + ".ingest.lock", waitingAtMost: nil, busy: StoreError.writerBusy(path: databasePath), body)
    }
}

/// An exclusive `flock` on a lock file, waited for at most a given time (nil: as long as
/// it takes).
enum FileLock {
    static func withLock<T>(_ lockPath: String, waitingAtMost seconds: Double?, busy: StoreError, _ body: () throws -> T) throws -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io("cannot open the lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let deadline = seconds.map { monotonicSeconds() + $0 }
        while flock(fd, deadline == nil ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StoreError.io("cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
            if let deadline {
                guard monotonicSeconds() < deadline else { throw busy }
                usleep(5_000)
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
