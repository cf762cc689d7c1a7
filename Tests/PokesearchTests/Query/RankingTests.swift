import Corpus
import Index
import Query
import Testing

/// The contract's ranking rules (docs/RANKING.md), each with the examples it decides, over
/// the real corpus; and the key's rules in their order.
@Suite("Ranking")
struct RankingTests {
    static func slugs(_ query: String, limit: Int = 50, language: String = "en") throws -> [String] {
        var options = SearchOptions()
        options.limit = limit
        options.language = Language.index(of: language)!
        return try Fixture.engine.search(query, options: options).results.map { "\($0.kind.rawValue):\($0.slug)" }
    }

    static func explained(_ query: String, limit: Int = 20) throws -> [SearchResult] {
        var options = SearchOptions()
        options.limit = limit
        options.explain = true
        return Array(try Fixture.engine.search(query, options: options).results)
    }

    /// Whether `first` comes before `second` in the results (both there).
    static func ranks(_ results: [String], _ first: String, before second: String) -> Bool {
        guard let a = results.firstIndex(of: first), let b = results.firstIndex(of: second) else { return false }
        return a < b
    }

    // MARK: The key

    /// Two terms' keys differing in two rules: the earlier rule decides, whatever the later
    /// says. Each rule is checked against every later one.
    @Test func earlierRulesDecideBeforeLaterOnes() {
        // One hit's bits for each rule's better and worse side.
        func key(better rule: RankingRule, worse later: RankingRule) -> (RankingKey, RankingKey) {
            func hit(_ worseIn: RankingRule?) -> UInt32 {
                HitRank.of(typos: worseIn == .words || worseIn == .typo ? 1 : 0, miss: worseIn == .language ? 1 : 0,
                           whole: worseIn != .exactness, position: worseIn == .position ? 4 : 2)
            }
            // (Kind and id: the documents' order.)
            let a = RankingKey.single(hit(later), doc: later == .kind || later == .id ? 9 : 1)
            let b = RankingKey.single(hit(rule), doc: rule == .kind || rule == .id ? 9 : 1)
            return (a, b)
        }
        let rules: [RankingRule] = [.typo, .language, .exactness, .position, .id]
        for (i, rule) in rules.enumerated() {
            for later in rules[(i + 1)...] {
                let (better, worse) = key(better: rule, worse: later)
                #expect(better < worse, "\(rule) before \(later)")
                #expect(better.decidingRule(against: worse, kindOf: { _ in 0 }) == (rule == .typo ? .words : rule))
            }
        }
    }

    @Test func rulesAreInTheContractsOrderAndTheirFieldsDoNotOverlap() {
        #expect(RankingRule.allCases.map(\.name) == ["words", "typo", "language", "exactness", "position", "kind", "id"])
        var below: UInt64 = 0
        for rule in RankingRule.allCases.reversed() where rule != .kind {
            #expect(rule.shift == below, "\(rule)")
            below = rule.shift + rule.width
        }
        #expect(below <= 64)
    }

    @Test func moreTermsWithTyposRankBelowFewerWithMoreTypos() {
        var oneTermTwoTypos = RankingKey.Terms(anyTerm: true)
        oneTermTwoTypos.add(HitRank.of(typos: 2, miss: 1, whole: false, position: 3), amongTerms: true)
        oneTermTwoTypos.add(HitRank.of(miss: 1, whole: false, position: 3), amongTerms: true)
        var twoTermsOneTypo = RankingKey.Terms(anyTerm: true)
        twoTermsOneTypo.add(HitRank.of(typos: 1, miss: 0, whole: true, position: 0), amongTerms: true)
        twoTermsOneTypo.add(HitRank.of(typos: 1, miss: 0, whole: true, position: 0), amongTerms: true)
        #expect(oneTermTwoTypos.key(doc: 9) < twoTermsOneTypo.key(doc: 1))
    }

    // MARK: 1. words (and the weak hits it counts as typos)

    /// A term found only inside a word of a foreign name counts as a typo: without that, the
    /// name would rank above every typo hit.
    @Test func anInfixInAForeignNameCountsAsATypo() throws {
        let gengr = try Self.slugs("gengr")
        #expect(gengr.first == "pokemon:gengar")
        #expect(!gengr.contains("move:morning-sun") || Self.ranks(gengr, "pokemon:gengar", before: "move:morning-sun"))
        let citrus = try Self.slugs("citrus berry")
        #expect(citrus.first == "item:sitrus-berry", "\(citrus.prefix(4))")
        #expect(Self.ranks(citrus, "item:sitrus-berry", before: "item:kasib-berry"))
        // The explanation says so, and counts no edit.
        let morning = try #require(try Self.explained("gengr", limit: 200).first { $0.slug == "morning-sun" })
        #expect(morning.explanation.first?.weak == true && morning.explanation.first?.typos == 0)
    }

    /// A foreign whole name is strong evidence: no typo.
    @Test func aForeignWholeNameIsNoTypo() throws {
        let results = try Self.slugs("salameche")
        #expect(results.first == "pokemon:charmander")
        #expect(!results.contains("pokemon:salamence") || Self.ranks(results, "pokemon:charmander", before: "pokemon:salamence"))
    }

    // MARK: 2. typo

