import Corpus
import Folding
import Foundation

/// The user's synonyms (`pokesearch synonym`), beside favourites and kept like them.
extension Store {
    /// Adds `term` as a synonym of each entity; returns how many were new (a writer: take
    /// the `WriterLock`, and a transaction).
    @discardableResult
    public func addUserSynonym(_ term: String, targets: [(kind: Kind, slug: String)]) throws -> Int {
        var added = 0
        for target in targets {
            try database.run("INSERT OR IGNORE INTO user_synonym (term, kind, slug, added_at) VALUES (?, ?, ?, ?)",
                             .text(term), .text(target.kind.rawValue), .text(target.slug), .real(Date().timeIntervalSince1970))
            added += database.changes
        }
        return added
    }

    /// Removes every synonym whose term is one of `terms` (the ways of writing one term);
    /// returns how many there were.
    @discardableResult
    public func removeUserSynonym(terms: [String]) throws -> Int {
        var removed = 0
        for term in Set(terms) {
            try database.run("DELETE FROM user_synonym WHERE term = ?", .text(term))
            removed += database.changes
        }
        return removed
    }

    /// The user's synonyms, oldest first; none in a database made before them.
    public func userSynonyms() throws -> [Synonym] {
        try userSynonymRows().compactMap { row in
            guard let term = row[0].textValue, let kind = row[1].textValue, let slug = row[2].textValue else { return nil }
            return Synonym(term: term, kind: kind, slug: slug, source: "user")
        }
    }

    /// The rows of `user_synonym` (term, kind, slug, added_at), oldest first; none in a
    /// database made before it (read-only, so not migrated).
    func userSynonymRows() throws -> [[SQLValue]] {
        let exists = try database.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'user_synonym'")
        guard !exists.isEmpty else { return [] }
        return try database.rows("SELECT term, kind, slug, added_at FROM user_synonym ORDER BY added_at, rowid")
    }

    /// Replaces the searched names of one language code (`Language.synonym`) and the
    /// full-text rows of the documents whose names change (a writer, inside a transaction).
    public func replaceFoldedNames(language: String, with names: [FoldedName], fullText: [(doc: Int, text: String)]) throws {
        try database.run("DELETE FROM folded_name WHERE lang = ?", .text(language))
        try writeFoldedNames(names)
        for row in fullText {
            try database.run("DELETE FROM name_fts WHERE doc = ?", .integer(Int64(row.doc)))
        }
        let insert = try database.prepare("INSERT INTO name_fts (text, doc) VALUES (?, ?)")
        for row in fullText { try insert.run([.text(row.text), .integer(Int64(row.doc))]) }
    }
}
