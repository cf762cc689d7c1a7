import Folding
import Foundation
@testable import Index
@testable import Query
import Store
import Testing

/// Words read on candidate documents (through the forward index) instead of their whole key
/// range must rank exactly as matching every word in full.
@Suite("Words matched on candidates")
struct DeferredWordTests {
    /// Two- and three-word queries: words of one name with prefixes of others, field words
    /// (types, genus) with pieces from inside names or last (a completion's word being typed
    /// matches a field typed out), and words of unrelated names, so results range from none to
    /// thousands.
    static func queries() throws -> [String] {
        let store = try Store(path: Fixture.database, readOnly: true)
        let names = try store.readFoldedNames()
        let fields = try store.readFieldTexts()
        var generator = DifferentialTests.Generator(state: 77)
        func word(_ text: String) -> String {
            let words = Folding.words(text)
            return words.isEmpty ? "a" : String(words[generator.below(words.count)])
        }
        var queries: [String] = []
        while queries.count < 1_500 {
            let name = names[generator.below(names.count)].folded
            let other = names[generator.below(names.count)].folded
            let field = fields[generator.below(fields.count)].text
            let last = word(other)
            let prefix = String(last.prefix(1 + generator.below(4)))
            // Three or four scalars from inside the word: a search matches it in names
            // further in (a substring, or a later word's start), read on candidates too.
            let scalars = Array(last.unicodeScalars)
            let from = scalars.count > 4 ? 1 + generator.below(scalars.count - 4) : 0
            let infix = String(String.UnicodeScalarView(scalars[from..<min(scalars.count, from + 3 + generator.below(2))]))
            switch generator.below(6) {
            case 0: queries.append("\(word(name)) \(prefix)")
            case 1: queries.append("\(word(field)) \(word(name))")
            case 2: queries.append("\(word(field)) \(word(field)) \(prefix)")
            case 3: queries.append("\(word(field)) \(infix)")
            case 4: queries.append("\(word(name)) \(word(field))")
            default: queries.append("\(word(name)) \(word(other)) \(prefix)")
            }
        }
        return queries
    }

    /// Ranks `query` as a search or a completion with words deferred and without, and expects
    /// the same ranking keys; false when the query is refused either way (nothing compared).
    static func compareDeferredWithFull(_ query: String, completion: Bool) -> Bool {
        guard var parsed = try? QueryParser.parse(query, lenient: completion) else { return false }
        if completion {
            // As `complete` marks them: earlier words whole, the last one typed.
            for i in parsed.clauses.indices.dropLast() {
                if case .term(var term) = parsed.clauses[i].clause, term.shape == .word {
                    term.shape = .wholeWord
                    parsed.clauses[i].clause = .term(term)
                }
            }
        }
        let options = SearchOptions()
        guard let deferred = try? Fixture.engine.rank(parsed, options: options, completion: completion),
              let full = try? Fixture.engine.rank(parsed, options: options, completion: completion, deferring: false) else { return false }
        #expect(deferred.ranked.map(\.key).sorted() == full.ranked.map(\.key).sorted(), "'\(query)' (completion \(completion))")
        return true
    }

    @Test(.tags(.exhaustive)) func deferredWordsRankAsFullMatches() throws {
        var compared = 0
        for query in Exhaustive.sample(try Self.queries(), oneIn: 10) {
            for completion in [false, true] where Self.compareDeferredWithFull(query, completion: completion) { compared += 1 }
        }
        #expect(compared > Exhaustive.share(2_500, oneIn: 10))
    }

