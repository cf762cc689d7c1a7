import Corpus
import Folding
import Foundation

/// What went wrong with the database, worded for the person who has to fix it.
public enum StoreError: Error, CustomStringConvertible {
    case corrupt(path: String, detail: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case notPokesearch(path: String)
    case sqlite(SQLiteError)
    case io(String)
    /// Another program holds the database's write lock past the busy timeout.
    case locked(path: String)
    /// Writing failed: the disk is full, a file size limit was reached, or the device failed.
    case cannotWrite(path: String, detail: String)
    /// Something that is not a database sits at the path (`what`: "a directory", "a
    /// device", "a file that is not a SQLite database"…): pokesearch leaves it alone.
    case notADatabase(path: String, what: String)
    /// The file cannot be read (its permissions), so it cannot be replaced without losing
    /// what it holds.
    case unreadable(path: String, reason: String)
    /// An interrupted write left a hot journal that only a connection that may write the
    /// file can roll back.
    case hotJournal(path: String)
    /// Another pokesearch holds the writer lock (an ingest swapping its database in).
    case writerBusy(path: String)

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            return "database \(path) is damaged (\(detail)); rebuild it with `pokesearch ingest` (favourites in it may be lost)"
        case .newerSchema(let path, let found, let supported):
            return "database \(path) has schema version \(found), newer than this pokesearch supports (\(supported)); upgrade pokesearch or use another --db"
        case .notPokesearch(let path):
            return "\(path) is a SQLite database but not a pokesearch one; choose another --db path"
        case .sqlite(let error):
            return "database error: \(error)"
        case .io(let message):
            return message
        case .locked(let path):
            return "database \(path) is locked by another program (still after 5 s); try again when it has finished"
        case .cannotWrite(let path, let detail):
            return "cannot write \(path): \(detail); free disk space (or raise the file size limit) and try again"
        case .notADatabase(let path, let what):
            return "\(path) is \(what), not a pokesearch database; pokesearch leaves it alone: move it away or choose another --db path"
        case .unreadable(let path, let reason):
            return "cannot read the database \(path) (\(reason)); pokesearch will not replace what it cannot read: fix its permissions or choose another --db path"
        case .hotJournal(let path):
            return "database \(path) has an interrupted write to roll back (\(path)-journal) and cannot be written here; run pokesearch once as a user who can write the file and its directory"
        case .writerBusy(let path):
            return "database \(path) is being written by another pokesearch (an ingest swapping in its new database); try again in a moment"
        }
    }

    /// Whether the file is a damaged SQLite database (ingest keeps it aside, with its
    /// journal, and rebuilds), rather than something that is not ours, a lock held elsewhere
    /// or a failing disk, which stop an ingest.
    public var isDamage: Bool {
        if case .corrupt = self { return true }
        return false
    }

    /// Wraps an error from SQLite, recognising a damaged file, a lock and a failed write.
    public static func from(_ error: Error, path: String) -> Error {
        guard let sqlite = error as? SQLiteError else { return error }
        if sqlite.isCorruption { return StoreError.corrupt(path: path, detail: sqlite.message) }
        if sqlite.isBusy { return StoreError.locked(path: path) }
        if sqlite.isHotJournalReadOnly { return StoreError.hotJournal(path: path) }
        if sqlite.isWriteFailure { return StoreError.cannotWrite(path: path, detail: sqlite.message) }
        return StoreError.sqlite(sqlite)
    }
}

public struct Favourite: Sendable, Equatable {
    public var kind: Kind
    public var slug: String
    public var addedAt: Double
}

/// The pokesearch database: the corpus, its folded names and FTS5 index, the persisted
/// in-memory index, and the user's favourites and history. See docs/STORAGE.md.
public final class Store {
    public let database: Database
    public let path: String

