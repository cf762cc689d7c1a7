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

/// A positive term while a query is ranked: its clause in the parsed query, its hits once
/// matched (a word read on candidates only, later), and its text in the trie (a deferred word
/// is matched in full from it; the phrase of the terms is looked up from the first's). Plain
/// values only: slots are copied and read in the ranking's loops without reference counting
/// (a slot holding its term counted references to the term's strings at each copy).
struct TermSlot {
    var clause: Int
    var hits: HitMap?
    var located: MatchContext.TermNode? = nil
    /// A deferred word (its hits come after the other terms'): the keys it matches, and
    /// what matching it in full costs, in postings' worth (its postings, and `MatchContext.substringCost`).
    var deferredKeys: Range<Int>? = nil
    var cost = 0
    /// A deferred word's hits read on the candidates only (matched in full when typos may
    /// be needed).
    var readOnCandidates = false
}

/// A positive term and its hits. (Structs, not tuples, wherever a term is kept in an array:
/// arrays of tuples with such payloads are copied through the runtime's generic witnesses.)
struct TermHits {
    var term: Term
    var hits: HitMap
}

/// Answers queries over one immutable index snapshot. Thread-safe: its only mutable state
/// is the pool of reusable hit maps, behind a lock.
public final class SearchEngine: Sendable {
    public let index: IndexSnapshot

    /// Every document number, the candidates of a query with filters only.
    private let allDocs: [Int32]
    /// The documents of each type, in document order: a type filter's candidates without a
    /// scan of every document.
    private let docsByType: [[Int32]]
    /// Every document number, by id (then document order), and where each id's documents
    /// start there (ids up to the largest; any other, none in the corpus, in a last group
    /// looked through): a bare number's documents without a scan of every document (a
    /// completion of `1` read all 5,133).
    private let docsByID: [Int32]
    private let idStarts: [Int32]
    let hitMaps: HitMapPool

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

    /// A search through the parsed query (what `search` does with any text).
    func searchParsed(_ query: String, options: SearchOptions) throws -> SearchResponse {
        let parsed = try QueryParser.parse(query)
        if parsed.isEmpty, let symbols = Self.symbolsAlone(query) {
            let ranked = namesHolding(symbols, options: options, completion: false)
            return SearchResponse(results: results(window(ranked, options), positives: [], options: options), total: ranked.count,
                                  route: .parsedRanked)
        }
        return try search(parsed, options: options, completion: false)
    }

