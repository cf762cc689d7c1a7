import Corpus
import Folding
import Index

/// Fields results can be sorted by besides relevance.
public enum SortField: String, CaseIterable, Sendable {
    case relevance, id, name, hp, attack, defense, specialAttack = "special-attack"
    case specialDefense = "special-defense", speed, total, height, weight, power, accuracy, pp, cost

    /// Accepts the contract's names and the short filter names (atk, spa, bst …).
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let field = SortField(rawValue: lower) { self = field; return }
        switch lower {
        case "atk": self = .attack
        case "def": self = .defense
        case "spa", "special_attack": self = .specialAttack
        case "spd", "special_defense": self = .specialDefense
        case "spe": self = .speed
        case "bst": self = .total
        default: return nil
        }
    }

    var column: NumericColumn? {
        switch self {
        case .hp: return .hp
        case .attack: return .attack
        case .defense: return .defense
        case .specialAttack: return .specialAttack
        case .specialDefense: return .specialDefense
        case .speed: return .speed
        case .total: return .total
        case .height: return .height
        case .weight: return .weight
        case .power: return .power
        case .accuracy: return .accuracy
        case .pp: return .pp
        case .cost: return .cost
        case .relevance, .id, .name: return nil
        }
    }
}

public struct SearchOptions: Sendable {
    public var limit = 20
    public var offset = 0
    /// Display language, as an index into `Language.codes`.
    public var language = 0
    public var kinds: Set<Kind> = []
    public var sort: SortField = .relevance
    public var descending = false
    /// Favourite documents, for `is:fav`.
    public var favourites: Set<Int> = []
    public var explain = false
    /// What answers `text:` and the move filters (the store); nil: such a query is an error.
    public var database: (any DatabaseFilters)?

    public init() {}

    /// Bounds on the result window, so no request can ask for unbounded work.
    public static let maxLimit = 1000
    public static let maxOffset = 100_000
}

/// Answers queries over one immutable index snapshot. Thread-safe: its only mutable state
/// is the pool of reusable hit maps, behind a lock.
public final class SearchEngine: Sendable {
    public let index: IndexSnapshot

    /// Every document number, the candidates of a query with filters only.
    let allDocs: [Int32]
    /// The documents of each type, in document order: a type filter's candidates without a
    /// scan of every document.
    let docsByType: [[Int32]]
    /// Every document number, by id (then document order), and where each id's documents
    /// start there (ids up to the largest; any other, none in the corpus, in a last group
    /// looked through): a bare number's documents without a scan of every document (a
    /// completion of `1` read all 5,133).
    let docsByID: [Int32]
    let idStarts: [Int32]
    let hitMaps: HitMapPool
    /// Type words' hits, kept once matched (`TypeWordHits`).
    let typeWords: TypeWordHits

    public init(index: IndexSnapshot) {
        self.index = index
        allDocs = Array(0..<Int32(index.docCount))
        var byType = [[Int32]](repeating: [], count: index.typeSlugs.count)
        for doc in 0..<index.docCount {
            let first = index.docTypes[doc * 2], second = index.docTypes[doc * 2 + 1]
            if first != 255 { byType[Int(first)].append(Int32(doc)) }
            if second != 255 && second != first { byType[Int(second)].append(Int32(doc)) }
        }
        docsByType = byType
        // A counting sort (ids are small: a comparison sort of every document by id was a
        // noticeable part of a one-shot command; docs/PERFORMANCE.md).
        let idGroups = Int(min(max(index.docID.max() ?? 0, 0), 1 << 20)) + 1
        let group = { (id: Int32) in id >= 0 && Int(id) < idGroups ? Int(id) : idGroups }
        var starts = [Int32](repeating: 0, count: idGroups + 2)
        for doc in 0..<index.docCount { starts[group(index.docID[doc]) + 1] += 1 }
        for i in 1..<starts.count { starts[i] += starts[i - 1] }
        var next = starts
        var byID = [Int32](repeating: 0, count: index.docCount)
        for doc in 0..<index.docCount {
            let g = group(index.docID[doc])
            byID[Int(next[g])] = Int32(doc)
            next[g] += 1
        }
        docsByID = byID
        idStarts = starts
        hitMaps = HitMapPool(docCount: index.docCount)
        typeWords = TypeWordHits(index: index)
    }

    /// The documents whose id is `id`, in document order (an id's group in place; the last
    /// group, of ids beyond the others, looked through).
    func docs(withID id: Int) -> ArraySlice<Int32> {
        let groups = idStarts.count - 2
        let g = id >= 0 && id < groups ? id : groups
        let docs = docsByID[Int(idStarts[g])..<Int(idStarts[g + 1])]
        return g < groups ? docs : ArraySlice(docs.filter { Int(index.docID[Int($0)]) == id })
    }

    /// Idle leases hold their pool (a lease in use must keep its maps' pool alive), and the
    /// pool holds them: the engine going breaks that cycle, or every replaced index (RELOAD)
    /// would leave its pool and maps behind.
    deinit { hitMaps.letIdleLeasesGo() }

    public func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> SearchResponse {
        switch searchOfOneWord(query, options: options) {
        case .answered(let answer):
            return SearchResponse(results: results(answer.window, positives: [], options: options), total: answer.total,
                                  route: .oneWordLists)
        case .unanswered(let term):
            return try search(ParsedQuery(clauses: [QueryClause(.term(term))], language: nil), options: options, completion: false,
                              listsTried: true)
        case .notOneWord:
            return try searchParsed(query, options: options)
        }
    }

    /// Suggestions for text being typed: the last word is a prefix of a name word (after other
    /// words, also a field typed out in full: "fire dragon"), earlier words must match whole
    /// words (of names or fields, as in a search).
    public func complete(_ text: String, limit: Int = 8, language: Int = 0, kinds: Set<Kind> = []) throws -> Suggestions {
        if kinds.isEmpty {
            switch completionOfOneWord(text, limit: limit, language: language) {
            case .answered(let window):
                return Suggestions(index: index, language: language, window: window, route: .oneWordLists)
            case .unanswered(let term):
                return try completion(of: ParsedQuery(clauses: [QueryClause(.term(term))], language: nil), text: text,
                                      limit: limit, language: language, kinds: kinds, listsTried: true)
            case .notOneWord:
                if let window = completionOfWords(text, limit: limit, language: language) {
                    return Suggestions(index: index, language: language, window: window, route: .words)
                }
            }
        }
        return try completeParsed(text, limit: limit, language: language, kinds: kinds)
    }

}
