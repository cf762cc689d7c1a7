import Corpus
import Folding
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Store

/// The terms the reference searches look for: the query's words folded, a filter's value
/// for the text filters (`type:fire` → `fire`, `move:pound` → `pound`), and nothing for
/// numeric comparisons, ranges and flags, which neither reference evaluates (so they do
/// less work than the engine on filter queries, never more).
public enum ReferenceTerms {
    public static let textFilters: Set<String> = ["type", "ability", "color", "colour", "habitat", "pokemon", "move", "item"]

    public static func of(_ query: String) -> [String] {
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

/// What the references search: every entity (Pokémon, move, ability, item…) with all its
/// names in every language and, for Pokémon and moves, its types' names, in corpus order.
public struct ReferenceEntities: Sendable {
    public let keys: [String]
    /// Each entity's names as written.
    public let names: [[String]]

    public init(corpus: Corpus) {
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
        keys = order
        names = order.map { key in namesByKey[key]! + (typesBySlug[key] ?? []).flatMap { namesByKey["type:\($0)"] ?? [$0] } }
    }

    /// Every name folded as the engine folds (`Folding.fold`): the work a scan can do once, at load.
    public func folded() -> [[String]] { names.map { $0.map(Folding.fold) } }
}

/// What a Pokédex app without an index does: for every query, fold every name of every
/// entity and keep the entities where each term is a substring of one of them. The first
/// 20 in corpus order are the answer. Reported, not a goal's reference: folding dominates it.
public struct NaiveScan: Sendable {
    public let entities: ReferenceEntities

    public init(entities: ReferenceEntities) { self.entities = entities }

    public func search(_ query: String, limit: Int = 20) -> [Int] {
        let terms = ReferenceTerms.of(query)
        guard !terms.isEmpty else { return [] }
        var found: [Int] = []
        for (entity, names) in entities.names.enumerated() {
            let folded = names.map(Folding.fold)
            if terms.allSatisfy({ term in folded.contains { $0.contains(term) } }) {
                found.append(entity)
                if found.count == limit { break }
            }
        }
        return found
    }
}

/// The strongest scan: every name folded once at load into one UTF-8 buffer (each name
/// ended by a 0 byte, which no term holds, so a match never spans two names), then for each
/// query a plain byte scan of every entity for each folded term (`memchr` for the term's
/// first byte, `memcmp` for the rest). Same answer as `NaiveScan`, without its folding.
public struct PrefoldedScan: Sendable {
    let text: [UInt8]
    /// Where each entity's names end in `text` (they start where the previous entity's end).
    let ends: [Int]

    public init(folded: [[String]]) {
        var text: [UInt8] = [], ends: [Int] = []
        for names in folded {
            for name in names {
                text += name.utf8
                text.append(0)
            }
            ends.append(text.count)
        }
        self.text = text
        self.ends = ends
    }

    public func search(_ query: String, limit: Int = 20) -> [Int] {
        let terms = ReferenceTerms.of(query).map { Array($0.utf8) }
        guard !terms.isEmpty else { return [] }
        var found: [Int] = []
        text.withUnsafeBufferPointer { text in
            var start = 0
            for (entity, end) in ends.enumerated() {
                let names = UnsafeBufferPointer(rebasing: text[start..<end])
                start = end
                if terms.allSatisfy({ Self.contains(names, $0) }) {
                    found.append(entity)
                    if found.count == limit { break }
                }
            }
        }
        return found
    }

    public static func contains(_ text: UnsafeBufferPointer<UInt8>, _ term: [UInt8]) -> Bool {
        guard let first = term.first, var at = text.baseAddress, text.count >= term.count else { return term.isEmpty }
        let last = text.baseAddress! + (text.count - term.count)
        return term.withUnsafeBufferPointer { term in
            while at <= last {
                guard let hit = memchr(at, Int32(first), last - at + 1) else { return false }
                let candidate = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(candidate + 1, term.baseAddress! + 1, term.count - 1) == 0 { return true }
                at = candidate + 1
            }
            return false
        }
    }
}

/// SQLite FTS5 at its fastest on the same documents and terms: one row per entity holding
/// its folded names (unicode61 words), one prepared statement, each term a word prefix,
/// no ranking (`rank` orders nothing; the first 20 rows by rowid, corpus order). It finds
/// terms at word starts only, where the scans find them anywhere: less work, never more.
public final class PrefixFullText {
    let database: Database
    let statement: Statement

    public init(folded: [[String]]) throws {
        let database = try Database(path: ":memory:", mode: .create)
        try database.execute("CREATE VIRTUAL TABLE entity USING fts5 (names, tokenize = 'unicode61 remove_diacritics 0')")
        try database.transaction {
            let insert = try database.prepare("INSERT INTO entity (rowid, names) VALUES (?, ?)")
            for (entity, names) in folded.enumerated() { try insert.run([.integer(Int64(entity)), .text(names.joined(separator: " "))]) }
        }
        statement = try database.prepare("SELECT rowid FROM entity WHERE entity MATCH ? LIMIT 20")
        self.database = database
    }

    public func search(_ query: String) throws -> [Int] {
        let terms = ReferenceTerms.of(query)
        guard !terms.isEmpty else { return [] }
        try statement.bind([.text(terms.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " "))])
        var found: [Int] = []
        while try statement.step() { found.append(statement.int(0)) }
        return found
    }
}