    /// Opens an existing pokesearch database, migrating an older schema when writable.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        do {
            database = try Database(path: path, mode: readOnly ? .readOnly : .readWrite)
            // Reads through mmap: the index blob is megabytes of overflow pages.
            try database.execute("PRAGMA mmap_size = 268435456")
            try checkSchema(readOnly: readOnly)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// Opens an existing database for reading only (the server's index and details, a sync's
    /// previous database). SQLite lets nobody read past a hot journal (an interrupted write
    /// to roll back) and only a connection that may write the file can roll it back: when this
    /// process may write it, a writable connection is opened once to do so; else the error is
    /// `hotJournal`, saying what to do.
    public static func openForReading(path: String) throws -> Store {
        do {
            return try Store(path: path, readOnly: true)
        } catch StoreError.hotJournal where access(path, W_OK) == 0 {
            do {
                // Reading the schema rolls the journal back (no migration: a raw connection).
                try Database(path: path, mode: .readWrite).execute("SELECT count(*) FROM sqlite_master")
            } catch {
                throw StoreError.from(error, path: path)
            }
            return try Store(path: path, readOnly: true)
        }
    }

    private init(creating path: String) throws {
        self.path = path
        database = try Database(path: path, mode: .create)
        try database.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF;")
        try database.transaction {
            try database.execute(Schema.create)
            try setMeta("schema_version", String(Schema.version))
        }
    }

    /// Creates a new, empty database at `path` (which must not exist).
    public static func create(at path: String) throws -> Store {
        do { return try Store(creating: path) } catch { throw StoreError.from(error, path: path) }
    }

    private func checkSchema(readOnly: Bool) throws {
        // Reading sqlite_master also proves the file is a database at all.
        let hasMeta = try database.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        guard !hasMeta.isEmpty, let version = meta("schema_version").flatMap(Int.init) else {
            throw StoreError.notPokesearch(path: path)
        }
        if version > Schema.version { throw StoreError.newerSchema(path: path, found: version, supported: Schema.version) }
        if version < Schema.version && !readOnly {
            try database.transaction {
                for step in version..<Schema.version {
                    if let sql = Schema.migrations[step] { try database.execute(sql) }
                }
                try setMeta("schema_version", String(Schema.version))
            }
        }
    }

    // MARK: Metadata

    public func meta(_ key: String) -> String? {
        (try? database.rows("SELECT value FROM meta WHERE key = ?", .text(key)))?.first?.first?.textValue
    }

