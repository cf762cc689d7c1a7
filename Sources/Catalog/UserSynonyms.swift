import Corpus
import Folding
import Index
import Store

public enum SynonymError: Error, CustomStringConvertible {
    case emptyTerm(String)
    case notAUserSynonym(String)

    public var description: String {
        switch self {
        case .emptyTerm(let term):
            return "'\(term)' has no letters or digits to search by; a synonym needs some"
        case .notAUserSynonym(let term):
            return "'\(term)' is not a synonym of yours; `pokesearch synonym list` lists them (shipped synonyms cannot be removed)"
        }
    }
}

/// The user's synonyms (`pokesearch synonym`): stored beside favourites, made names of their
/// entities at once (the stored index is rebuilt, so a server sees them after RELOAD) and
/// again by every ingest.
extension Catalog {
    /// Makes `term` a synonym of each document; returns how many were new.
    @discardableResult
    public func addSynonym(_ term: String, docs: [Int]) throws -> Int {
        let term = term.trimmingCharacters(in: .whitespaces)
        guard !Folding.fold(term).isEmpty else { throw SynonymError.emptyTerm(term) }
        return try changeSynonyms { store in
            try store.addUserSynonym(term, targets: docs.map { (index.kind($0), index.slug($0)) })
        }
    }

    /// Removes the user's synonyms written as `term` is once folded; returns how many.
    @discardableResult
    public func removeSynonym(_ term: String) throws -> Int {
        let folded = Folding.fold(term)
        let removed = try changeSynonyms { store in
            try store.removeUserSynonym(terms: try store.userSynonyms().map(\.term).filter { Folding.fold($0) == folded })
        }
        guard removed > 0 else { throw SynonymError.notAUserSynonym(term) }
        return removed
    }

    /// The user's synonyms and their documents (none for an entity no longer in the data).
    public func userSynonyms() throws -> [(term: String, doc: Int?)] {
        try store.userSynonyms().map { synonym in
            (synonym.term, Kind(rawValue: synonym.kind).flatMap { index.doc(kind: $0, slug: synonym.slug) })
        }
    }

    /// Every synonym, shipped or the user's, written as `term` is once folded.
    public func synonyms(of term: String) throws -> [Synonym] {
        let folded = Folding.fold(term)
        return (try store.readCorpus().synonyms + store.userSynonyms()).filter { Folding.fold($0.term) == folded }
    }

    /// Runs `change` on the user's synonyms and remakes, in the same transaction, the names
    /// synonyms give and the stored index, as favourites are written (`write`: under the
    /// writer lock, to the database an ingest swapped in meanwhile, if one did).
    private func changeSynonyms(_ change: (Store) throws -> Int) throws -> Int {
        try write { store in
            var count = 0
            try store.database.transaction {
                count = try change(store)
                guard count > 0 else { return }
                let corpus = try store.readCorpus()
                let entities = try store.readEntities()
                let base = try store.readFoldedNames().filter { $0.language != Language.synonym }
                let old = Set(try store.readFoldedNames().filter { $0.language == Language.synonym }.map(\.doc))
                let synonymNames = Documents.synonymNames(base: base, entities: entities, synonyms: corpus.synonyms + (try store.userSynonyms()))
                let changed = old.union(synonymNames.map(\.doc))
                let fullText = Documents.fullText(of: (base + synonymNames).filter { changed.contains($0.doc) })
                try store.replaceFoldedNames(language: Language.synonym, with: synonymNames, fullText: fullText)
                let snapshot = IndexBuilder.build(IndexInput(entities: entities, names: base + synonymNames,
                                                             fields: try store.readFieldTexts(), corpus: corpus))
                try store.writeIndexSnapshot(format: IndexSnapshot.formatVersion, bytes: snapshot.serialized())
            }
            return count
        }
    }
}
