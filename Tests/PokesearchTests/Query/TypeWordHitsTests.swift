@testable import Index
@testable import Query
import Store
import Testing

/// The hits of words naming a type, kept once matched, must be the hits matching the word
/// anew gives, in each display language, and charge the query's budget the same.
@Suite("Type words' kept hits")
struct TypeWordHitsTests {
    /// The words kept, as text.
    static func words(_ typeWords: TypeWordHits, _ index: IndexSnapshot) -> [String] {
        typeWords.keys.map { index.keyString(Int($0)) }
    }

    /// The number `match` keeps a word's hits under: a search's word term, located as a query's is.
    static func keptWord(_ word: String, _ typeWords: TypeWordHits, _ index: IndexSnapshot) -> Int? {
        let context = MatchContext(index: index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: Fixture.engine.hitMaps.lease())
        let term = Term(text: word, raw: word, shape: .word, language: nil, position: 0)
        return context.keptWord(term, context.locate(term), typeWords)
    }

    @Test func theWordsKeptAreTheTypesNamesInEveryLanguage() throws {
        let engine = Fixture.engine
        let typeWords = TypeWordHits(index: engine.index)
        let words = Self.words(typeWords, engine.index)
        for word in ["fire", "feu", "feuer", "fuoco", "normal", "ground", "sol", "psychic", "psy", "dragon"] {
            #expect(words.contains(word) && Self.keptWord(word, typeWords, engine.index) != nil, "'\(word)'")
        }
        for word in ["pikachu", "fir", "blaze", "fires", "", "normalize"] {
            #expect(!words.contains(word) && Self.keptWord(word, typeWords, engine.index) == nil, "'\(word)'")
        }
        // Every type's slug is kept: the slugs are found in the trie by their text, apart from
        // the names (a slug no key equals would be left out).
        let slugs = engine.index.foldedTypeSlugs
        #expect(slugs.count >= 18 && slugs.allSatisfy { Self.keptWord($0, typeWords, engine.index) != nil },
                "\(slugs.filter { Self.keptWord($0, typeWords, engine.index) == nil })")
        // Each word is kept under its own number.
        #expect(words.indices.allSatisfy { Self.keptWord(words[$0], typeWords, engine.index) == $0 })
        // Every word kept is one `type:` takes, so no other word's hits are kept.
        let context = MatchContext(index: engine.index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
        let notTypes = words.filter { context.typeNamed($0) == nil }
        #expect(notTypes.isEmpty, "\(notTypes.sorted().prefix(5))")
        #expect(words.count > 18)
    }

    /// Every name of a type the store holds (folded, and run together) is a word kept, for
    /// that type: the words are enumerated from the index, `typeNamed` tests one.
    @Test func everyNameOfATypeIsKept() throws {
        let engine = Fixture.engine
        let index = engine.index
        let typeWords = TypeWordHits(index: index)
        let context = MatchContext(index: index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
        let names = try Store(path: Fixture.database, readOnly: true).readFoldedNames().filter { index.kind($0.doc) == .type }
        #expect(names.count > 18 * 10, "\(names.count) names of types")
        for name in names {
            for word in Set([name.folded, name.compact]) where !word.isEmpty {
                #expect(Self.keptWord(word, typeWords, index) != nil, "'\(word)' (\(index.slug(name.doc)))")
                #expect(context.typeNamed(word).map { index.typeSlugs[Int($0)] } == index.slug(name.doc), "'\(word)'")
            }
        }
    }

    /// Every word `typeNamed` takes (a type's slug, or a name of a type) is a key: the typos
    /// beside results skip `typeNamed` for a term that is no key
    /// (`mayBeMisspelt(_:namingNoType:)`), which would miss a type named by a word no key equals.
    @Test func everyWordNamingATypeIsAKey() throws {
        let engine = Fixture.engine
        let index = engine.index
        let context = MatchContext(index: index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
        let names = try Store(path: Fixture.database, readOnly: true).readFoldedNames().filter { index.kind($0.doc) == .type }
        let words = Set(index.foldedTypeSlugs + names.flatMap { [$0.folded, $0.compact] }).filter { !$0.isEmpty }
        #expect(words.count > 18 * 5, "\(words.count) words naming a type")
        for word in words {
            let term = Term(text: word, raw: word, shape: .word, language: nil, position: 0)
            #expect(context.typeNamed(word) != nil && context.isWholeWord(context.locate(term)), "'\(word)'")
            #expect(!context.mayBeMisspelt(term), "'\(word)'")
        }
    }

    @Test(arguments: [0, 1, 2])
    func keptHitsAreTheHitsMatchedAnew(display: Int) throws {
        let engine = Fixture.engine
        let index = engine.index
        let typeWords = TypeWordHits(index: index)
        for (number, word) in Self.words(typeWords, index).enumerated() {
            let term = Term(text: word, raw: word, shape: .word, language: nil, position: 0)
            func context(_ kept: TypeWordHits?) -> MatchContext {
                MatchContext(index: index, displayLanguage: display, languageRestriction: nil, completion: false,
                             typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease(), typeWords: kept)
            }
            let anew = context(nil), matching = context(typeWords), reading = context(typeWords)
            let expected = try anew.match(term, allowTypos: true)
            #expect(typeWords.entry(number, display: display) == nil)
            let matched = try matching.match(term, allowTypos: true)
            #expect(typeWords.entry(number, display: display) != nil, "'\(word)' kept once matched")
            let read = try reading.match(term, allowTypos: true)
            for hits in [matched, read] {
                let differing = (0..<index.docCount).filter { hits.best[$0] != expected.best[$0] }
                #expect(differing.isEmpty, "'\(word)' in language \(display): \(differing.count) documents, first \(differing.prefix(3).map(index.slug))")
                #expect(Array(hits.docs) == Array(expected.docs), "'\(word)': the documents in the order first hit")
            }
            #expect(matching.budget.postings == anew.budget.postings && reading.budget.postings == anew.budget.postings, "'\(word)'")
        }
    }

    /// A search's type word is matched (from its kept hits), not read on the candidates other
    /// words give; a completion's is not kept (its fields match otherwise).
    @Test func aSearchsTypeWordIsNotDeferred() throws {
        let engine = Fixture.engine
        let context = MatchContext(index: engine.index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease(), typeWords: engine.typeWords)
        let term = Term(text: "normal", raw: "normal", shape: .word, language: nil, position: 0)
        #expect(context.deferrable(term, try #require(context.locate(term))) == nil)
        let completing = MatchContext(index: engine.index, displayLanguage: 0, languageRestriction: nil, completion: true,
                                      typedAfterOthers: true, readsLists: true, lease: engine.hitMaps.lease(), typeWords: engine.typeWords)
        #expect(completing.keptWord(term, completing.locate(term), engine.typeWords) == nil)
        let unkept = MatchContext(index: engine.index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                  typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
        #expect(unkept.deferrable(term, try #require(unkept.locate(term))) != nil)
    }
}
