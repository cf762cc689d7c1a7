import Foundation

/// A reader for PokeAPI's CSV tables (RFC 4180: quoted fields may hold commas, quotes
/// doubled, and newlines). Rows are addressed by column name.
public struct CSVTable: Sendable {
    public let file: String
    public let columns: [String: Int]
    public let rows: [[String]]

    public init(text: String, file: String) throws {
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return scalars.next()
        }
        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    let following = next()
                    if following == "\"" { field.append("\"") } else { inQuotes = false; pending = following }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"": inQuotes = true
            case ",": row.append(String(field)); field = .init()
            case "\r": continue
            case "\n": row.append(String(field)); field = .init(); rows.append(row); row = []
            default: field.append(c)
            }
        }
        if inQuotes { throw CorpusError.format(file: file, line: rows.count + 1, message: "unterminated quoted field") }
        if !field.isEmpty || !row.isEmpty { row.append(String(field)); rows.append(row) }
        guard let header = rows.first else { throw CorpusError.format(file: file, line: 1, message: "empty file") }
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() { columns[name] = index }
        self.file = file
        self.columns = columns
        self.rows = Array(rows.dropFirst())
    }

    public static func read(_ name: String, in directory: URL) throws -> CSVTable {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CorpusError.missingFile("\(url.path) (is this a PokeAPI CSV directory?)")
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw CorpusError.unreadable(path: url.path, reason: "not UTF-8 text or not readable")
        }
        return try CSVTable(text: text, file: name)
    }

    /// Accessor for one row's fields by column name; missing columns read as empty so
    /// that an older PokeAPI checkout without a newer column still converts.
    public struct Row {
        let table: CSVTable
        let fields: [String]
        public subscript(_ column: String) -> String {
            guard let index = table.columns[column], index < fields.count else { return "" }
            return fields[index]
        }
        public func int(_ column: String) -> Int? { Int(self[column]) }
    }

    public var records: [Row] { rows.map { Row(table: self, fields: $0) } }

    public func require(_ names: String...) throws {
        for name in names where columns[name] == nil {
            throw CorpusError.format(file: file, line: 1, message: "missing column '\(name)'")
        }
    }
}
