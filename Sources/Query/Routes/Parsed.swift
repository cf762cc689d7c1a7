import Corpus
import Folding
import Index

extension SearchEngine {
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


    /// A query's window of ranked documents, how many matched in all, and each positive
    /// term's hits (for explanations).
    struct RankedWindow {
        var window: ArraySlice<(key: UInt64, doc: Int)>
        var total: Int
        var positives: [TermHits] = []
        /// Per document no term matched, why it is listed (`abilitiesOfAPokemon`), for explanations.
        var related: [Int: TermExplanation] = [:]
        /// What the query leased (its hit maps, the positives' among them), given back once
        /// the window is read.
        var lease: QueryLease?
        /// Which way it was found (set by `evaluate`).
        var route = AnswerRoute.parsedLists
    }

    func search(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, listsTried: Bool = false) throws -> SearchResponse {
        let ranked = try evaluate(parsed, options: options, completion: completion, listsTried: listsTried)
        defer { ranked.lease?.release() }
        return SearchResponse(results: results(ranked.window, positives: ranked.positives, related: ranked.related, options: options),
                              total: ranked.total,
                              route: ranked.route)
    }

    func evaluate(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, listsTried: Bool = false) throws -> RankedWindow {
        guard !parsed.isEmpty else {
            throw QueryError("nothing to search for: give a name, a word or a filter", position: 0, part: "")
        }
        if !listsTried, let answer = answerFromTops(parsed, options: options, completion: completion) { return answer }
        // Ranked on a lease of its own (its maps, its work budget), given back with the window.
        func ranked(_ query: ParsedQuery, completion: Bool) throws -> RankedWindow {
            let lease = hitMaps.lease()
            let (ranked, positives) = try rank(query, options: options, completion: completion, lease: lease)
            return RankedWindow(window: window(ranked, options), total: ranked.count, positives: positives, lease: lease,
                                route: listsTried ? .oneWordRanked : .parsedRanked)
        }
        if !completion, let narrowed = kindWordsAsFilters(parsed) {
            let answer = try ranked(narrowed, completion: false)
            if answer.total > 0 { return answer }
            answer.lease?.release()
            if let abilities = try abilitiesOfAPokemon(narrowed, options: options) { return abilities }
        }
        return try ranked(parsed, completion: completion)
    }
}
