import Foundation

/// One table of the bundled corpus: a header and rows of text fields, as stored in a
/// `corpus/*.tsv` file. Empty text means "no value".
public struct Table: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[String]]

    public init(columns: [String], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// The position of a column; a missing column is a format error in the input.
    public func index(of column: String, in file: String) throws -> Int {
        guard let index = columns.firstIndex(of: column) else {
            throw CorpusError.format(file: file, line: 1, message: "missing column '\(column)'")
        }
        return index
    }
}

/// The whole corpus as tables, keyed by file stem (`pokemon`, `names`, …): what the
/// converter writes and what the corpus reader reads back.
public struct CorpusTables: Sendable, Equatable {
    public var tables: [String: Table]

    public init(tables: [String: Table] = [:]) { self.tables = tables }

    /// The file stems of a complete corpus, in the order they are written.
    public static let fileStems = [
        "pokemon", "species", "evolutions", "moves", "items", "abilities", "types",
        "type_efficacy", "vocab", "names", "machines", "prose",
    ]

    /// Tables a corpus may lack, read as empty when it does: a corpus written before them,
    /// or one made by the live-API sync (which has no Showdown nicknames). Written after
    /// `fileStems`.
    public static let optionalStems: [String: [String]] = [
        "form_names": ["kind", "id", "slug", "lang", "name"],
        "synonyms": ["term", "kind", "slug", "source"],
    ]

    /// Every table of a corpus, the optional ones last.
    public static var allStems: [String] { fileStems + optionalStems.keys.sorted() }

    public func table(_ stem: String) throws -> Table {
        if tables[stem] == nil, let columns = Self.optionalStems[stem] { return Table(columns: columns) }
        guard let table = tables[stem] else { throw CorpusError.missingFile("\(stem).tsv") }
        return table
    }
}

public enum CorpusError: Error, CustomStringConvertible, Equatable {
    case missingFile(String)
    case unreadable(path: String, reason: String)
    case format(file: String, line: Int, message: String)
    case notFound(String)

    public var description: String {
        switch self {
        case .missingFile(let name): return "corpus file \(name) is missing"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .format(let file, let line, let message): return "\(file):\(line): \(message)"
        case .notFound(let what): return what
        }
    }
}

/// Reads and writes the corpus's TSV files: UTF-8, LF line ends, one header line, fields
/// separated by TAB, no quoting (the converter never writes a TAB or newline in a field).
public enum TSV {
    public static func encode(_ table: Table) -> String {
        var text = table.columns.joined(separator: "\t") + "\n"
        for row in table.rows { text += row.joined(separator: "\t") + "\n" }
        return text
    }

    public static func decode(_ text: String, file: String) throws -> Table {
        var text = text
        return try text.withUTF8 { bytes in
            var rows: [[String]] = []
            var fields: [String] = []
            var fieldStart = 0
            var line = 1
            var columns: [String]? = nil
            for i in 0...bytes.count {
                let byte: UInt8 = i < bytes.count ? bytes[i] : 10
                guard byte == 9 || byte == 10 else { continue }
                if i == bytes.count && fieldStart == i && fields.isEmpty { break } // final newline
                fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[fieldStart..<i]), as: UTF8.self))
                fieldStart = i + 1
                guard byte == 10 else { continue }
                if let columns {
                    guard fields.count == columns.count else {
                        throw CorpusError.format(file: file, line: line,
                                                 message: "expected \(columns.count) fields, found \(fields.count)")
                    }
                    rows.append(fields)
                } else {
                    columns = fields
                }
                fields = []
                fields.reserveCapacity(columns?.count ?? 8)
                line += 1
            }
            guard let columns, !(columns.count == 1 && columns[0].isEmpty) else {
                throw CorpusError.format(file: file, line: 1, message: "empty file")
            }
            return Table(columns: columns, rows: rows)
        }
    }

    /// Reads every corpus table from a directory such as `corpus/`.
    public static func readCorpus(from directory: URL) throws -> CorpusTables {
        var tables: [String: Table] = [:]
        for stem in CorpusTables.allStems {
            let url = directory.appendingPathComponent("\(stem).tsv")
            guard FileManager.default.fileExists(atPath: url.path) else {
                if CorpusTables.optionalStems[stem] != nil { continue }
                throw CorpusError.missingFile(url.path)
            }
            // An empty file is not read: Foundation's file reading leaks its 4 KiB buffer on
            // one (LeakSanitizer, Swift 6.3 on Linux).
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            guard let data = size == 0 ? Data() : try? Data(contentsOf: url) else {
                throw CorpusError.unreadable(path: url.path, reason: "not readable")
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw CorpusError.unreadable(path: url.path, reason: "not UTF-8 text")
            }
            tables[stem] = try decode(text, file: "\(stem).tsv")
        }
        return CorpusTables(tables: tables)
    }

    /// Writes every table into `directory`, byte-for-byte deterministic.
    public static func writeCorpus(_ corpus: CorpusTables, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for stem in CorpusTables.allStems {
            let table = try corpus.table(stem)
            try Data(encode(table).utf8).write(to: directory.appendingPathComponent("\(stem).tsv"), options: .atomic)
        }
    }
}
