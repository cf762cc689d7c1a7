import Corpus
import Query
import Store

/// The database filters (`text:`, `ailment:`, `target:`, `flag:`, `priority`, `tm:`),
/// answered on the reader's connection: the prose index and the moves and machines tables.
extension DetailReader: DatabaseFilters {
    public func matches(_ filter: DatabaseFilter, position: Int, part: String) throws -> [Int: Double] {
        try withStore { store, prose in
            switch filter {
            case .text(let text):
                guard let match = FullText.match(text) else {
                    throw QueryError("'\(part)' has no words to search for", position: position, part: part)
                }
                return try prose.matches(match)
            case .ailment(let slug):
                return try moves(store, MoveFilterSQL.ailment, [.text(slug)], known: (MoveFilterSQL.ailments, slug, "ailment"),
                                 part: part, position: position)
            case .target(let slug):
                return try moves(store, MoveFilterSQL.target, [.text(slug)], known: (MoveFilterSQL.targets, slug, "target"),
                                 part: part, position: position)
            case .flag(let slug):
                return try moves(store, MoveFilterSQL.flag, [.text("," + slug + ",")], known: (MoveFilterSQL.flags, slug, "flag"),
                                 part: part, position: position)
            case .priority(let comparison):
                let (low, high) = comparison.bounds
                return try moves(store, MoveFilterSQL.priority, [.integer(Int64(low)), .integer(Int64(high))])
            case .machine(let number):
                return try moves(store, MoveFilterSQL.machine, [.text("tm" + (number < 10 ? "0" : "") + String(number))])
            }
        }
    }

    /// The documents of the moves a statement selects. With `known`, a value no move has is
    /// an error listing those there are (a misspelt ailment would find nothing otherwise).
    private func moves(_ store: Store, _ sql: String, _ values: [SQLValue],
                       known: (sql: String, value: String, what: String)? = nil, part: String = "", position: Int = 0)
        throws -> [Int: Double] {
        let found = try store.database.rows(sql, values)
        if found.isEmpty, let known {
            var values = Set<String>()
            for row in try store.database.rows(known.sql) {
                for value in (row[0].textValue ?? "").split(separator: ",") { values.insert(String(value)) }
            }
            if !values.isEmpty && !values.contains(known.value) {
                throw QueryError("unknown \(known.what) '\(known.value)' (\(known.what)s: \(values.sorted().joined(separator: " ")))",
                                 position: position, part: part)
            }
        }
        return Dictionary(found.compactMap { $0[0].intValue.map { ($0, 0.0) } }, uniquingKeysWith: min)
    }
}

/// The move filters' statements: each move's document where its row meets the condition,
/// and the values a column has (for the error on an unknown one).
enum MoveFilterSQL {
    static let ailment = "SELECT e.doc FROM moves m JOIN entity e ON e.kind = 'move' AND e.id = m.id AND e.slug = m.slug WHERE m.ailment = ?"
    static let target = "SELECT e.doc FROM moves m JOIN entity e ON e.kind = 'move' AND e.id = m.id AND e.slug = m.slug WHERE m.target = ?"
    static let flag = "SELECT e.doc FROM moves m JOIN entity e ON e.kind = 'move' AND e.id = m.id AND e.slug = m.slug WHERE instr(',' || m.flags || ',', ?) > 0"
    static let priority = "SELECT e.doc FROM moves m JOIN entity e ON e.kind = 'move' AND e.id = m.id AND e.slug = m.slug WHERE m.priority BETWEEN ? AND ?"
    static let machine = "SELECT e.doc FROM moves m JOIN entity e ON e.kind = 'move' AND e.id = m.id AND e.slug = m.slug WHERE m.slug IN (SELECT move FROM machines WHERE item = ?)"
    static let ailments = "SELECT DISTINCT ailment FROM moves WHERE ailment IS NOT NULL"
    static let targets = "SELECT DISTINCT target FROM moves WHERE target IS NOT NULL"
    static let flags = "SELECT DISTINCT flags FROM moves WHERE flags IS NOT NULL"
}
