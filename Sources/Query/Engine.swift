import Corpus
import Folding
import Index
import Synchronization

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

    public init() {}

    /// Bounds on the result window, so no request can ask for unbounded work.
    public static let maxLimit = 1000
    public static let maxOffset = 100_000
}

/// Why one term matched one result.
public struct TermExplanation: Sendable, Equatable {
    public var term: String
    public var matchClass: MatchClass
    public var typos: Int
    public var language: String?
    public var role: String
    public var transliterated: Bool

    public var summary: String {
        var parts = ["\(term): \(matchClass.label) \(role)"]
        if let language { parts.append("(\(language))") }
        if transliterated { parts.append("via transliteration") }
        if typos > 0 { parts.append("typo \(typos)") }
        return parts.joined(separator: " ")
    }
}

public struct SearchResult: Sendable, Equatable {
    public var doc: Int
    public var kind: Kind
    public var id: Int
    public var slug: String
    public var name: String
    public var score: Int
    public var types: [String]
    public var explanation: [TermExplanation]
}

public struct SearchResponse: Sendable {
    public var results: [SearchResult]
    /// How many documents matched in all (the window is `results`).
    public var total: Int
}

public struct Suggestion: Sendable, Equatable {
    public var text: String
    public var kind: Kind
    public var id: Int
    public var slug: String
}

/// Answers queries over one immutable index snapshot. Thread-safe: holds no mutable state.
public final class SearchEngine: Sendable {
    public let index: IndexSnapshot

    /// Every document number, the candidates of a query with filters only.
    private let allDocs: [Int32]

    public init(index: IndexSnapshot) {
        self.index = index
        allDocs = Array(0..<Int32(index.docCount))
    }

    /// Ranked documents for one-word queries (the prefix being typed, "p", "pik", "pikachu"),
    /// by display language: each is ranked once, on first use, and kept, like the
    /// best-first lists a trie's nodes would carry, so a prefix typed again costs only its
    /// window. Bounded by entries kept; derived from the immutable snapshot, so never stale.
    private let wordQueries = Mutex(WordQueryLists())
    static let wordQueryEntryLimit = 262_144

    struct WordQueryLists: ~Copyable {
        var lists: [ShortQuery: [(key: UInt64, doc: Int)]] = [:]
        var entries = 0
    }

    struct ShortQuery: Hashable, Sendable {
        var text: String
        var language: Int
        var restriction: Int?
        var completion: Bool
    }

    public func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> SearchResponse {
        let parsed = try QueryParser.parse(query)
        return try search(parsed, options: options, completion: false)
    }

    /// Suggestions for text being typed: the last word is a prefix of a name word, earlier
    /// words must match whole words.
    public func complete(_ text: String, limit: Int = 8, language: Int = 0, kinds: Set<Kind> = []) throws -> [Suggestion] {
        var parsed = try QueryParser.parse(text, lenient: true)
        let typingLastWord = !(text.last?.isWhitespace ?? true)
        var options = SearchOptions()
        options.limit = max(1, min(limit, SearchOptions.maxLimit))
        options.language = language
        options.kinds = kinds
        var marked: [(clause: Clause, negated: Bool)] = []
        let lastTerm = parsed.clauses.lastIndex { if case .term = $0.clause { return !$0.negated } else { return false } }
        for (i, entry) in parsed.clauses.enumerated() {
            if case .term(var term) = entry.clause, !(typingLastWord && i == lastTerm), term.shape == .word {
                term.shape = .wholeWord
                marked.append((.term(term), entry.negated))
            } else {
                marked.append(entry)
            }
        }
        parsed.clauses = marked
        if parsed.isEmpty { return [] }
        return try search(parsed, options: options, completion: true).results.map {
            Suggestion(text: $0.name, kind: $0.kind, id: $0.id, slug: $0.slug)
        }
    }

    // MARK: - Evaluation

    func search(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool) throws -> SearchResponse {
        guard !parsed.isEmpty else {
            throw QueryError("nothing to search for: give a name, a word or a filter", position: 0, part: "")
        }
        if let short = shortQuery(parsed, options: options, completion: completion) {
            let ranked: [(key: UInt64, doc: Int)]
            if let cached = wordQueries.withLock({ $0.lists[short] }) {
                ranked = cached
            } else {
                var all = options
                all.kinds = []
                ranked = try rank(parsed, options: all, completion: completion).ranked.sorted { $0.key < $1.key }
                wordQueries.withLock { cache in
                    if cache.entries + ranked.count > Self.wordQueryEntryLimit {
                        cache.lists.removeAll()
                        cache.entries = 0
                    }
                    cache.lists[short] = ranked
                    cache.entries += ranked.count
                }
            }
            let kindMask = options.kinds.reduce(0) { $0 | (1 << $1.rank) }
            let matching = kindMask == 0 ? ranked : ranked.filter { kindMask & (1 << Int(index.docKind[$0.doc])) != 0 }
            let limit = max(0, min(options.limit, SearchOptions.maxLimit))
            let offset = max(0, min(options.offset, SearchOptions.maxOffset))
            return SearchResponse(results: results(matching.dropFirst(offset).prefix(limit), positives: [], options: options),
                                  total: matching.count)
        }
        let (ranked, positives) = try rank(parsed, options: options, completion: completion)
        let total = ranked.count
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        let window: ArraySlice<(key: UInt64, doc: Int)>
        if options.sort == .relevance {
            window = topK(ranked, offset + limit).dropFirst(offset)
        } else {
            window = sortByField(ranked, options).dropFirst(offset).prefix(limit)
        }
        return SearchResponse(results: results(window, positives: positives, options: options), total: total)
    }