    @Test func fewerTyposFirst() throws {
        for query in ["charzard", "pichuu", "blbasuar", "fier dragon"] {
            let results = try Self.explained(query, limit: 100)
            #expect(!results.isEmpty)
            let typos = results.map { $0.explanation.reduce(0) { $0 + $1.typos + ($1.weak ? 1 : 0) } }
            let typoTerms = results.map { $0.explanation.filter { $0.typos > 0 || $0.weak }.count }
            for i in typos.indices.dropLast() where typoTerms[i] == typoTerms[i + 1] {
                #expect(typos[i] <= typos[i + 1], "\(query): \(results[i].slug) \(typos[i]) before \(results[i + 1].slug) \(typos[i + 1])")
            }
            #expect(typoTerms == typoTerms.sorted(), "\(query)")
        }
    }

    // MARK: 3. language

    @Test func theDisplayLanguagesMatchesFirst() throws {
        let mime = try Self.slugs("mime")
        #expect(Array(mime.prefix(2)) == ["pokemon:mime-jr", "pokemon:mr-mime"], "\(mime.prefix(4))")
        #expect(Self.ranks(mime, "pokemon:mr-mime", before: "move:mimic"))
        let saur = try Self.slugs("saur")
        #expect(saur.first == "pokemon:bulbasaur")
        #expect(!saur.contains("move:acid") || Self.ranks(saur, "pokemon:bulbasaur", before: "move:acid"))
        #expect(try Self.slugs("koko").prefix(3).contains("pokemon:tapu-koko"))
        #expect(try Self.slugs("boots").prefix(3).contains("item:heavy-duty-boots"))
        #expect(Array(try Self.slugs("kind:item ball").prefix(4)) == ["item:master-ball", "item:ultra-ball", "item:great-ball", "item:poke-ball"])
    }

    /// `eon`: every match in English (a name or a field, which has no language) before
    /// Wartortle's Korean one (어니부기, "eonibugi").
    @Test func everyEnglishMatchOfEonBeforeWartortlesKoreanName() throws {
        let results = try Self.explained("eon", limit: 1000)
        let wartortle = try #require(results.firstIndex { $0.slug == "wartortle" })
        for result in results[..<wartortle] {
            #expect(result.explanation.contains { $0.language == nil || $0.language == "en" }, "\(result.slug) before Wartortle")
        }
        for english in ["eon-ticket", "eon-flute", "charmeleon", "vaporeon"] {
            let index = try #require(results.firstIndex { $0.slug == english })
            #expect(index < wartortle, "\(english)")
        }
    }

    // MARK: 4. exactness

    @Test func wholeWordsBeforePrefixesAndSubstrings() throws {
        let results = try Self.slugs("ice ground", limit: 200)
        let blades = try #require(results.firstIndex(of: "move:precipice-blades"))
        for slug in ["pokemon:swinub", "pokemon:piloswine", "pokemon:mamoswine"] {
            #expect((results.firstIndex(of: slug) ?? .max) < blades, "\(slug)")
        }
        // A whole word of a name before a name's prefix.
        #expect(Self.ranks(try Self.slugs("pika"), "move:pika-papow", before: "pokemon:pikachu-rock-star"))
    }

    // MARK: 5. position

    @Test func whereTheBestTermMatched() throws {
        // The name's start before a later whole word.
        #expect(Self.ranks(try Self.slugs("mime"), "pokemon:mime-jr", before: "pokemon:mr-mime"))
        // The whole name before its start: the terms together (the phrase).
        #expect(try Self.slugs("mr mime").first == "pokemon:mr-mime")
        // A name's prefix before a later word's prefix before a substring.
        let char = try Self.slugs("char", limit: 200)
        #expect(Self.ranks(char, "pokemon:charmander", before: "move:flame-charge"))
        // The terms together in the display language before those in another.
        #expect(try Self.slugs("mega sc").first == "pokemon:scizor-mega")
    }

    // MARK: 6. kind, 7. id

    @Test func kindThenID() throws {
        #expect(Array(try Self.slugs("metronome").prefix(2)) == ["move:metronome", "item:metronome"])
        #expect(Array(try Self.slugs("25").prefix(4)) == ["pokemon:pikachu", "move:mega-kick", "ability:wonder-guard", "item:hyper-potion"])
        // A Pokémon's default form before its other forms.
        let gengar = try Self.slugs("gengar")
        #expect(Array(gengar.prefix(3)) == ["pokemon:gengar", "pokemon:gengar-mega", "pokemon:gengar-gmax"])
    }

    @Test func aKindFollowedByANumberIsThatKindsID() throws {
        #expect(try Self.slugs("pokemon:1") == ["pokemon:bulbasaur"])
        #expect(try Self.slugs("move:85") == ["move:thunderbolt"])
        #expect(try Self.slugs("item:1") == ["item:master-ball"])
    }

    // MARK: --explain

    @Test func explanationsNameTheDecidingRuleAndTheField() throws {
        let mime = try Self.explained("mime")
        #expect(mime[0].decidedBy == .position, "Mime Jr. before Mr. Mime")
        #expect(mime[0].explanationLines.last == "above the next by position")
        #expect(mime.last?.decidedBy == nil)
        let reshiram = try #require(try Self.explained("fire dragon", limit: 100).first { $0.slug == "reshiram" })
        #expect(reshiram.explanation.map(\.role) == ["type", "type"])
        let latias = try #require(try Self.explained("eon", limit: 100).first { $0.slug == "latias" })
        #expect(latias.explanation.first?.role == "genus")
        let levitate = try #require(try Self.explained("levitate", limit: 100).first { $0.slug == "rotom" })
        #expect(levitate.explanation.first?.role == "ability")
        for query in ["fire dragon", "eon", "levitate", "red", "cave"] {
            for result in try Self.explained(query, limit: 100) {
                #expect(!result.explanationLines.contains { $0.contains("field field") }, "\(query): \(result.explanationLines)")
            }
        }
    }
}