    /// A typo search of two edits stops at one edit where that found a document more: a word
    /// read on candidates must not change what it found. "lucha" narrows the search of
    /// "megakhan" (two edits, Mega Hawlucha); "sandwich", misspelt too, holds its own hits
    /// ("sandwichs" is one edit away: nothing more, so two); "电" narrows "hexadron".
    @Test(arguments: ["lucha megakhan", "pour sandwich redu", "hexadron 电"])
    func twoEditTyposFindWhatTheyFindWithoutDeferral(_ query: String) {
        for completion in [false, true] { #expect(Self.compareDeferredWithFull(query, completion: completion)) }
    }

    /// A word read on many candidates ("normal" on the thousands a typo of "tande" brings)
    /// finds the names holding it inside a word once, through the suffix array: each
    /// candidate gets the hit reading its own names gives.
    @Test func aWordReadOnManyCandidatesFindsItsInsideNamesOnce() throws {
        let engine = Fixture.engine
        let index = engine.index
        let candidates = (0..<index.docCount).map(Int32.init)
        var insideOnly = 0
        for word in ["normal", "tal", "mega", "ter", "chu", "saur", "eon", "ピカ", "ルム"] {
            let context = MatchContext(index: index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                       typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
            let term = Term(text: word, raw: word, shape: .word, language: nil, position: 0)
            let keys = try #require(context.locate(term)).keys
            #expect(engine.readingPlan(TermSlot(clause: 0, hits: nil), term, candidates: candidates.count, context: context).inside == .foundOnce)
            let once = context.lease.newMap(), each = context.lease.newMap(), own = context.lease.newMap()
            engine.read(term, keys: keys, inside: .foundOnce, on: candidates, into: once, context: context)
            engine.read(term, keys: keys, inside: .onEachCandidate, on: candidates, into: each, context: context)
            engine.read(term, keys: keys, inside: .none, on: candidates, into: own, context: context)
            let differing = (0..<index.docCount).filter { once.best[$0] != each.best[$0] }
            #expect(differing.isEmpty, "'\(word)': \(differing.count) documents, first \(differing.prefix(3).map(index.slug))")
            insideOnly += (0..<index.docCount).count { own.best[$0] != each.best[$0] }
        }
        // The names inside which the words are found change many documents' hits.
        #expect(insideOnly > 1_000, "\(insideOnly)")
    }

    /// A completion's misspelt word (one edit in a word of four letters or more, alone or
    /// after another word) is matched from its typo ranges' lists where they hold every name
    /// of the range: it ranks as reading every posting of the ranges.
    @Test func misspeltCompletionsRankAsFullMatches() throws {
        let store = try Store(path: Fixture.database, readOnly: true)
        let names = try store.readFoldedNames()
        var generator = DifferentialTests.Generator(state: 91)
        let engine = Fixture.engine
        var compared = 0, withTypos = 0
        while compared < 600 {
            let words = Folding.words(names[generator.below(names.count)].folded).map(String.init)
            guard let last = words.last, last.unicodeScalars.count >= 4 else { continue }
            var scalars = Array(last.unicodeScalars)
            let at = generator.below(scalars.count - 1)
            switch generator.below(4) {
            case 0: scalars.remove(at: at)
            case 1: scalars.insert("e", at: at)
            case 2: scalars[at] = scalars[at] == "a" ? "o" : "a"
            default: scalars.swapAt(at, at + 1)
            }
            let typed = String(String.UnicodeScalarView(scalars))
            let query = words.count > 1 && generator.below(2) == 0 ? "\(words[0]) \(typed)" : typed
            var parsed = try QueryParser.parse(query, lenient: true)
            for i in parsed.clauses.indices.dropLast() { parsed.clauses[i].clause.markWholeWord() }
            let deferred = try engine.rank(parsed, options: SearchOptions(), completion: true)
            let full = try engine.rank(parsed, options: SearchOptions(), completion: true, deferring: false)
            #expect(deferred.ranked.map(\.key).sorted() == full.ranked.map(\.key).sorted(), "'\(query)'")
            if deferred.ranked.contains(where: { RankingKey(raw: $0.key).value(.typo) > 0 }) { withTypos += 1 }
            compared += 1
        }
        #expect(withTypos > 300, "\(withTypos) of \(compared) completions ranked typo hits")
    }

    /// A query's lease gives its maps back when it goes, released or not (a query that threw
    /// before its results were read): they wait in the pool for the next query.
    @Test func leasedMapsComeBackWhenTheLeaseGoes() throws {
        let engine = SearchEngine(index: Fixture.engine.index)
        #expect(engine.hitMaps.idleCount == 0)
        // `rank` without a lease takes one of its own and drops it unreleased.
        let ranked = try engine.rank(try QueryParser.parse("fire dragon"), options: SearchOptions(), completion: false).ranked
        #expect(!ranked.isEmpty)
        #expect(engine.hitMaps.idleCount >= 2)
        // A query refused as too broad after taking a map (a wildcard over too many keys)
        // gives it back too: the pool holds as many as before.
        let before = engine.hitMaps.idleCount
        #expect { try engine.search("*a") } throws: { ($0 as? QueryError)?.message.contains("too broad") == true }
        #expect(engine.hitMaps.idleCount == before)
    }

    /// A released lease is the next query's, its maps given back and its scratch arrays
    /// empty (a pool that stopped keeping leases would still answer every query right).
    @Test func aReleasedLeaseServesTheNextQuery() throws {
        let engine = SearchEngine(index: Fixture.engine.index)
        let first = engine.hitMaps.lease()
        _ = try engine.rank(try QueryParser.parse("fire dragon"), options: SearchOptions(), completion: false, lease: first)
        #expect(first.candidates.isEmpty && first.slots.isEmpty)
        first.release()
        let next = engine.hitMaps.lease()
        #expect(next === first)
        #expect(next.candidates.isEmpty && next.slots.isEmpty && next.candidates.capacity > 0)
        next.release()
    }

    /// Leases are pooled with the maps and hold their pool: an engine let go (a replaced
    /// index) must still free its pool once its queries are done.
    @Test func anEngineLetGoFreesItsPool() throws {
        weak var pool: HitMapPool?
        do {
            let engine = SearchEngine(index: Fixture.engine.index)
            pool = engine.hitMaps
            _ = try engine.search("fire dragon")
            _ = try engine.complete("dawn sto")
        }
        #expect(pool == nil)
    }

    /// Hit maps go back to a pool after each query: a map reused must answer as a new one.
    /// (Of the first 300 generated queries, every third outside a full run.)
    @Test(.tags(.exhaustive)) func reusedHitMapsAnswerAsNewOnes() throws {
        let shared = SearchEngine(index: Fixture.engine.index)
        let queries = Exhaustive.sample(try Self.queries().prefix(300), oneIn: 3) + ["fier dragon", "type:fire -flying", "pikahcu", "*meleon", "25"]
        for query in queries + queries {
            let fresh = SearchEngine(index: Fixture.engine.index)
            let reused = (try? shared.search(query))?.results.map(\.doc)
            #expect(reused == (try? fresh.search(query))?.results.map(\.doc), "'\(query)'")
        }
    }
}
