import Corpus
import Query
import Testing

/// Typos on every term, runs of terms read as one word, and what a term typed as a word
/// means (issue 40 items 2 and 5), over the real corpus.
@Suite("Typos on every term")
struct TyposOnEveryTermTests {
    typealias Case = RelevanceTests.Case

    static func first(_ query: String, _ expected: String) -> Case { RelevanceTests.c(query, .first([expected])) }

    static let cases: [Case] = [
        // A term with exact hits elsewhere still matches within its typo budget ("arma" starts
        // Armaldo), and a foreign field word it only starts is weak evidence (Donphan's
        // Italian genus starts with "arma"; a French item category with "ut").
        first("arma veil", "ability:aroma-veil"), first("bulk ut", "move:bulk-up"),
        // A run of terms that are a name's words within the budget of their length run
        // together, whatever the budget of each word alone (three letters: none).
        first("perish sog", "move:perish-song"), first("tye: null", "pokemon:type-null"), first("stone nxe", "move:stone-axe"),
        first("emergency eit", "ability:emergency-exit"),
        // A term with punctuation inside: its parts run together, within their budget.
        first("woo-chien", "pokemon:wo-chien"),
        // A prefix of a slug run together says less than a whole romaji name.
        first("pikachuu", "pokemon:pikachu"),
        // Synonyms pokesearch ships of its own.
        first("剩饭", "item:leftovers"), RelevanceTests.c("ko", .within(10, ["move:knock-off"])),
        // A term that is a whole word of some name is taken as typed: no typo candidates and no
        // hits inside foreign names' words, nor inside a compact form (across two words).
        RelevanceTests.c("kind:item ttar", .nothing),
        // Names that look like syntax find themselves.
        first("Type: Null", "pokemon:type-null"), first("Farfetch'd", "pokemon:farfetchd"), first("Porygon-Z", "pokemon:porygon-z"),
        first("Nidoran♀", "pokemon:nidoran-f"), first("Mr. Mime", "pokemon:mr-mime"), first("King's Rock", "item:kings-rock"),
        // Consecutive terms run together, and punctuation inside a term.
        first("thunder bolt", "move:thunderbolt"), first("poke ball", "item:poke-ball"), first("u-turn", "move:u-turn"),
        first("Charizard-Mega-X", "pokemon:charizard-mega-x"), first("Raticate-Alola", "pokemon:raticate-alola"),
        // A run-together word matches the words it runs together.
        first("ironvaliant", "pokemon:iron-valiant"), first("farfetchd", "pokemon:farfetchd"),
        // A number written with leading zeros is also a name's word as written.
        first("Data Card 01", "item:data-card-01"), first("Scheda Dati 09", "item:data-card-09"),
    ]

    @Test(arguments: cases)
    func findsIt(_ c: Case) throws { try RelevanceTests.check(c) }

    /// Typo candidates are computed only while the exact hits do not fill the page asked
    /// for, and rank below them: "armal rock" has Armaldo exactly, and typo candidates of
    /// "armal" among rock names beyond it, neither listed nor counted on a page of one.
    @Test func typoCandidatesComeOnlyWhenThePageIsNotFull() throws {
        func search(limit: Int) throws -> SearchResponse {
            var options = SearchOptions()
            options.limit = limit
            options.explain = true
            return try Fixture.engine.search("armal rock", options: options)
        }
        let full = try search(limit: 1), notFull = try search(limit: 40)
        #expect(full.total == 1 && full.results.first?.slug == "armaldo", "\(full.total) \(full.results.map(\.slug))")
        #expect(notFull.total > 1 && notFull.results.first?.slug == "armaldo", "\(notFull.total) \(notFull.results.map(\.slug))")
        #expect(notFull.results.dropFirst().allSatisfy { $0.explanation.contains { $0.typos > 0 } }, "\(notFull.results.map(\.slug))")
    }

    /// Terms that together are a name's words as typed are taken as typed, though one alone
    /// starts no word of a name: no typo candidates beside their hits. "ジガルデ (１０％フォルム)"
    /// is the 10% Zygardes' Japanese name; "１０ フォルム" alone starts none.
    @Test func termsTypedTogetherAsANameTakeNoTypoCandidates() throws {
        var options = SearchOptions()
        options.limit = 40
        options.explain = true
        let found = try Fixture.engine.search("ジガルデ (１０％フォルム)", options: options).results
        #expect(found.map(\.slug) == ["zygarde-10-power-construct", "zygarde-10"], "\(found.map(\.slug))")
        #expect(found.allSatisfy { $0.explanation.allSatisfy { $0.typos == 0 } })
    }

    /// One word whose exact hits are all in other languages and short of a page takes typo
    /// candidates too, after those hits: "pikachi" starts Pikanium Z's German name only,
    /// and Pikachu is an edit away. A word in the display language keeps its lists' answer.
    @Test func oneWordFoundOnlyAbroadTakesTypoCandidates() throws {
        let found = try Fixture.engine.search("pikachi").results.map(\.slug)
        #expect(found.first == "pikanium-z--held" && found.prefix(10).contains("pikachu"), "\(found)")
        let english = try Fixture.engine.search("pikac").results.map(\.slug)
        #expect(english.first == "pikachu" && !english.contains("pikanium-z--held"), "\(english)")
    }

    /// Hits that rank as typos (inside a foreign name's word, a foreign field's word only
    /// started) do not fill the page: "arma veil" finds Aroma Veil first on a page of one.
    @Test func weakHitsLeaveThePageOpen() throws {
        var options = SearchOptions()
        options.limit = 1
        #expect(try Fixture.engine.search("arma veil", options: options).results.map(\.slug) == ["aroma-veil"])
    }

    /// `--explain` says when a synonym matched, and what it stands for.
    @Test func explanationsNameTheSynonymUsed() throws {
        var options = SearchOptions()
        options.limit = 1
        options.explain = true
        let ttar = try #require(try Fixture.engine.search("ttar", options: options).results.first)
        #expect(ttar.explanation.map(\.summary).contains { $0.contains("synonym ttar → Tyranitar") }, "\(ttar.explanation.map(\.summary))")
        let slug = try #require(try Fixture.engine.search("rotom-wash", options: options).results.first)
        #expect(!slug.explanation.map(\.summary).contains { $0.contains("synonym") }, "\(slug.explanation.map(\.summary))")
    }

    /// `pokesearch help search` describes the matching with examples.
    @Test func helpDescribesTheMatching() throws {
        let help = try pokesearch(["help", "search"])
        #expect(help.status == 0, "\(help.stderr)")
        for example in ["Porygon-Z", "thunder bolt", "arma veil", "perish sog", "synonym ttar → Tyranitar"] {
            #expect(help.stdout.contains(example), "\(example): \(help.stdout)")
        }
    }
}