    public func setMeta(_ key: String, _ value: String) throws {
        try database.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                         .text(key), .text(value))
    }

    // MARK: Corpus

    /// Writes every corpus table (call inside a transaction when building).
    public func writeCorpus(_ corpus: CorpusTables) throws {
        for table in Schema.corpusTables {
            // (A table or column added in version 3 may be missing from a corpus made
            // before it: written empty, as are the optional tables `CorpusTables.table` reads.)
            let added = Schema.addedColumns[table.name] ?? []
            guard let source = corpus.tables[table.name] ?? (Schema.addedTables.contains { $0.name == table.name } ? Table(columns: []) : nil)
                    ?? (try? corpus.table(table.name))
            else { throw CorpusError.missingFile("\(table.name).tsv") }
            let positions = try table.columns.map { column -> Int? in
                if added.contains(where: { $0.0 == column.0 }) && !source.columns.contains(column.0) { return nil }
                return try source.index(of: column.0, in: "\(table.name).tsv")
            }
            let columns = table.columns.map { "\"\($0.0)\"" }.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
            let insert = try database.prepare("INSERT INTO \(table.name) (\(columns)) VALUES (\(placeholders))")
            for row in source.rows {
                try insert.run(zip(positions, table.columns).map { position, column in
                    guard let position else { return .null }
                    let text = row[position]
                    if text.isEmpty { return .null }
                    if column.1 == "INTEGER", let number = Int64(text) { return .integer(number) }
                    return .text(text)
                })
            }
        }
    }

    /// Reads the corpus tables back, exactly as they were written.
    public func readCorpusTables() throws -> CorpusTables {
        var tables: [String: Table] = [:]
        for table in Schema.corpusTables {
            let columns = table.columns.map { "\"\($0.0)\"" }.joined(separator: ", ")
            let select = try database.prepare("SELECT \(columns) FROM \(table.name) ORDER BY rowid")
            var result = Table(columns: table.columns.map(\.0))
            while try select.step() {
                result.rows.append((0..<table.columns.count).map { select.text($0) ?? "" })
            }
            tables[table.name] = result
        }
        return CorpusTables(tables: tables)
    }

    /// Whether the indexes for reading one entity's details are all there (a database made
    /// by an older pokesearch lacks them).
    public func hasLookupIndexes() throws -> Bool {
        let present = try database.rows("SELECT name FROM sqlite_master WHERE type = 'index'").compactMap { $0.first?.textValue }
        return Schema.lookupIndexes.allSatisfy { present.contains($0.name) }
    }

    /// Adds the missing lookup indexes (a writer: take the `WriterLock`, and a transaction).
    public func createLookupIndexes() throws {
        for index in Schema.lookupIndexes { try database.execute(index.sql) }
    }

    /// Each corpus table's name and columns, in corpus file order.
    public static var corpusTableColumns: [(name: String, columns: [String])] {
        Schema.corpusTables.map { ($0.name, $0.columns.map(\.0)) }
    }

    /// A prepared query for the rows of one lookup's corpus table that match its condition,
    /// in the order they were written.
    public func corpusRows(_ lookup: CorpusLookup) throws -> CorpusRowQuery {
        guard let schema = Schema.corpusTables.first(where: { $0.name == lookup.table }) else {
            preconditionFailure("\(lookup.table) is not a corpus table")
        }
        let columns = schema.columns.map { "\"\($0.0)\"" }.joined(separator: ", ")
        let statement = try database.prepare("SELECT rowid, \(columns) FROM \(schema.name) WHERE \(lookup.condition) ORDER BY rowid")
        return CorpusRowQuery(table: schema.name, columns: schema.columns.map(\.0), statement: statement)
    }

    public func writeEntities(_ entities: [Entity]) throws {
        let insert = try database.prepare("INSERT INTO entity (doc, kind, id, slug) VALUES (?, ?, ?, ?)")
        for e in entities { try insert.run([.integer(Int64(e.doc)), .text(e.kind.rawValue), .integer(Int64(e.id)), .text(e.slug)]) }
    }

    public func readEntities() throws -> [Entity] {
        let select = try database.prepare("SELECT doc, kind, id, slug FROM entity ORDER BY doc")
        var rows: [Entity] = []
        while try select.step() {
            guard let kind = Kind(rawValue: select.text(1) ?? "") else { continue }
            rows.append(Entity(doc: select.int(0), kind: kind, id: select.int(2), slug: select.text(3) ?? ""))
        }
        return rows
    }

    public func writeFoldedNames(_ names: [FoldedName]) throws {
        let insert = try database.prepare(
            "INSERT INTO folded_name (doc, lang, raw, folded, compact, translit) VALUES (?, ?, ?, ?, ?, ?)")
        for n in names {
            try insert.run([.integer(Int64(n.doc)), .text(n.language), .text(n.raw), .text(n.folded), .text(n.compact),
                            n.translit.map(SQLValue.text) ?? .null])
        }
    }

    public func readFoldedNames() throws -> [FoldedName] {
        let select = try database.prepare("SELECT doc, lang, raw, folded, compact, translit FROM folded_name ORDER BY rowid")
        var rows: [FoldedName] = []
        while try select.step() {
            rows.append(FoldedName(doc: select.int(0), language: select.text(1) ?? "", raw: select.text(2) ?? "",
                                      folded: select.text(3) ?? "", compact: select.text(4) ?? "", translit: select.text(5)))
        }
        return rows
    }

    /// Fills the FTS5 tables: one row per (document, text).
    public func writeFullText(names: [(doc: Int, text: String)], fields: [(doc: Int, text: String)]) throws {
        let insertName = try database.prepare("INSERT INTO name_fts (text, doc) VALUES (?, ?)")
        for row in names { try insertName.run([.text(row.text), .integer(Int64(row.doc))]) }
        let insertField = try database.prepare("INSERT INTO field_fts (text, doc) VALUES (?, ?)")
        for row in fields { try insertField.run([.text(row.text), .integer(Int64(row.doc))]) }
    }

    /// Documents whose names contain `folded` (at least 3 characters), by FTS5 trigram.
    public func fullTextNameMatches(_ folded: String) throws -> Set<Int> {
        try docs("SELECT DISTINCT doc FROM name_fts WHERE name_fts MATCH ?", ftsPhrase(folded))
    }

    /// Documents with a field word starting with `folded`, by FTS5 prefix query.
    public func fullTextFieldMatches(_ folded: String) throws -> Set<Int> {
        try docs("SELECT DISTINCT doc FROM field_fts WHERE field_fts MATCH ?", ftsPhrase(folded) + " *")
    }

    /// Fills the prose index: one row per document and language, its prose folded
    /// (`Documents.prose`), each with the rowid `ProseRowID` makes.
    public func writeProse(_ rows: [(doc: Int, language: String, text: String)]) throws {
        let tokens = try database.fts5TokenCounter(Schema.proseTokenizer)
        let insert = try database.prepare("INSERT INTO prose_fts (rowid, text, doc, lang) VALUES (?, ?, ?, ?)")
        var rowsOfDoc: [Int: Int] = [:]
        var totals = Bm25.Totals(rows: 0, tokens: 0)
        for row in rows {
            let ordinal = rowsOfDoc[row.doc, default: 0]
            rowsOfDoc[row.doc] = ordinal + 1
            let count = try tokens.count(row.text)
            guard let rowid = ProseRowID(doc: row.doc, tokens: count, ordinal: ordinal) else {
                throw StoreError.io("the prose of document \(row.doc) does not fit the prose index (too long, or too many languages)")
            }
            try insert.run([.integer(rowid.raw), .text(row.text), .integer(Int64(row.doc)), .text(row.language)])
            totals.rows += 1
            totals.tokens += count
        }
        try setMeta(ProseRowID.metaKey, ProseRowID.layout)
        try setMeta(Bm25.Totals.metaKey, totals.metaValue)
    }

    /// A prepared query of the prose index (`ProseQuery`), kept by a reader to run many.
    public func proseQuery() throws -> ProseQuery {
        guard meta(ProseRowID.metaKey) == ProseRowID.layout, let totals = meta(Bm25.Totals.metaKey).flatMap({ Bm25.Totals(metaValue: $0) }) else {
            // Written before its rowids said the document and size: FTS5's own bm25.
            return ProseQuery(try database.prepare("SELECT doc, bm25(prose_fts) FROM prose_fts WHERE prose_fts MATCH ?"), totals: nil)
        }
        try database.registerFTS5Instances()
        return ProseQuery(try database.prepare("SELECT rowid, pokesearch_instances(prose_fts) FROM prose_fts WHERE prose_fts MATCH ?"),
                          totals: totals)
    }

    private func ftsPhrase(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private func docs(_ sql: String, _ argument: String) throws -> Set<Int> {
        let select = try database.prepare(sql)
        try select.bind([.text(argument)])
        var result = Set<Int>()
        while try select.step() { result.insert(select.int(0)) }
        return result
    }

    // MARK: Persisted index

    public func writeIndexSnapshot(format: Int, bytes: [UInt8]) throws {
        try database.run("DELETE FROM index_snapshot")
        try database.run("INSERT INTO index_snapshot (format, data) VALUES (?, ?)", .integer(Int64(format)), .blob(bytes))
    }

    /// The persisted index blob if it has the given format, for incremental reading.
    public func indexSnapshotBlob(format: Int) throws -> Blob? {
        let select = try database.prepare("SELECT rowid FROM index_snapshot WHERE format = ?")
        try select.bind([.integer(Int64(format))])
        guard try select.step() else { return nil }
        return try database.openBlob(table: "index_snapshot", column: "data", rowid: Int64(select.int(0)))
    }

    // MARK: Favourites and history

    /// Returns whether it was not a favourite already.
    @discardableResult
    public func addFavourite(kind: Kind, slug: String) throws -> Bool {
        try database.run("INSERT OR IGNORE INTO favourite (kind, slug, added_at) VALUES (?, ?, ?)",
                         .text(kind.rawValue), .text(slug), .real(Date().timeIntervalSince1970))
        return database.changes > 0
    }

    /// Returns whether it was a favourite.
    @discardableResult
    public func removeFavourite(kind: Kind, slug: String) throws -> Bool {
        try database.run("DELETE FROM favourite WHERE kind = ? AND slug = ?", .text(kind.rawValue), .text(slug))
        return database.changes > 0
    }

    public func favourites() throws -> [Favourite] {
        try database.rows("SELECT kind, slug, added_at FROM favourite ORDER BY added_at, rowid").compactMap { row in
            guard let kind = row[0].textValue.flatMap(Kind.init(rawValue:)), let slug = row[1].textValue else { return nil }
            if case .real(let at) = row[2] { return Favourite(kind: kind, slug: slug, addedAt: at) }
            return Favourite(kind: kind, slug: slug, addedAt: Double(row[2].intValue ?? 0))
        }
    }

    public static let historyLimit = 50

    /// Records a search, keeping the last 50 distinct ones.
    public func recordHistory(_ query: String) throws {
        try database.transaction {
            try database.run(
                "INSERT INTO history (query, searched_at) VALUES (?, ?) ON CONFLICT (query) DO UPDATE SET searched_at = excluded.searched_at",
                .text(query), .real(Date().timeIntervalSince1970))
            try database.run(
                "DELETE FROM history WHERE query NOT IN (SELECT query FROM history ORDER BY searched_at DESC, rowid DESC LIMIT ?)",
                .integer(Int64(Self.historyLimit)))
        }
    }

    /// Recent searches, newest first.
    public func history() throws -> [String] {
        try database.rows("SELECT query FROM history ORDER BY searched_at DESC, rowid DESC").compactMap { $0[0].textValue }
    }

    /// Recent searches with when each was last run (seconds since 1970), newest first.
    public func historyEntries() throws -> [(query: String, searchedAt: Double)] {
        try database.rows("SELECT query, searched_at FROM history ORDER BY searched_at DESC, rowid DESC").compactMap { row in
            guard let query = row[0].textValue else { return nil }
            if case .real(let at) = row[1] { return (query, at) }
            return (query, Double(row[1].intValue ?? 0))
        }
    }

    public func clearHistory() throws { try database.run("DELETE FROM history") }

    /// Copies favourites, user synonyms and history from another database (re-ingest, at
    /// its swap: the HTTP cache was copied before a sync's fresh responses were written, which
    /// the old ones must not replace).
    public func copyUserData(from old: Store) throws {
        for f in try old.favourites() {
            try database.run("INSERT OR IGNORE INTO favourite (kind, slug, added_at) VALUES (?, ?, ?)",
                             .text(f.kind.rawValue), .text(f.slug), .real(f.addedAt))
        }
        for row in try old.userSynonymRows() {
            try database.run("INSERT OR IGNORE INTO user_synonym (term, kind, slug, added_at) VALUES (?, ?, ?, ?)", row[0], row[1], row[2], row[3])
        }
        for row in try old.database.rows("SELECT query, searched_at FROM history") {
            try database.run("INSERT OR REPLACE INTO history (query, searched_at) VALUES (?, ?)", row[0], row[1])
        }
    }
}