    /// A one-word query ranked by relevance, without filters or explanations: the kind whose
    /// ranked list is kept.
    func shortQuery(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool) -> ShortQuery? {
        guard options.sort == .relevance, !options.explain, parsed.clauses.count == 1,
              case .term(let term) = parsed.clauses[0].clause, !parsed.clauses[0].negated,
              term.shape == .word, term.language == nil else { return nil }
        return ShortQuery(text: term.text, language: options.language, restriction: parsed.language, completion: completion)
    }

    /// Every matching document with its ranking key (smallest first once sorted), and the
    /// terms' hits (for explanations).
    func rank(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool) throws
        -> (ranked: [(key: UInt64, doc: Int)], positives: [(term: Term, hits: HitMap)]) {
        var positives: [(term: Term, hits: HitMap)] = []
        var excluded: [HitMap] = []
        var filters: [(ResolvedFilter, Bool)] = []
        var kinds = options.kinds
        let context = MatchContext(index: index, displayLanguage: options.language, languageRestriction: parsed.language,
                                   completion: completion, budget: WorkBudget())
        // The same term twice is matched once.
        var matched: [String: HitMap] = [:]
        for (clause, negated) in parsed.clauses {
            switch clause {
            case .term(let term):
                let key = "\(term.shape)\u{0}\(term.language ?? -1)\u{0}\(negated)\u{0}\(term.text)"
                let hits = try matched[key] ?? context.match(term, allowTypos: !negated)
                matched[key] = hits
                if context.budget.isSpent { throw Self.tooBroad(term) }
                if negated { excluded.append(hits) } else { positives.append((term, hits)) }
            case .unknownFilter(let term, let name):
                let hits = try context.match(term, allowTypos: false)
                if hits.isEmpty {
                    throw QueryError("unknown filter '\(name):' (filters: kind type ability gen color habitat is lang id hp atk def spa spd spe bst height weight power accuracy pp cost)",
                                     position: term.position, part: term.raw)
                }
                if negated { excluded.append(hits) } else { positives.append((term, hits)) }
            case .id(let id, _):
                let hits = HitMap(docCount: index.docCount)
                for doc in 0..<index.docCount where Int(index.docID[doc]) == id {
                    hits.record(doc, Hit(typos: 0, matchClass: .exact, posting: Posting(doc: doc, language: Posting.noLanguage, role: .whole, transliterated: false), displayLanguage: options.language))
                }
                let term = Term(text: String(id), raw: String(id), shape: .word, language: nil, position: 0)
                if negated { excluded.append(hits) } else { positives.append((term, hits)) }
            case .filter(.kind(let kind), _, _) where !negated:
                kinds.insert(kind)
            case .filter(let filter, let position, let part):
                filters.append((try context.resolve(filter, position: position, part: part), negated))
            }
        }

        // Candidates: documents every positive term hit (smallest list first), or all.
        let kindMask = kinds.reduce(0) { $0 | (1 << $1.rank) }
        var candidates = intersect(positives.map(\.hits), excluded: excluded, filters: filters, kindMask: kindMask,
                                   context: context, favourites: options.favourites)
        if candidates.isEmpty && positives.count > 1 {
            // Nothing has every term: let each term also match within its typo budget.
            for entry in positives {
                context.addTypos(entry.term, into: entry.hits)
                if context.budget.isSpent { throw Self.tooBroad(entry.term) }
            }
            candidates = intersect(positives.map(\.hits), excluded: excluded, filters: filters, kindMask: kindMask,
                                   context: context, favourites: options.favourites)
        }
        let wordTerms = positives.map(\.term).filter { $0.shape == .word || $0.shape == .wholeWord }
        let phrase = positives.count > 1 && wordTerms.count == positives.count ? context.phraseHits(wordTerms) : nil

        // Rank: bucket keys in one integer, smallest first.
        let maps = positives.map(\.hits)
        var ranked: [(key: UInt64, doc: Int)] = []
        ranked.reserveCapacity(candidates.count)
        for doc in candidates {
            var typoTerms: UInt64 = 0
            var typos: UInt64 = 0
            var placement: UInt64 = maps.isEmpty ? 0 : 0xF
            for map in maps {
                let hit = Hit(raw: map.best[doc])
                if hit.typos > 0 { typoTerms += 1; typos += UInt64(hit.typos) }
                placement = min(placement, UInt64(hit.placement))
            }
            if let phrase, let hit = phrase.hit(doc) { placement = min(placement, UInt64(hit.placement)) }
            ranked.append((typoTerms << 56 | min(typos, 255) << 48 | placement << 40 | UInt64(doc), doc))
        }
        return (ranked, positives)
    }

