import Corpus
import Index

public struct SearchResult: Sendable, Equatable {
    public var doc: Int
    public var kind: Kind
    public var id: Int
    public var slug: String
    public var name: String
    public var score: Int
    public var types: [String]
    public var explanation: [TermExplanation]
    /// With explanations: the ranking rule that put this result above the next one.
    public var decidedBy: RankingRule? = nil
    /// A Pokémon's or form's national dex number (its species'), what tables show it by.
    public var dex: Int? = nil

    /// The explanation as lines: each term's, then the rule that decided against the next.
    public var explanationLines: [String] {
        explanation.map(\.summary) + (decidedBy.map { ["above the next by \($0.name)"] } ?? [])
    }
}

public struct SearchResponse: Sendable {
    public var results: SearchResults
    /// How many documents matched in all (the window is `results`).
    public var total: Int
    /// Which way it was answered.
    var route: AnswerRoute
}

/// Which way a search or a completion was answered. A shortcut that stopped being taken
/// would change no answer, only its cost and this, which tests read.
enum AnswerRoute: Sendable, Equatable {
    /// One word, folded on the stack and answered from the trie's lists (`searchOfOneWord`,
    /// `completionOfOneWord`).
    case oneWordLists
    /// One word the lists could not answer, ranked from the term its folding makes, unparsed.
    case oneWordRanked
    /// Several words being typed, completed from the forward index (`completionOfWords`).
    case words
    /// The parsed query, answered from the trie's lists (`answerFromTops`).
    case parsedLists
    /// The parsed query, ranked; or symbols alone, looked up as written (`namesHolding`).
    case parsedRanked
}

public struct Suggestion: Sendable, Equatable {
    public var text: String
    public var kind: Kind
    public var id: Int
    public var slug: String
}

/// A search's window: the ranked documents, each made a `SearchResult` (strings and all)
/// only when read. The answer itself is the documents and their scores; a front end that
/// writes results out reads their bytes in place (`withCard`), and a caller that reads a
/// few pays for those few.
public struct SearchResults: RandomAccessCollection, Sendable {
    let index: IndexSnapshot
    let language: Int
    /// The ranked documents with their ranking keys (the window of the ranking, not copied).
    let window: ArraySlice<(key: UInt64, doc: Int)>
    /// Per entry when explanations were asked for, else empty.
    let explanations: [[TermExplanation]]
    /// Per entry when explanations were asked for: what ranked it above the next.
    let decidingRules: [RankingRule?]

    public var startIndex: Int { 0 }
    public var endIndex: Int { window.count }

    public subscript(position: Int) -> SearchResult {
        let doc = window[window.startIndex + position].doc
        let card = index.card(doc, language: language)
        return SearchResult(doc: doc, kind: card.kind, id: card.id, slug: card.slug, name: card.name, score: score(at: position),
                            types: index.typeSlugs(of: card.types), explanation: explanation(at: position),
                            decidedBy: decidingRules.isEmpty ? nil : decidingRules[position], dex: index.dex(doc))
    }

    /// The national dex number of the result at `position` (see `SearchResult.dex`).
    public func dex(at position: Int) -> Int? { index.dex(window[window.startIndex + position].doc) }

    /// The score shown for a result, from its ranking key's rules: 1000 less 200 a term
    /// matched with typos, 50 a typo, 32 a term outside the display language and 8 one not
    /// a whole word (three of each at most), and 1 a step down in where the best term matched.
    public func score(at position: Int) -> Int {
        let key = RankingKey(raw: window[window.startIndex + position].key)
        return 1000 - Int(key.value(.words)) * 200 - Int(key.value(.typo)) * 50 - Int(Swift.min(key.value(.language), 3)) * 32
            - Int(Swift.min(key.value(.exactness), 3)) * 8 - Int(key.value(.position))
    }
    public func explanation(at position: Int) -> [TermExplanation] { explanations.isEmpty ? [] : explanations[position] }
    /// The slug of a type index of a card.
    public func typeSlug(_ type: UInt8) -> String { index.typeSlugs[Int(type)] }

    /// Calls `body` with each result's position and card in order, its name in the search's
    /// display language (the index's arrays entered once for the page).
    public func forEachCard(_ body: (Int, CardBytes) -> Void) {
        index.forEachCard(of: window, language: language, body)
    }
}

/// A completion's suggestions, each made a `Suggestion` only when read (see `SearchResults`).
public struct Suggestions: RandomAccessCollection, Sendable {
    let index: IndexSnapshot
    let language: Int
    /// The ranked documents (the window of the ranking, not copied).
    let window: ArraySlice<(key: UInt64, doc: Int)>
    /// Which way they were found.
    let route: AnswerRoute

    public var startIndex: Int { 0 }
    public var endIndex: Int { window.count }

    public subscript(position: Int) -> Suggestion {
        let card = index.card(window[window.startIndex + position].doc, language: language)
        return Suggestion(text: card.name, kind: card.kind, id: card.id, slug: card.slug)
    }

    /// Calls `body` with each suggestion's position and card in order, its name in the
    /// completion's display language (the index's arrays entered once for the page).
    public func forEachCard(_ body: (Int, CardBytes) -> Void) {
        index.forEachCard(of: window, language: language, body)
    }
}

extension IndexSnapshot {
    /// A Pokémon's or form's national dex number (its species id); nil for other kinds.
    public func dex(_ doc: Int) -> Int? {
        let value = numbers[NumericColumn.speciesID.rawValue][doc]
        return value == NumericColumn.missing ? nil : Int(value)
    }

    /// The cards of a ranking's window in order, with their positions in it (results and
    /// suggestions both write theirs this way).
    func forEachCard(of window: ArraySlice<(key: UInt64, doc: Int)>, language: Int, _ body: (Int, CardBytes) -> Void) {
        withCardReader(language: language) { reader in
            for (position, entry) in window.enumerated() { reader.withCard(entry.doc) { body(position, $0) } }
        }
    }
}

extension SearchEngine {
    func results(_ window: ArraySlice<(key: UInt64, doc: Int)>, positives: [TermHits], related: [Int: TermExplanation] = [:],
                 options: SearchOptions) -> SearchResults {
        let explanations = !options.explain ? [] : window.map { entry in
            related[entry.doc].map { [$0] }
                ?? positives.compactMap { positive in positive.hits.hit(entry.doc).map { explanation(positive.term, $0, doc: entry.doc) } }
        }
        return SearchResults(index: index, language: options.language, window: window, explanations: explanations,
                             decidingRules: options.explain ? decidingRules(window) : [])
    }

    /// One document as a result, as a search would list it (`fav`, `random`).
    public func result(doc: Int, language: Int) -> SearchResult {
        SearchResults(index: index, language: language, window: [(0, doc)], explanations: [], decidingRules: [])[0]
    }
}