    /// A query of symbols alone ("???", "★", "!"), which folding leaves with nothing to
    /// search for, as written (trimmed); nil when it has a letter or a digit (a filter
    /// without a value), is blank, or is `*` alone ("anything"): errors.
    static func symbolsAlone(_ query: String) -> String? {
        let scalars = query.unicodeScalars
        guard let first = scalars.firstIndex(where: { !QueryParser.isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !QueryParser.isWhitespace($0) }),
              !scalars[first...last].contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }),
              scalars[first...last].contains(where: { $0 != "*" && !QueryParser.isWhitespace($0) })
        else { return nil }
        return String(scalars[first...last])
    }

    /// Documents with a name holding `symbols` as written, ranked as a term's hits are (the
    /// whole name, its start, a later word's start, further in; the display language
    /// first). Such names are few ("??? Arceus", "★And458", "Unown !"): those holding the
    /// query's rarest symbol are read (the index lists them by symbol).
    func namesHolding(_ symbols: String, options: SearchOptions, completion: Bool) -> [(key: UInt64, doc: Int)] {
        let needle = Array(symbols.utf8)
        let kindMask = options.kinds.reduce(0) { $0 | (1 << $1.rank) }
        // Each document's best hit, in a pooled map.
        let best = hitMaps.take()
        defer { hitMaps.giveBack(best) }
        index.forEachNameHolding(symbols: needle) { doc, entry, offset in
            guard kindMask == 0 || kindMask & (1 << Int(index.docKind[doc])) != 0 else { return }
            let name = index.nameTexts.range(entry)
            let position: Position = offset == 0 ? (name.count == needle.count ? .wholeName : .namePrefix)
                : IndexSnapshot.containment(offset: offset, afterSpace: index.nameTexts.bytes[name.lowerBound + offset - 1] == 0x20)!
            if completion && position == .substring { return }
            let miss: UInt32 = Int(index.nameLanguage[entry]) == options.language ? 0 : 1
            best.record(doc, Hit(raw: Hit.raw(rank: HitRank.of(miss: miss, whole: position == .wholeName, position: position.rawValue),
                                              postingByte: 0)))
        }
        return best.docs.map { doc in (key: RankingKey.single(Hit(raw: best.best[Int(doc)]).rank, doc: Int(doc)).raw, doc: Int(doc)) }
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

    /// The longest word `completionOfOneWord` takes (folded on the stack).
    static let oneWordLength = 64

    /// What `completionOfOneWord` or `searchOfOneWord` made of a text.
    enum OneWordAnswer<Answer> {
        /// The answer, from the trie's lists.
        case answered(Answer)
        /// One word the lists cannot answer (misspelt, past their window or their display
        /// language): its term, as the parser makes it, for the ranking to match.
        case unanswered(Term)
        /// Anything else, for the parser.
        case notOneWord
    }

    typealias OneWordCompletion = OneWordAnswer<ArraySlice<(key: UInt64, doc: Int)>>

    /// A completion of one word being typed (the parser's simple term: letters and digits,
    /// accented Latin, kana, hangul, han; or such words joined by punctuation, a phrase),
    /// answered from the trie node's list as the parsed query would be (`answerFromTops`,
    /// `completionOfPhrase`), folded on the stack without parsing: the parser's
    /// term, its two strings and its array of clauses were almost half of such a completion's
    /// instructions (docs/PERFORMANCE.md). Where the lists cannot answer,
    /// the word's term is made from its folding, not parsed again (a misspelt word's
    /// completion, "giraitna", spent a large share of its work parsing it, and looking
    /// for its list a second time).
    func completionOfOneWord(_ text: String, limit: Int, language: Int) -> OneWordCompletion {
        let wanted = max(1, min(limit, SearchOptions.maxLimit))
        let listsRank = Self.listsRank(language: language, wanted: wanted)
        return withFoldedWord(text) { folded, words, bytes -> OneWordCompletion in
            if listsRank, let answer = words > 1 ? completionOfPhrase(folded, wanted: wanted)
                : answerFromTops(word: folded, wanted: wanted, offset: 0, completion: true) {
                return .answered(answer.window)
            }
            return .unanswered(Self.term(folded: folded, words: words, bytes: bytes))
        } ?? .notOneWord
    }

    /// The parser's term of a text that is one word, from its folding (see `withFoldedWord`).
    static func term(folded: UnsafeBufferPointer<UInt8>, words: Int, bytes: UnsafeBufferPointer<UInt8>) -> Term {
        Term(text: String(decoding: folded, as: UTF8.self), raw: String(decoding: bytes, as: UTF8.self),
             shape: words > 1 ? .phrase : .word, language: nil, position: 0)
    }

    /// A search of one word (as `completionOfOneWord` takes it) answered from the trie node's
    /// list as the parsed query would be (`answerFromTops`), the word folded on the stack
    /// without parsing: the parser's term, its strings and its clauses were a large share of
    /// a one-word search's instructions (docs/PERFORMANCE.md has the count on the benchmark's
    /// one-word names). Where the lists cannot answer (options they do not rank, a phrase,
    /// no name starting with the word: substrings, typos), its term, made from the folding.
    func searchOfOneWord(_ query: String, options: SearchOptions) -> OneWordAnswer<RankedWindow> {
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        let listsAnswer = options.sort == .relevance && !options.explain && options.kinds.isEmpty
            && Self.listsRank(language: options.language, wanted: offset + limit)
        return withFoldedWord(query) { folded, words, bytes -> OneWordAnswer<RankedWindow> in
            if listsAnswer, words == 1, let answer = answerFromTops(word: folded, wanted: offset + limit, offset: offset, completion: false) {
                return .answered(answer)
            }
            return .unanswered(Self.term(folded: folded, words: words, bytes: bytes))
        } ?? .notOneWord
    }

    /// Calls `body` with the folding of a text that is one word (`QueryParser.foldedWord`:
    /// how the parser folds its only term), how many words that folding holds, and the text's
    /// bytes, all in place (the folding on the stack); nil when the text is anything else.
    func withFoldedWord<Result>(_ text: String, _ body: (_ folded: UnsafeBufferPointer<UInt8>, _ words: Int,
                                                         _ bytes: UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count <= Self.oneWordLength else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Folding.byScalarCapacity(bytes.count)) { output in
                guard let (count, words) = QueryParser.foldedWord(bytes, into: output) else { return nil }
                return body(UnsafeBufferPointer(rebasing: output[..<count]), words, bytes)
            }
        }
    }

    /// A completion through the parsed query (what `complete` does with any text).
    func completeParsed(_ text: String, limit: Int, language: Int, kinds: Set<Kind>) throws -> Suggestions {
        var parsed = try QueryParser.parse(text, lenient: true)
        // (The last byte tells an ASCII ending, the last scalar any other.)
        let typingLastWord = text.utf8.last.flatMap { $0 < 0x80 ? !QueryParser.isWhitespace(Unicode.Scalar($0)) : nil }
            ?? text.unicodeScalars.last.map { !QueryParser.isWhitespace($0) } ?? false
        let lastTerm = parsed.clauses.lastIndex { if case .term = $0.clause { return !$0.negated } else { return false } }
        for i in parsed.clauses.indices where !(typingLastWord && i == lastTerm) {
            parsed.clauses[i].clause.markWholeWord()
        }
        return try completion(of: parsed, text: text, limit: limit, language: language, kinds: kinds, listsTried: false)
    }

    /// The completion of a query read from `text`, its words typed out marked so
    /// (`listsTried`: the trie's lists could not answer it).
    func completion(of parsed: ParsedQuery, text: String, limit: Int, language: Int, kinds: Set<Kind>,
                    listsTried: Bool) throws -> Suggestions {
        var options = SearchOptions()
        options.limit = max(1, min(limit, SearchOptions.maxLimit))
        options.language = language
        options.kinds = kinds
        if parsed.isEmpty {
            let ranked = Self.symbolsAlone(text).map { namesHolding($0, options: options, completion: true) } ?? []
            return Suggestions(index: index, language: language, window: window(ranked, options), route: .parsedRanked)
        }
        let ranked = try evaluate(parsed, options: options, completion: true, listsTried: listsTried)
        defer { ranked.lease?.release() }
        return Suggestions(index: index, language: language, window: ranked.window, route: ranked.route)
    }

    // MARK: - Evaluation

    /// A query's window of ranked documents, how many matched in all, and each positive
    /// term's hits (for explanations).
    struct RankedWindow {
        var window: ArraySlice<(key: UInt64, doc: Int)>
        var total: Int
        var positives: [TermHits] = []
        /// What the query leased (its hit maps, the positives' among them), given back once
        /// the window is read.
        var lease: QueryLease?
        /// Which way it was found (set by `evaluate`).
        var route = AnswerRoute.parsedLists
    }

    func search(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, listsTried: Bool = false) throws -> SearchResponse {
        let ranked = try evaluate(parsed, options: options, completion: completion, listsTried: listsTried)
        defer { ranked.lease?.release() }
        return SearchResponse(results: results(ranked.window, positives: ranked.positives, options: options), total: ranked.total,
                              route: ranked.route)
    }

    func evaluate(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, listsTried: Bool = false) throws -> RankedWindow {
        guard !parsed.isEmpty else {
            throw QueryError("nothing to search for: give a name, a word or a filter", position: 0, part: "")
        }
        if !listsTried, let answer = answerFromTops(parsed, options: options, completion: completion) { return answer }
        let lease = hitMaps.lease()
        let (ranked, positives) = try rank(parsed, options: options, completion: completion, lease: lease)
        let total = ranked.count
        return RankedWindow(window: window(ranked, options), total: total, positives: positives, lease: lease,
                            route: listsTried ? .oneWordRanked : .parsedRanked)
    }

    /// The page `options` ask for of ranked documents: by relevance, or sorted by a field.
    func window(_ ranked: consuming [(key: UInt64, doc: Int)], _ options: SearchOptions) -> ArraySlice<(key: UInt64, doc: Int)> {
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        if options.sort == .relevance {
            return topK(ranked, offset + limit).dropFirst(offset)
        }
        return sortByField(ranked, options).dropFirst(offset).prefix(limit)
    }

    /// A one-word query (the word being typed) answered from the best-first list of the trie
    /// node it leads to, without reading the key range: the list's documents, the exact key's
    /// whole names upgraded, and for a search the names containing the word further in; the
    /// total from the node's document count plus those substring matches outside the range.
    /// Nil when the list cannot answer exactly (another display language, kinds, sorting,
    /// explanations, a page past the list, no key starting with the word: then typos and
    /// transliteration are the full ranking's). A completion's total is not counted
    /// (completions show only their window).
    func answerFromTops(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool) -> RankedWindow? {
        guard options.sort == .relevance, !options.explain, options.kinds.isEmpty, parsed.language == nil,
              parsed.clauses.count == 1, !parsed.clauses[0].negated,
              case .term(let term) = parsed.clauses[0].clause, term.shape == .word, term.language == nil else { return nil }
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        guard Self.listsRank(language: options.language, wanted: offset + limit) else { return nil }
        // The word's bytes in place (a short word's on the stack), not copied into an array.
        var word = term.text
        return word.withUTF8 { answerFromTops(word: $0, wanted: offset + limit, offset: offset, completion: completion) }
    }

    /// Whether the trie's lists rank a window of `wanted` documents (a page's end) for a display
    /// language: the language they were made for, and no further than they hold.
    static func listsRank(language: Int, wanted: Int) -> Bool {
        UInt32(language) == PrefixTops.language && wanted <= PrefixTops.capacity
    }

    /// The answer above for the word's bytes, `wanted` documents (the page's end) at most.
    func answerFromTops(word bytes: UnsafeBufferPointer<UInt8>, wanted: Int, offset: Int, completion: Bool) -> RankedWindow? {
        if completion {
            guard let (node, list) = namesList(bytes, wanted: wanted) else { return nil }
            return completionFromTops(list: list, node: node, length: bytes.count, wanted: wanted, offset: offset)
        }
        guard let node = index.prefixNode(bytes) else { return nil }
        index.prefetchList(of: node)
        // The node's list of names, and the entries the word adds to it: the list's fields,
        // and the postings of the key equal to the word, whole words.
        let list = index.tops.names(node)
        // (Given room for two windows' worth where entries come: grown one at a time, the
        // array cost more than the entries.)
        var added: [UInt32] = []
        added.reserveCapacity(2 * wanted)
        added.append(contentsOf: index.tops.entries[index.tops.fields(node)])
        let keyRange = index.nodeKeys(node)
        if let exactKey = index.keyEqualToPrefix(of: node, length: bytes.count) {
            added.addWholeWords(of: exactKey, in: index)
        }
        var total = Int(index.tops.distinctDocs[node])
        if Self.isLongEnoughForSubstrings(bytes) {
            // Names containing the word further in: ranked with the list (a document
            // listed for a field may rank higher by such a name), and counted once unless
            // already in the range. The list holds distinct documents, best first: once it
            // has the window's worth, an entry not below its last can enter no window
            // (a common piece, "meg", has thousands, none of them needed).
            var cutoff = list.count >= wanted && wanted > 0 ? index.tops.entries[list.lowerBound + wanted - 1] : .max
            // The documents found, each once (a pooled map: no document-sized array to
            // clear and scan per query).
            let found = hitMaps.take()
            defer { hitMaps.giveBack(found) }
            added.reserveCapacity(2 * wanted)
            // A key holding the word further in, first at `offset` (after a space: at a later
            // word's start).
            func addNames(of key: Int, offset: Int, afterSpace: Bool) {
                let position = IndexSnapshot.containment(offset: offset, afterSpace: afterSpace)
                for p in index.postingRange(key: key) {
                    let raw = index.postings[p]
                    guard Posting.isWholeName(raw) else { continue }
                    found.record(Int(raw >> 8), Hit(raw: 0))
                    if let position {
                        let entry = Self.insideEntry(raw, position)
                        if entry < cutoff { added.append(entry) }
                    }
                }
                if wanted > 0 && added.count >= 4 * wanted { keepWindowOfAdded() }
            }
            // Once the added entries are many (a short list: "end" is inside thousands of
            // names), only the best entry of each of the window's worth of documents is
            // kept: the last of those bounds what may still enter.
            func keepWindowOfAdded() {
                added.sort()
                var kept: [UInt32] = []
                kept.reserveCapacity(2 * wanted)
                for entry in added where kept.count < wanted {
                    let doc = PrefixTops.doc(entry)
                    if !kept.contains(where: { PrefixTops.doc($0) == doc }) { kept.append(entry) }
                }
                added = kept
                if kept.count == wanted { cutoff = min(cutoff, kept[wanted - 1]) }
            }
            index.forEachKeyContaining(bytes, skipping: keyRange, laterWords: false, addNames)
            // Those outside the range: each looked up in its own postings, or, when the
            // range has few postings beside the documents found ("end" is in thousands of
            // names, few start with it), the range's documents marked first.
            let rangePostings = Int(index.postingStart[keyRange.upperBound] - index.postingStart[keyRange.lowerBound])
            if rangePostings <= 16 * found.count {
                let inRange = hitMaps.take()
                defer { hitMaps.giveBack(inRange) }
                for p in Int(index.postingStart[keyRange.lowerBound])..<Int(index.postingStart[keyRange.upperBound]) {
                    inRange.record(Int(index.postings[p] >> 8), Hit(raw: 0))
                }
                for doc in found.docs where !inRange.contains(Int(doc)) { total += 1 }
            } else {
                for doc in found.docs where !index.tops.hasKey(Int(doc), in: keyRange) { total += 1 }
            }
        }
        return RankedWindow(window: merged(list: list, added: &added, wanted: wanted).dropFirst(offset), total: total)
    }

    /// The trie node a completion's folded text leads to, and its list of names, when that list
    /// can give the completion's first `wanted` documents: it holds that many, or every name
    /// of the node's range (a list ending in fields, or not full). Nil otherwise, or where no
    /// key starts with the text.
    func namesList(_ bytes: UnsafeBufferPointer<UInt8>, wanted: Int) -> (node: Int, list: Range<Int>)? {
        guard let node = index.prefixNode(bytes) else { return nil }
        index.prefetchList(of: node)
        let list = index.tops.names(node)
        guard !list.isEmpty, list.count >= wanted || list.count < PrefixTops.capacity else { return nil }
        return (node, list)
    }

    /// The first `wanted` documents of a node's list and of entries found beside it (`added`,
    /// any order), both as list entries: merged best first, each document at its best entry.
    func merged(list: Range<Int>, added: inout [UInt32], wanted: Int) -> [(key: UInt64, doc: Int)] {
        added.sort()
        var window: [(key: UInt64, doc: Int)] = []
        window.reserveCapacity(wanted)
        var next = list.lowerBound, nextAdded = 0
        while window.count < wanted {
            let entry: UInt32
            if next < list.upperBound && (nextAdded == added.count || index.tops.entries[next] <= added[nextAdded]) {
                entry = index.tops.entries[next]
                next += 1
            } else if nextAdded < added.count {
                entry = added[nextAdded]
                nextAdded += 1
            } else {
                break
            }
            let doc = PrefixTops.doc(entry)
            if window.contains(where: { $0.doc == doc }) { continue }
            window.append((RankingKey.single(PrefixTops.rank(entry), doc: doc).raw, doc))
        }
        return window
    }

    /// A completion of a phrase typed as one word ("Multi-Attack", "Ho-Oh", "Nidoran♂": words
    /// joined by what folds to a space), answered as its parsed term (`.phrase`) ranks: the
    /// whole names starting with it (the node's list: a key holding a space is a whole name's),
    /// those equal to it exact; the key equal to its compact form ("multiattack"), as a whole
    /// word; the whole names where it starts a later word. Nil where the list cannot answer
    /// (no name starts with it, or too few listed), for the parsed query to answer.
    func completionOfPhrase(_ bytes: UnsafeBufferPointer<UInt8>, wanted: Int) -> RankedWindow? {
        guard let (node, list) = namesList(bytes, wanted: wanted) else { return nil }
        var added: [UInt32] = []
        if let exactKey = index.keyEqualToPrefix(of: node, length: bytes.count) {
            for p in index.postingRange(key: exactKey) where Posting.isWholeName(index.postings[p]) {
                added.append(PrefixTops.entry(posting: index.postings[p], exact: true))
            }
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { compact in
            let count = Folding.compact(bytes, into: compact)
            guard let compactNode = index.prefixNode(UnsafeBufferPointer(rebasing: compact[..<count])),
                  let key = index.keyEqualToPrefix(of: compactNode, length: count) else { return }
            for p in index.postingRange(key: key) {
                let raw = index.postings[p]
                guard (raw >> 1) & 7 != KeyRole.field.rawValue else { continue }
                added.append(PrefixTops.entry(posting: raw, exact: true))
            }
        }
        index.forEachKeyContaining(bytes, skipping: index.nodeKeys(node)) { key, offset, afterSpace in
            guard IndexSnapshot.containment(offset: offset, afterSpace: afterSpace) == .laterWordPrefix else { return }
            for p in index.postingRange(key: key) where Posting.isWholeName(index.postings[p]) {
                added.append(Self.insideEntry(index.postings[p], .laterWordPrefix))
            }
        }
        return RankedWindow(window: merged(list: list, added: &added, wanted: wanted)[...], total: 0)
    }

    /// A completion's answer from a node's list of names (`list`): the list, best first,
    /// merged with the postings of the key equal to the word (of `length` bytes, when the node
    /// has it), whole words of names (the list has them as prefixes). Of those postings only
    /// the best `wanted` documents can enter the window: they are kept on the stack, in order,
    /// as the postings are read (no array to allocate and sort: a common word has hundreds of
    /// postings, "pokemon" a later word of many names).
    func completionFromTops(list: Range<Int>, node: Int, length: Int, wanted: Int, offset: Int) -> RankedWindow {
        var window: [(key: UInt64, doc: Int)] = []
        window.reserveCapacity(wanted)
        let exactKey = index.keyEqualToPrefix(of: node, length: length)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wanted) { best in
            var count = 0
            for p in exactKey.map(index.postingRange) ?? 0..<0 {
                let raw = index.postings[p]
                // (Names matched through their transliteration are listed already; a lone
                // word being typed matches no field.)
                guard raw & 1 == 0, (raw >> 1) & 7 != KeyRole.field.rawValue else { continue }
                let entry = PrefixTops.entry(posting: raw, exact: true)
                var at = count
                if let same = best[..<count].firstIndex(where: { PrefixTops.doc($0) == PrefixTops.doc(entry) }) {
                    guard entry < best[same] else { continue }
                    at = same
                } else if count == wanted {
                    guard entry < best[count - 1] else { continue }
                    at = count - 1
                } else {
                    count += 1
                }
                // Into its place, the entry at `at` (the same document's, or the last) dropped.
                while at > 0 && best[at - 1] > entry {
                    best[at] = best[at - 1]
                    at -= 1
                }
                best[at] = entry
            }
            var next = list.lowerBound, nextBest = 0
            while window.count < wanted && (next < list.upperBound || nextBest < count) {
                let entry: UInt32
                if next < list.upperBound && (nextBest == count || index.tops.entries[next] <= best[nextBest]) {
                    entry = index.tops.entries[next]
                    next += 1
                } else {
                    entry = best[nextBest]
                    nextBest += 1
                }
                let doc = PrefixTops.doc(entry)
                if !window.contains(where: { $0.doc == doc }) { window.append((RankingKey.single(PrefixTops.rank(entry), doc: doc).raw, doc)) }
            }
        }
        return RankedWindow(window: window.dropFirst(offset), total: 0)
    }

    /// A list entry (`PrefixTops.entry`) of a whole name holding the word further in, at
    /// `position`.
    @inline(__always) static func insideEntry(_ posting: UInt32, _ position: Position) -> UInt32 {
        PrefixTops.entry(rank: HitRank.inside(posting: posting, position: position.rawValue, display: PrefixTops.language),
                         doc: posting >> 8)
    }

    /// What reading a word on one candidate costs, in postings' worth, where the word is
    /// also looked for inside the candidate's names: searching each of its names in each
    /// language (thousands of instructions a candidate for "che"). With
    /// `MatchContext.occurrenceCost`, tuned on the benchmark's searches (instructions summed
    /// over the slowest and over all; docs/PERFORMANCE.md): occurrences left uncounted
    /// made the word with fewest postings match first in full however many
    /// names hold it ("fire flying tal": "tal", in hundreds of names, then "fire" and "flying"
    /// in full); counted, the slowest searches do less work and the others as much,
    /// "fire flying tal" and "normal ter tera" several times less.
    static let substringReadingCost = 48

    /// Whether a text (UTF-8) is long enough to be matched as a substring: three scalars, or
    /// two when any is beyond ASCII (other scripts, whose names are shorter). Counted on the
    /// bytes: scalars start at every byte but continuation bytes.
    static func isLongEnoughForSubstrings(_ utf8: some Sequence<UInt8>) -> Bool {
        var scalars = 0, ascii = true
        for byte in utf8 where byte & 0xC0 != 0x80 {
            scalars += 1
            if byte >= 0x80 { ascii = false }
        }
        return scalars >= (ascii ? 3 : 2)
    }

    /// Every matching document with its ranking key (smallest first once sorted), and, when
    /// explanations are asked for, the terms' hits. `deferring` off matches every term in full, by
    /// reading its postings (no word read on candidates, none from a trie node's list: tests
    /// compare the two ways).
    func rank(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, deferring: Bool = true, lease: QueryLease? = nil) throws
        -> (ranked: [(key: UInt64, doc: Int)], positives: [TermHits]) {
        let context = MatchContext(index: index, displayLanguage: options.language, languageRestriction: parsed.language,
                                   completion: completion, typedAfterOthers: completion && parsed.clauses.count > 1,
                                   readsLists: deferring, lease: lease ?? hitMaps.lease())
        // Positive terms in query order (a deferred word's hits are filled in below), and the
        // candidate documents: the lease's arrays, given back emptied with their capacity.
        var slots: [TermSlot] = []
        var candidates: [Int32] = []
        swap(&slots, &context.lease.slots)
        swap(&candidates, &context.lease.candidates)
        defer {
            slots.removeAll(keepingCapacity: true)
            candidates.removeAll(keepingCapacity: true)
            swap(&slots, &context.lease.slots)
            swap(&candidates, &context.lease.candidates)
        }
        var excluded: [HitMap] = []
        var filters: [(ResolvedFilter, Bool)] = []
        /// bm25 scores of the `text:` filters' documents, summed (smaller is better).
        var textScores: [Int: Double] = [:]
        var kinds = options.kinds
        // The same term twice is matched once. Queries have a few terms: a list searched
        // in turn costs less than hashing their texts.
        struct TermKey: Equatable {
            var text: String
            var shape: Int
            var language: Int?
            var negated: Bool
        }
        struct Matched {
            var key: TermKey
            var hits: HitMap
        }
        func termKey(_ entry: QueryClause) -> TermKey? {
            guard case .term(let term) = entry.clause else { return nil }
            let shape: Int
            switch term.shape {
            case .word: shape = 0
            case .wholeWord: shape = 1
            case .phrase: shape = 2
            case .wildcard: shape = 3
            }
            // A wildcard's folded text has lost its `*` and `?`: the raw pattern tells them apart.
            return TermKey(text: shape == 3 ? term.raw : term.text, shape: shape, language: term.language, negated: entry.negated)
        }
        // The terms are kept apart only when one repeats (most queries: none does; their
        // texts, compared in place, tell it without making keys).
        let repeats = parsed.mayRepeatTerms && parsed.clauses.indices.contains { i in
            termKey(parsed.clauses[i]).map { key in parsed.clauses[..<i].contains { termKey($0) == key } } ?? false
        }
        var matched: [Matched] = []
        var deferredTexts: [TermKey] = []
        // (Room for every clause at once: grown one term at a time, these lists cost a few
        // allocations each per query.)
        slots.reserveCapacity(parsed.clauses.count)
        for clause in parsed.clauses.indices {
            let negated = parsed.clauses[clause].negated
            switch parsed.clauses[clause].clause {
            case .term(let term):
                let key = repeats ? termKey(parsed.clauses[clause]) : nil
                let earlier = key.flatMap { key in matched.first { $0.key == key }?.hits }
                // Found in the trie once, to defer the term or to match it.
                let located = earlier == nil ? context.locate(term) : nil
                if deferring, !negated, let located, !(key.map(deferredTexts.contains) ?? false) {
                    if let key { deferredTexts.append(key) }
                    if let words = context.deferrable(term, located) {
                        slots.append(TermSlot(clause: clause, hits: nil, located: located, deferredKeys: words.keys, cost: words.postings))
                        continue
                    }
                }
                let hits = try earlier ?? context.match(term, allowTypos: !negated, located: located)
                if let key, earlier == nil { matched.append(Matched(key: key, hits: hits)) }
                if context.budget.isSpent { throw Self.tooBroad(term) }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits, located: located)) }
            case .unknownFilter(let term, let name):
                let hits = try context.match(term, allowTypos: false)
                if hits.isEmpty {
                    throw QueryError("unknown filter '\(name):' (filters: kind type ability gen color habitat is lang id hp atk def spa spd spe bst height weight power accuracy pp cost text ailment target flag priority tm)",
                                     position: term.position, part: term.raw)
                }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits)) }
            case .id(let id, _):
                let hits = context.lease.newMap()
                for doc in docs(withID: id).lazy.map(Int.init) {
                    let posting = Posting(doc: doc, language: Posting.noLanguage, role: .whole, transliterated: false)
                    hits.record(doc, Hit(raw: Hit.raw(posting: posting.raw, exact: true, display: UInt32(options.language))))
                }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits)) }
            case .filter(.kind(let kind), _, _) where !negated:
                kinds.insert(kind)
            case .filter(.database(let filter), let position, let part):
                let matches = try options.databaseMatches(filter, position: position, part: part)
                filters.append((.docs(Set(matches.keys.map(Int32.init))), negated))
                if !negated, case .text = filter { textScores.merge(matches, uniquingKeysWith: +) }
            case .filter(let filter, let position, let part):
                filters.append((try context.resolve(filter, position: position, part: part), negated))
            }
        }

        // Deferred words, rarest first. Without another positive term, the rarest is matched
        // in full to give the candidates; each other one is matched in full when its key range
        // is not much larger than the candidates, else read from the candidates' own
        // postings (the word being typed, "p", has tens of thousands).
        // (Found among the slots, a deferred word having no hits yet: queries have a few.)
        func rarestDeferred() -> Int? {
            var rarest: Int? = nil
            for i in slots.indices where slots[i].hits == nil && (rarest.map { slots[i].cost < slots[$0].cost } ?? true) { rarest = i }
            return rarest
        }
        func matchInFull(_ slot: Int) throws {
            let term = parsed.term(slots[slot].clause)
            let hits = try context.match(term, allowTypos: true, located: slots[slot].located)
            if context.budget.isSpent { throw Self.tooBroad(term) }
            slots[slot].hits = hits
            slots[slot].readOnCandidates = false
        }
        // A search of several words plans by what matching each costs in full, counting the
        // names that hold it further in (`substringCost`): that decides which is matched
        // first and which are read on the candidates. One word leaves nothing to plan; a
        // completion's words match no substrings (but for a rare word of several), and
        // copying each term to tell would cost its multi-word completions for nothing.
        if slots.count > 1 && !completion {
            for i in slots.indices where slots[i].hits == nil { slots[i].cost += context.substringCost(parsed.term(slots[i].clause)) }
        }
        if !slots.contains(where: { $0.hits != nil }), let rarest = rarestDeferred() {
            try matchInFull(rarest)
        }
        let kindMask = kinds.reduce(0) { $0 | (1 << $1.rank) }
        intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                  favourites: options.favourites, into: &candidates)

        while let slot = rarestDeferred() {
            let term = parsed.term(slots[slot].clause)
            let keys = slots[slot].deferredKeys!
            // Reading a candidate costs a few postings' worth; looking for the word inside
            // each of its names (a search's substrings) costs tens (`substringReadingCost`).
            let substrings = context.matchesSubstrings(term)
            if slots[slot].cost <= (substrings ? Self.substringReadingCost : 4) * candidates.count {
                try matchInFull(slot)
                let hits = slots[slot].hits!
                candidates.removeAll { !hits.contains(Int($0)) }
                continue
            }
            let hits = context.lease.newMap()
            var text = term.text
            text.withUTF8 { bytes in
                for (n, doc) in candidates.enumerated() {
                    index.tops.prefetchPostings(aheadOf: n, count: candidates.count) { Int(candidates[$0]) }
                    if let raw = context.wordHit(term, bytes: bytes, keys: keys, substrings: substrings, doc: Int(doc)) {
                        hits.record(Int(doc), Hit(raw: raw))
                    }
                }
            }
            context.budget.postings -= candidates.count
            slots[slot].hits = hits
            slots[slot].readOnCandidates = true
            candidates.removeAll { !hits.contains(Int($0)) }
        }
        let numbers = candidates.isEmpty && slots.count > 1 ? slots.indices.filter { parsed.isID(slots[$0].clause) } : []
        if !numbers.isEmpty {
            // A number among words that is no such document's id ("zygarde 10": no Zygarde is
            // number 10) also matches as a word of a name ("10% Zygarde"), before any typo.
            for slot in slots.indices where slots[slot].readOnCandidates { try matchInFull(slot) }
            for slot in numbers {
                var term = parsed.term(slots[slot].clause)
                // A completion's earlier words are typed out: whole words.
                if completion && slots[slot].clause < parsed.clauses.count - 1 { term.shape = .wholeWord }
                let words = try context.match(term, allowTypos: false)
                if context.budget.isSpent { throw Self.tooBroad(term) }
                let hits = slots[slot].hits!
                for doc in words.docs { hits.record(Int(doc), Hit(raw: words.best[Int(doc)])) }
            }
            intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                      favourites: options.favourites, into: &candidates)
        }
        let misspelt = candidates.isEmpty && slots.count > 1 ? slots.indices.filter { context.mayBeMisspelt(parsed.term(slots[$0].clause)) } : []
        if !misspelt.isEmpty {
            // Nothing has every term: let each term that may be misspelt also match within
            // its typo budget ("fier dragon"; a word read on candidates only is matched in
            // full first). Type names as written get no typos: "ground grass" being typed,
            // with no name starting "grass" of a ground type, stays empty rather than turning
            // two types into other words.
            for slot in slots.indices where slots[slot].readOnCandidates { try matchInFull(slot) }
            for slot in misspelt {
                let term = parsed.term(slots[slot].clause)
                context.addTypos(term, into: slots[slot].hits!)
                if context.budget.isSpent { throw Self.tooBroad(term) }
            }
            intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                      favourites: options.favourites, into: &candidates)
        }
        let phrase = slots.count > 1 && !candidates.isEmpty ? context.phraseHits(slots, of: parsed) : nil

        // Rank by the rules (`RankingKey`). With several terms a name is matched whole, or by
        // its start, when they are the whole name or its start together (the phrase), and each
        // term alone one position lower (`Position.amongTerms`): one term equal to a name ranks
        // as the name's start, "mega sc" Mega Scizor, which the terms start together, before
        // Mega Pinsir (French Méga-Scarabrute), which "mega" starts.
        let amongTerms = slots.count > 1
        var ranked: [(key: UInt64, doc: Int)] = []
        ranked.reserveCapacity(candidates.count)
        for candidate in candidates {
            let doc = Int(candidate)
            var terms = RankingKey.Terms(anyTerm: !slots.isEmpty)
            for slot in slots { terms.add(slot.hits!.best[doc] >> 8, amongTerms: amongTerms) }
            if let phrase, let hit = phrase.hit(doc) { terms.addPhrase(hit.rank) }
            ranked.append((terms.key(doc: doc).raw, doc))
        }
        if slots.isEmpty && !textScores.isEmpty { Self.rankByTextScore(&ranked, textScores) }
        return (ranked, options.explain ? slots.map { TermHits(term: parsed.term($0.clause), hits: $0.hits!) } : [])
    }

    func results(_ window: ArraySlice<(key: UInt64, doc: Int)>, positives: [TermHits],
                 options: SearchOptions) -> SearchResults {
        let explanations = !options.explain ? [] : window.map { entry in
            positives.compactMap { positive in positive.hits.hit(entry.doc).map { explanation(positive.term, $0, doc: entry.doc) } }
        }
        return SearchResults(index: index, language: options.language, window: window, explanations: explanations,
                             decidingRules: options.explain ? decidingRules(window) : [])
    }

    /// One document as a result, as a search would list it (`fav`, `random`).
    public func result(doc: Int, language: Int) -> SearchResult {
        SearchResults(index: index, language: language, window: [(0, doc)], explanations: [], decidingRules: [])[0]
    }

    static func tooBroad(_ term: Term) -> QueryError {
        QueryError("query too broad: its terms match too much to rank in time; use longer words or fewer terms",
                   position: term.position, part: term.raw)
    }

    /// Documents every slot's map holds (of the slots matched so far; the smallest drives),
    /// of the kinds asked for, held by no excluded map, passing every filter: into `docs`,
    /// replacing what it held (its room is kept from one query to the next).
    func intersect(_ slots: [TermSlot], excluded: [HitMap], filters: [(ResolvedFilter, Bool)], kindMask: Int,
                   context: MatchContext, favourites: Set<Int>, into docs: inout [Int32]) {
        docs.removeAll(keepingCapacity: true)
        var smallest: HitMap? = nil
        for slot in slots { if let hits = slot.hits, hits.count < smallest?.count ?? .max { smallest = hits } }
        if let smallest {
            docs.append(contentsOf: smallest.docs)
        } else {
            // Filters only: the smallest type asked for, else every document.
            var start = allDocs
            for case (.type(let type), false) in filters where docsByType[Int(type)].count < start.count { start = docsByType[Int(type)] }
            for case (.docs(let found), false) in filters where found.count < start.count { start = found.sorted() }
            docs.append(contentsOf: start)
        }
        if kindMask != 0 {
            index.docKind.withUnsafeBufferPointer { kinds in docs.removeAll { kindMask & (1 << Int(kinds[Int($0)])) == 0 } }
        }
        for slot in slots {
            guard let map = slot.hits, map.best != smallest?.best else { continue }
            docs.removeAll { !map.contains(Int($0)) }
        }
        for map in excluded { docs.removeAll { map.contains(Int($0)) } }
        for (filter, negated) in filters { context.apply(filter, negated: negated, to: &docs, favourites: favourites) }
    }

    /// The `count` smallest entries in order, without sorting everything (a few: sorted in
    /// place, no copy).
    func topK(_ entries: consuming [(key: UInt64, doc: Int)], _ count: Int) -> ArraySlice<(key: UInt64, doc: Int)> {
        guard count > 0 else { return [] }
        if entries.count <= count * 4 {
            entries.sort { $0.key < $1.key }
            return entries.prefix(count)
        }
        var top: [(key: UInt64, doc: Int)] = []
        top.reserveCapacity(count + 1)
        for entry in entries {
            if top.count == count, entry.key >= top[count - 1].key { continue }
            var i = top.count
            while i > 0 && top[i - 1].key > entry.key { i -= 1 }
            top.insert(entry, at: i)
            if top.count > count { top.removeLast() }
        }
        return top[...]
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

extension [UInt32] {
    /// Adds the postings of `key`, equal to a word, as list entries (`PrefixTops.entry`):
    /// whole words (but names matched through their transliteration, listed already).
    mutating func addWholeWords(of key: Int, in index: IndexSnapshot) {
        for p in index.postingRange(key: key) where index.postings[p] & 1 == 0 {
            append(PrefixTops.entry(posting: index.postings[p], exact: true))
        }
    }
}