/// A prepared query over one corpus table (`Store.corpusRows`): each row's fields as text,
/// the way `readCorpusTables` reads them (NULL as empty), with its rowid.
public final class CorpusRowQuery {
    public let table: String
    public let columns: [String]
    let statement: Statement

    init(table: String, columns: [String], statement: Statement) {
        self.table = table
        self.columns = columns
        self.statement = statement
    }

    public func rows(_ values: [SQLValue]) throws -> [(rowid: Int64, fields: [String])] {
        try statement.bind(values)
        var rows: [(rowid: Int64, fields: [String])] = []
        while try statement.step() {
            rows.append((Int64(statement.int(0)), (1...columns.count).map { statement.text($0) ?? "" }))
        }
        try statement.bind([]) // resets it: a statement left mid-way keeps a read transaction open
        return rows
    }
}

extension Store {
    /// The typed corpus, read back from the corpus tables.
    public func readCorpus() throws -> Corpus {
        do { return try Corpus(tables: try readCorpusTables()) } catch { throw StoreError.from(error, path: path) }
    }

    /// Each document's folded field text, as stored in `field_fts`.
    public func readFieldTexts() throws -> [(doc: Int, text: String)] {
        let select = try database.prepare("SELECT doc, text FROM field_fts ORDER BY rowid")
        var rows: [(doc: Int, text: String)] = []
        while try select.step() { rows.append((select.int(0), select.text(1) ?? "")) }
        return rows
    }
}

