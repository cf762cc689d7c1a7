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
public enum Ingest {
    /// `carry` writes more data into the new database (a sync's fresh HTTP responses) in
    /// the same transaction, after the previous database's user data has been copied.
    public static func run(tables: CorpusTables, source: String, databasePath path: String,
                           progress: ((String) -> Void)? = nil, carry: ((Store) throws -> Void)? = nil) throws -> IngestReport {
        let start = monotonicSeconds()
        let corpus = try Corpus(tables: tables)
        try ensureDirectory(for: path)
        return try WriterLock.withLock(databasePath: path) {
            removeLeftovers(of: path)
            // The database's writes are one thread's work, on this one; folding the names and
            // then building the index are done on others meanwhile (ICU's transliteration
            // leaves a core idle, SQLite another): about a fifth of an ingest.
            progress?("folding \(corpus.names.count) names")
            let folding = Pending { Documents(corpus: corpus) }
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
                    if let old = try openPrevious(path) {
                        try store.copyUserData(from: old)
                        carried = try old.favourites().count
                    }
                    try carry?(store)
                }
                try store.database.execute("PRAGMA optimize")
            } catch {
                unlink(temporary)
                unlink(temporary + "-journal")
                throw StoreError.from(error, path: temporary)
            }
            try syncFile(temporary)
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw StoreError.io("cannot move the new database into place at \(path): \(reason)")
            }
            syncDirectory(of: path)
            let documents = folding.value
            var counts: [Kind: Int] = [:]
            for e in documents.entities { counts[e.kind, default: 0] += 1 }
            return IngestReport(counts: counts, names: documents.names.count,
                                milliseconds: (monotonicSeconds() - start) * 1000, path: path, carriedFavourites: carried)
        }
    }

    /// The previous database, for its favourites and history. A damaged one is moved aside
    /// (never deleted) so that the rebuild can go on; one that cannot be read for another
    /// reason (locked by another program, unreadable) stops the ingest, as its user data
    /// would otherwise be left behind.
    static func openPrevious(_ path: String) throws -> Store? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let old = try Store(path: path, readOnly: true)
            _ = try old.favourites()
            return old
        } catch let error as StoreError where !error.isDamage {
            throw error
        } catch {
            let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970))"
            rename(path, aside)
            FileHandle.standardError.write(Data("pokesearch: the previous database could not be read (\(error)); kept it as \(aside)\n".utf8))
            return nil
        }
    }

    /// A stable identifier of the corpus content: FNV-1a over its tables.
    public static func corpusVersion(_ tables: CorpusTables) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for stem in CorpusTables.fileStems {
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

/// One writer at a time per database (ingest, favourites, history): an advisory lock on
/// `<database>.lock`, so that nothing written during an ingest is lost by its swap.
public enum WriterLock {
    public static func withLock<T>(databasePath: String, _ body: () throws -> T) throws -> T {
        let lockPath = databasePath + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io("cannot open the lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else {
            throw StoreError.io("cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