    func results(_ window: ArraySlice<(key: UInt64, doc: Int)>, positives: [(term: Term, hits: HitMap)],
                 options: SearchOptions) -> [SearchResult] {
        window.map { entry -> SearchResult in
            let doc = entry.doc
            let key = entry.key
            let score = 1000 - Int(key >> 56) * 200 - Int((key >> 48) & 0xFF) * 50 - Int((key >> 40) & 0xF) * 10
            var explanation: [TermExplanation] = []
            if options.explain {
                for (term, hits) in positives {
                    guard let hit = hits.hit(doc) else { continue }
                    explanation.append(TermExplanation(
                        term: term.raw, matchClass: hit.matchClass, typos: hit.typos,
                        language: hit.language.map { Language.codes[$0] }, role: Self.roleLabel(hit.role),
                        transliterated: hit.isTransliterated))
                }
            }
            var result = self.result(doc: doc, language: options.language)
            result.score = score
            result.explanation = explanation
            return result
        }
    }

    /// One document as a result, as a search would list it (`fav`, `random`).
    public func result(doc: Int, language: Int) -> SearchResult {
        SearchResult(doc: doc, kind: index.kind(doc), id: index.id(doc), slug: index.slug(doc),
                     name: index.displayName(doc, language: language), score: 1000, types: index.types(doc), explanation: [])
    }

    static func tooBroad(_ term: Term) -> QueryError {
        QueryError("query too broad: its terms match too much to rank in time; use longer words or fewer terms",
                   position: term.position, part: term.raw)
    }

    /// Documents every map holds (the smallest drives), of the kinds asked for, held by no
    /// excluded map, passing every filter.
    func intersect(_ maps: [HitMap], excluded: [HitMap], filters: [(ResolvedFilter, Bool)], kindMask: Int,
                   context: MatchContext, favourites: Set<Int>) -> [Int] {
        let ordered = maps.sorted { $0.count < $1.count }
        var docs: [Int32] = ordered.first.map { Array($0.docs) } ?? allDocs
        if kindMask != 0 {
            index.docKind.withUnsafeBufferPointer { kinds in docs.removeAll { kindMask & (1 << Int(kinds[Int($0)])) == 0 } }
        }
        for map in ordered.dropFirst() { docs.removeAll { !map.contains(Int($0)) } }
        for map in excluded { docs.removeAll { map.contains(Int($0)) } }
        for (filter, negated) in filters { context.apply(filter, negated: negated, to: &docs, favourites: favourites) }
        return docs.map(Int.init)
    }

    static func roleLabel(_ role: KeyRole) -> String {
        switch role {
        case .whole: return "name"
        case .compact: return "compact name"
        case .firstWord: return "name"
        case .laterWord: return "name word"
        case .field: return "field"
        }
    }

    /// The `count` smallest entries in order, without sorting everything.
    func topK(_ entries: [(key: UInt64, doc: Int)], _ count: Int) -> [(key: UInt64, doc: Int)] {
        guard count > 0 else { return [] }
        if entries.count <= count * 4 { return Array(entries.sorted { $0.key < $1.key }.prefix(count)) }
        var top: [(key: UInt64, doc: Int)] = []
        top.reserveCapacity(count + 1)
        for entry in entries {
            if top.count == count, entry.key >= top[count - 1].key { continue }
            var i = top.count
            while i > 0 && top[i - 1].key > entry.key { i -= 1 }
            top.insert(entry, at: i)
            if top.count > count { top.removeLast() }
        }
        return top
    }

    /// Sorted by a field; documents without that field last; ties keep relevance order.
    func sortByField(_ entries: [(key: UInt64, doc: Int)], _ options: SearchOptions) -> [(key: UInt64, doc: Int)] {
        let descending = options.descending
        switch options.sort {
        case .name:
            var keyed = entries.map { (name: Array(Folding.fold(index.displayName($0.doc, language: options.language)).utf8), entry: $0) }
            keyed.sort { a, b in
                if a.name != b.name { return descending ? b.name.lexicographicallyPrecedes(a.name) : a.name.lexicographicallyPrecedes(b.name) }
                return a.entry.key < b.entry.key
            }
            return keyed.map(\.entry)
        case .id:
            return entries.sorted { a, b in
                let x = index.docID[a.doc], y = index.docID[b.doc]
                if x != y { return descending ? x > y : x < y }
                return a.key < b.key
            }
        default:
            let column = options.sort.column!
            return entries.sorted { a, b in
                let x = index.number(column, a.doc), y = index.number(column, b.doc)
                let missingX = x == NumericColumn.missing, missingY = y == NumericColumn.missing
                if missingX != missingY { return missingY }
                if x != y { return descending ? x > y : x < y }
                return a.key < b.key
            }
        }
    }
}
