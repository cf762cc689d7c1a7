import Corpus
import Index

/// What a front end shows beside a page of results besides the results themselves: the
/// value they are sorted by, their types' names in the display language, and whether a
/// query needs the user's favourites. The server and the CLI both read them here, so that a
/// page looks the same from either.
extension SearchEngine {
    /// Each result's value of the field it is sorted by (nil where it has none); nil when
    /// the sort is not by a value (relevance, id, name).
    public func sortValues(of results: SearchResults, sort: SortField) -> [Int?]? {
        guard let column = sort.column else { return nil }
        let values = index.numbers[column.rawValue]
        return results.window.map { values[$0.doc] == NumericColumn.missing ? nil : Int(values[$0.doc]) }
    }

    /// The names in `language` of the types `slugs`, by slug.
    public func typeNames(_ slugs: some Sequence<String>, language: Int) -> [String: String] {
        var names: [String: String] = [:]
        for slug in slugs where names[slug] == nil {
            names[slug] = index.doc(kind: .type, slug: slug).map { index.displayName($0, language: language) } ?? slug
        }
        return names
    }
}

extension SearchEngine {
    /// For a query that found nothing, the error it deserves when a filter asked for a
    /// generation the data does not have (`gen:99`): a mistake to say, not an empty answer.
    /// Checked only once nothing was found, so that no search pays for it.
    public func impossibleFilter(_ query: String) -> QueryError? {
        guard let parsed = try? QueryParser.parse(query) else { return nil }
        let generations = index.numbers[NumericColumn.generation.rawValue].lazy.filter { $0 != NumericColumn.missing }
        guard let lowest = generations.min(), let highest = generations.max() else { return nil }
        for clause in parsed.clauses where !clause.negated {
            guard case .filter(.number(.generation, let comparison, _), let position, let part) = clause.clause else { continue }
            let (low, high) = comparison.bounds
            if high < Int(lowest) || low > Int(highest) || low > high {
                return QueryError("no such generation: the data has generations \(lowest) to \(highest)", position: position, part: part)
            }
        }
        return nil
    }
}

extension QueryParser {
    /// Whether `query` filters by the favourites (`is:fav`, negated or not): the searcher
    /// must then read them from the database. The flag's letters are looked for first, so
    /// that most queries are not parsed twice.
    public static func filtersFavourites(_ query: String) -> Bool {
        // "f", "a", "v" in a row, either case (three distinct letters: a mismatch restarts
        // at the first), read in place: the server asks this of every SEARCH.
        let letters: (UInt8, UInt8, UInt8) = (UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "v"))
        var matched = 0
        for byte in query.utf8 where matched < 3 {
            let lower = byte | 0x20
            let next = matched == 0 ? letters.0 : matched == 1 ? letters.1 : letters.2
            matched = lower == next ? matched + 1 : lower == letters.0 ? 1 : 0
        }
        guard matched == 3, let parsed = try? parse(query) else { return false }
        return parsed.clauses.contains { clause in
            if case .filter(.flag("fav"), _, _) = clause.clause { return true }
            return false
        }
    }
}

extension QueryParser {
    /// The one kind `query` restricts its results to (`kind:move`, `move:pound`), if any.
    public static func fixedKind(_ query: String) -> Kind? {
        guard let parsed = try? parse(query) else { return nil }
        var kinds: Set<Kind> = []
        for clause in parsed.clauses where !clause.negated {
            if case .filter(.kind(let kind), _, _) = clause.clause { kinds.insert(kind) }
        }
        return kinds.count == 1 ? kinds.first : nil
    }
}

extension SortField {
    /// How a value of this field reads: height in metres, weight in kilograms (the data's
    /// decimetres and hectograms), the rest as numbers.
    public func formatted(_ value: Int) -> String {
        switch self {
        case .height: return "\(value / 10).\(value % 10) m"
        case .weight: return "\(value / 10).\(value % 10) kg"
        case .accuracy: return "\(value)%"
        default: return String(value)
        }
    }
}
