import Corpus
import Folding
import Foundation
import Store

/// The terms the reference searches look for: the query's words folded, a filter's value
/// for the text filters (`type:fire` → `fire`, `move:pound` → `pound`), and nothing for
/// numeric comparisons, ranges and flags, which neither reference evaluates (so they do
/// less work than the engine on filter queries, never more).
enum ReferenceTerms {
    static let textFilters: Set<String> = ["type", "ability", "color", "colour", "habitat", "pokemon", "move", "item"]

    static func of(_ query: String) -> [String] {
        var terms: [String] = []
        for raw in query.split(whereSeparator: \.isWhitespace) {
            var word = Substring(raw)
            if let colon = word.firstIndex(of: ":") {
                guard textFilters.contains(String(word[..<colon]).lowercased()) else { continue }
                word = word[word.index(after: colon)...]
            }
            if word.contains(where: { "<>=".contains($0) }) || word.contains("..") { continue }
            terms += Folding.words(Folding.fold(String(word))).map(String.init)
        }
        return terms
    }
}

/// What a Pokédex app without an index does: for every query, fold every name of every
/// entity (and its types' names) and keep the entities where each term is a substring of
/// one of them. The first 20 in corpus order are the answer.
struct NaiveScan {
    struct Entry {
        var key: String
        var names: [String]
    }

    let entries: [Entry]

    init(corpus: Corpus) {
        var namesByKey: [String: [String]] = [:]
        var order: [String] = []
        for name in corpus.names where Kind(rawValue: name.kind) != nil {
            let key = "\(name.kind):\(name.slug)"
            if namesByKey[key] == nil { order.append(key) }
            namesByKey[key, default: []].append(name.text)
        }
        var typesBySlug: [String: [String]] = [:]
        for pokemon in corpus.pokemon { typesBySlug["pokemon:\(pokemon.slug)"] = pokemon.types }
        for move in corpus.moves { typesBySlug["move:\(move.slug)"] = [move.type] }
        entries = order.map { key in
            let typeNames = (typesBySlug[key] ?? []).flatMap { namesByKey["type:\($0)"] ?? [$0] }
            return Entry(key: key, names: namesByKey[key]! + typeNames)
        }
    }

    func search(_ query: String, limit: Int = 20) -> [String] {
        let terms = ReferenceTerms.of(query)
        guard !terms.isEmpty else { return [] }
        var found: [String] = []
        for entry in entries {
            let folded = entry.names.map(Folding.fold)
            if terms.allSatisfy({ term in folded.contains { $0.contains(term) } }) {
                found.append(entry.key)
                if found.count == limit { break }
            }
        }
        return found
    }
}

/// SQLite FTS5 over the store's own tables, with the same folded terms: a term matches a
/// document's names by trigram (a substring of three or more characters; shorter terms
/// need a LIKE scan, which trigram tables serve only by reading every row) or a field word
/// by prefix. Documents must match every term (intersected per term); the first 20 by
/// document number are the answer.
final class FullTextReference {
    let nameTrigram: Statement
    let nameLike: Statement
    let fieldPrefix: Statement

    init(store: Store) throws {
        nameTrigram = try store.database.prepare("SELECT DISTINCT doc FROM name_fts WHERE name_fts MATCH ?")
        nameLike = try store.database.prepare("SELECT DISTINCT doc FROM name_fts WHERE text LIKE ?")
        fieldPrefix = try store.database.prepare("SELECT DISTINCT doc FROM field_fts WHERE field_fts MATCH ?")
    }

    func search(_ query: String, limit: Int = 20) throws -> [Int] {
        var result: Set<Int>?
        for term in ReferenceTerms.of(query) {
            let quoted = "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            var docs = term.count >= 3 ? try Self.docs(nameTrigram, quoted) : try Self.docs(nameLike, "%\(term)%")
            docs.formUnion(try Self.docs(fieldPrefix, quoted + " *"))
            result = result.map { $0.intersection(docs) } ?? docs
            if result?.isEmpty == true { break }
        }
        return Array((result ?? []).sorted().prefix(limit))
    }

    private static func docs(_ statement: Statement, _ argument: String) throws -> Set<Int> {
        try statement.bind([.text(argument)])
        var docs = Set<Int>()
        while try statement.step() { docs.insert(statement.int(0)) }
        return docs
    }
}