/// Documents whose prose matches an FTS5 query (`FullText.match`: one phrase), each with its
/// best bm25 score (smaller is better). The statement is prepared once: preparing an FTS5
/// query costs as much as running a rare one.
public final class ProseQuery {
    let statement: Statement
    /// The index's size, for scoring rows from their rowids (`ProseRowID`); nil for an index
    /// written before, whose statement reads each row's document and FTS5's bm25().
    let totals: Bm25.Totals?

    init(_ statement: Statement, totals: Bm25.Totals?) {
        self.statement = statement
        self.totals = totals
    }

    public func matches(_ match: String) throws -> [Int: Double] {
        // (bm25 cannot be aggregated in SQL: each matching row is read, the best kept here.)
        try statement.bind([.text(match)])
        var best: [Int: Double] = [:]
        func keep(_ doc: Int, _ score: Double) { if score < best[doc] ?? .infinity { best[doc] = score } }
        if let totals {
            // A row's score needs the number of rows matching, known once all are read.
            var rows: [(rowid: ProseRowID, instances: Int)] = []
            while try statement.step() { rows.append((ProseRowID(raw: statement.int64(0)), statement.int(1))) }
            let scoring = Bm25(totals, rowsMatching: rows.count)
            for row in rows { keep(row.rowid.doc, scoring.score(instances: row.instances, tokens: row.rowid.tokens)) }
        } else {
            while try statement.step() { keep(statement.int(0), statement.double(1)) }
        }
        try statement.bind([]) // resets it: a statement left mid-way keeps a read transaction open
        return best
    }
}

