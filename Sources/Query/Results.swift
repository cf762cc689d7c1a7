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
}

public struct SearchResponse: Sendable {
    public var results: SearchResults
    /// How many documents matched in all (the window is `results`).
    public var total: Int
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
    let entries: [(doc: Int32, score: Int32)]
    /// Per entry when explanations were asked for, else empty.
    let explanations: [[TermExplanation]]

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> SearchResult {
        let (doc, score) = (Int(entries[position].doc), Int(entries[position].score))
        let card = index.card(doc, language: language)
        return SearchResult(doc: doc, kind: card.kind, id: card.id, slug: card.slug, name: card.name, score: score,
                            types: index.typeSlugs(of: card.types), explanation: explanation(at: position))
    }

    public func score(at position: Int) -> Int { Int(entries[position].score) }
    public func explanation(at position: Int) -> [TermExplanation] { explanations.isEmpty ? [] : explanations[position] }
    /// The slug of a type index of a card.
    public func typeSlug(_ type: UInt8) -> String { index.typeSlugs[Int(type)] }

    /// The card of the result at `position`, its name in the search's display language.
    public func withCard<R>(at position: Int, _ body: (CardBytes) -> R) -> R {
        index.withCard(Int(entries[position].doc), language: language, body)
    }
}

/// A completion's suggestions, each made a `Suggestion` only when read (see `SearchResults`).
public struct Suggestions: RandomAccessCollection, Sendable {
    let index: IndexSnapshot
    let language: Int
    let docs: [Int32]

    public var startIndex: Int { 0 }
    public var endIndex: Int { docs.count }

    public subscript(position: Int) -> Suggestion {
        let card = index.card(Int(docs[position]), language: language)
        return Suggestion(text: card.name, kind: card.kind, id: card.id, slug: card.slug)
    }

    /// The card of the suggestion at `position`, its name in the completion's display language.
    public func withCard<R>(at position: Int, _ body: (CardBytes) -> R) -> R {
        index.withCard(Int(docs[position]), language: language, body)
    }
}
