import Corpus

/// A filter the in-memory index cannot answer, asked of the database: full-text search of
/// the prose, and the move metadata filters.
public enum DatabaseFilter: Sendable, Equatable {
    /// `text:WORD`, `text:"a phrase"`: the raw words (folded by the database side).
    case text(String)
    /// `ailment:paralysis`, `target:selected-pokemon`, `flag:contact`: a slug, lower-cased
    /// with spaces as hyphens.
    case ailment(String), target(String), flag(String)
    case priority(Comparison)
    /// `tm:24`: moves taught by TM 24 in some version group.
    case machine(Int)

    /// The filter `name:value` names, nil for another name.
    init?(name: String, value: String, part: String, position: Int) throws {
        func slug() -> String { value.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-") }
        switch name {
        case "text": self = .text(value)
        case "ailment": self = .ailment(slug())
        case "target": self = .target(slug())
        case "flag": self = .flag(slug())
        case "priority": self = .priority(try QueryParser.comparison(":" + value, part: part, position: position))
        case "tm":
            guard let number = Int(value), number >= 0, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw QueryError("'\(value)' is not a TM number", position: position, part: part)
            }
            self = .machine(number)
        default: return nil
        }
    }
}

/// Answers database filters: each matching document with a score (bm25 for `text:`,
/// smaller is better; 0 for the others). Thrown errors are `QueryError`s naming the part
/// (an unknown ailment) or the database's own.
public protocol DatabaseFilters: Sendable {
    func matches(_ filter: DatabaseFilter, position: Int, part: String) throws -> [Int: Double]
}

extension SearchOptions {
    func databaseMatches(_ filter: DatabaseFilter, position: Int, part: String) throws -> [Int: Double] {
        guard let database else {
            throw QueryError("'\(part)' needs the database (full text and move details are not in the in-memory index)",
                             position: position, part: part)
        }
        return try database.matches(filter, position: position, part: part)
    }
}

extension SearchEngine {
    /// A query of `text:` filters alone ranks by their bm25 scores (best first), documents
    /// with equal scores in document order.
    static func rankByTextScore(_ ranked: inout [(key: UInt64, doc: Int)], _ scores: [Int: Double]) {
        let order = ranked.sorted { a, b in
            let x = scores[a.doc] ?? 0, y = scores[b.doc] ?? 0
            return x != y ? x < y : a.doc < b.doc
        }
        for (position, entry) in order.enumerated() {
            ranked[position] = (UInt64(position) << 32 | UInt64(entry.doc), entry.doc)
        }
    }
}