/// A prose row's rowid: its document, its size in tokens and its place among the document's
/// rows (one per language). A `text:` search reads both from the index itself: the `doc`
/// column is in the row's content (most of the time of a search, read row by row) and
/// bm25() looks each row's size up in FTS5's docsize table (most of the rest).
struct ProseRowID {
    let raw: Int64
    /// The meta key saying the prose index's rowids are these, and its value.
    static let metaKey = "prose_rowids", layout = "doc-tokens-ordinal"
    static let ordinalBits = 8, tokenBits = 24
    static let tokenMask = (1 << tokenBits) - 1

    init(raw: Int64) { self.raw = raw }

    /// Nil when a part does not fit its bits.
    init?(doc: Int, tokens: Int, ordinal: Int) {
        guard doc >= 0, doc < 1 << (62 - Self.tokenBits - Self.ordinalBits), tokens >= 0, tokens <= Self.tokenMask,
              ordinal >= 0, ordinal < 1 << Self.ordinalBits else { return nil }
        raw = Int64(doc << (Self.tokenBits + Self.ordinalBits) | tokens << Self.ordinalBits | ordinal)
    }

    var doc: Int { Int(raw >> Int64(Self.tokenBits + Self.ordinalBits)) }
    var tokens: Int { Int(raw >> Int64(Self.ordinalBits)) & Self.tokenMask }
}

/// FTS5's bm25() for a query of one phrase, computed as its source (fts5_aux.c) does, step
/// for step, so that the scores are the same doubles: k1 = 1.2, b = 0.75, every column's
/// weight 1, and an IDF of 1e-6 where the formula gives none above 0.
struct Bm25 {
    /// The prose index's rows and tokens (FTS5 keeps them too, for its own bm25()), written
    /// with it: `rows tokens` under the meta key.
    struct Totals {
        var rows: Int, tokens: Int
        static let metaKey = "prose_totals"

        init(rows: Int, tokens: Int) {
            self.rows = rows
            self.tokens = tokens
        }

        init?(metaValue: String) {
            let parts = metaValue.split(separator: " ").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0 else { return nil }
            self.init(rows: parts[0], tokens: parts[1])
        }

        var metaValue: String { "\(rows) \(tokens)" }
    }
    let idf: Double, averageTokens: Double
    static let k1 = 1.2, b = 0.75

    init(_ totals: Totals, rowsMatching hits: Int) {
        averageTokens = Double(totals.tokens) / Double(totals.rows)
        let idf = log((Double(totals.rows - hits) + 0.5) / (Double(hits) + 0.5))
        self.idf = idf <= 0 ? 1e-6 : idf
    }

    func score(instances: Int, tokens: Int) -> Double {
        let frequency = Double(instances), length = Double(tokens)
        let score = 0.0 + idf * ((frequency * (Self.k1 + 1.0)) / (frequency + Self.k1 * (1 - Self.b + Self.b * length / averageTokens)))
        return -1.0 * score
    }
}
