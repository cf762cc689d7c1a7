import CSQLite
import Foundation

/// A SQLite failure: SQLite's result code and message, and the SQL that caused it.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        let codeName = String(cString: sqlite3_errstr(code))
        return "\(message) (SQLite \(codeName), code \(code))" + (sql.map { " in: \($0)" } ?? "")
    }

    /// The primary result code (SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_BUSY …).
    public var primaryCode: Int32 { code & 0xFF }
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// A hot journal (a write that was interrupted) that a read-only connection cannot roll
    /// back: SQLITE_READONLY_ROLLBACK, a C macro Swift does not import.
    public var isHotJournalReadOnly: Bool { code == SQLITE_READONLY | (3 << 8) }
    /// The disk is full, or a write, sync or truncation failed (EFBIG under RLIMIT_FSIZE, EIO).
    public var isWriteFailure: Bool {
        // SQLITE_IOERR_WRITE, _FSYNC, _DIR_FSYNC, _TRUNCATE: C macros Swift does not import.
        primaryCode == SQLITE_FULL || (primaryCode == SQLITE_IOERR && [3, 4, 5, 6].contains(code >> 8))
    }
}

/// A value bound to or read from SQL.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One SQLite connection. Thin and typed: every statement is prepared and every value is
/// bound, so no SQL is ever built from user text. Not thread-safe: one per thread.
public final class Database {
    public enum Mode { case readOnly, readWrite, create }

    let handle: OpaquePointer
    public let path: String

    public init(path: String, mode: Mode) throws {
        var db: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)", sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// How long a statement waits for another connection's lock before failing as busy.
    public func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Whether the file this connection has open was renamed or unlinked since (an ingest
    /// swapped a new database in): writing to it would be lost.
    public var fileHasMoved: Bool {
        var moved: Int32 = 0
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        return moved != 0
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    public func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return Statement(database: self, handle: statement, sql: sql)
    }

    /// Runs SQL without parameters (schema, pragmas); several statements allowed.
    public func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// Runs one statement with bound parameters.
    public func run(_ sql: String, _ values: SQLValue...) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// All rows of a query, each as its column values.
    public func rows(_ sql: String, _ values: SQLValue...) throws -> [[SQLValue]] { try rows(sql, values) }

    public func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append((0..<statement.columnCount).map { statement.value($0) }) }
        return rows
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Registers FTS5's auxiliary function `pokesearch_instances(TABLE)` on this connection:
    /// how many times a query's phrases occur in the current row (CSQLite's shim.h).
    public func registerFTS5Instances() throws {
        let code = pokesearch_fts5_register_instances(handle)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "cannot register pokesearch_instances with FTS5", sql: nil) }
    }

    /// Counts tokens as an FTS5 table with `tokenize = '<tokenizer joined by spaces>'` does.
    public func fts5TokenCounter(_ tokenizer: [String]) throws -> FTS5TokenCounter {
        let arguments = tokenizer.dropFirst().map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var pointers = arguments.map { UnsafePointer<CChar>($0) }
        let opened = pointers.withUnsafeMutableBufferPointer { buffer in
            pokesearch_fts5_tokenizer_open(handle, tokenizer.first ?? "", buffer.baseAddress, Int32(buffer.count))
        }
        guard let opened else {
            throw SQLiteError(code: SQLITE_ERROR, message: "cannot open the FTS5 tokenizer '\(tokenizer.joined(separator: " "))'", sql: nil)
        }
        return FTS5TokenCounter(opened)
    }

    /// Opens a blob for incremental reading, so large values are copied once, straight
    /// into the caller's memory.
    public func openBlob(table: String, column: String, rowid: Int64) throws -> Blob {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(handle, "main", table, column, rowid, 0, &blob)
        guard code == SQLITE_OK, let blob else { throw error(code, sql: "blob \(table).\(column) row \(rowid)") }
        return Blob(handle: blob)
    }
}

/// An FTS5 tokenizer of a connection (`Database.fts5TokenCounter`), used by one thread.
public final class FTS5TokenCounter {
    private let tokenizer: UnsafeMutablePointer<pokesearch_fts5_tokenizer>
    init(_ tokenizer: UnsafeMutablePointer<pokesearch_fts5_tokenizer>) { self.tokenizer = tokenizer }
    deinit { pokesearch_fts5_tokenizer_close(tokenizer) }

    /// How many tokens FTS5 counts in `text` (the size it stores for a row holding it).
    public func count(_ text: String) throws -> Int {
        var text = text
        let count = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { pokesearch_fts5_tokenizer_count(tokenizer, $0.baseAddress, Int32($0.count)) }
        }
        guard count >= 0 else { throw SQLiteError(code: SQLITE_ERROR, message: "the FTS5 tokenizer failed", sql: nil) }
        return Int(count)
    }
}

public final class Blob {
    let handle: OpaquePointer
    init(handle: OpaquePointer) { self.handle = handle }
    deinit { sqlite3_blob_close(handle) }

    public var count: Int { Int(sqlite3_blob_bytes(handle)) }

    public func read(into destination: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        guard destination.count > 0 else { return true }
        return sqlite3_blob_read(handle, destination.baseAddress, Int32(destination.count), Int32(offset)) == SQLITE_OK
    }
}

public final class Statement {
    let database: Database
    let handle: OpaquePointer
    public let sql: String

    init(database: Database, handle: OpaquePointer, sql: String) {
        self.database = database
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, pokesearch_sqlite_transient())
            case .blob(let v):
                code = v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), pokesearch_sqlite_transient()) }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Advances to the next row; false when done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code, sql: sql)
        }
    }

    /// Binds and runs a statement that returns no rows (inserts in a loop).
    public func run(_ values: [SQLValue]) throws {
        try bind(values)
        while try step() {}
    }

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func value(_ column: Int) -> SQLValue {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(column) ?? "")
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }

    public func int(_ column: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(column))) }
    public func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    public func double(_ column: Int) -> Double { sqlite3_column_double(handle, Int32(column)) }
    public func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }

    public func text(_ column: Int) -> String? {
        guard let pointer = sqlite3_column_text(handle, Int32(column)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func blob(_ column: Int) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        guard count > 0, let pointer = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

}

extension SQLValue {
    public var intValue: Int? {
        switch self {
        case .integer(let v): return Int(v)
        case .real(let v): return Int(v)
        case .text(let v): return Int(v)
        default: return nil
        }
    }
    public var textValue: String? {
        switch self {
        case .text(let v): return v
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        default: return nil
        }
    }
}
