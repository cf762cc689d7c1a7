import Corpus
import Folding
import Query
import Testing

/// Real queries over the real corpus, each with the results a person expects.
@Suite("Relevance")
struct RelevanceTests {
    enum Expect: Sendable, CustomStringConvertible {
        /// The results start with these, in this order.
        case first([String])
        /// Each of these is within the first `n` results.
        case within(Int, [String])
        /// Every result is one of these kinds.
        case onlyKinds(Set<Kind>, atLeast: Int)
        case nothing

        var description: String {
            switch self {
            case .first(let s): return "first \(s)"
            case .within(let n, let s): return "\(s) in top \(n)"
            case .onlyKinds(let k, let n): return "only \(k), at least \(n)"
            case .nothing: return "nothing"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var query: String
        var expect: Expect
        var language = "en"
        var testDescription: String { "\(query) → \(expect)" }
    }

    static func c(_ query: String, _ expect: Expect, language: String = "en") -> Case {
        Case(query: query, expect: expect, language: language)
    }

    static let cases: [Case] = [
        // Whole names, any case.
        c("pikachu", .first(["pokemon:pikachu"])),
        c("PIKACHU", .first(["pokemon:pikachu"])),
        c("Charizard", .first(["pokemon:charizard"])),
        c("bulbasaur", .first(["pokemon:bulbasaur"])),
        c("mewtwo", .first(["pokemon:mewtwo"])),
        c("garchomp", .first(["pokemon:garchomp"])),
        c("snorlax", .first(["pokemon:snorlax"])),
        c("greninja", .first(["pokemon:greninja"])),
        c("thunderbolt", .first(["move:thunderbolt"])),
        c("earthquake", .first(["move:earthquake"])),
        c("master ball", .first(["item:master-ball"])),
        c("leftovers", .first(["item:leftovers"])),
        c("levitate", .first(["ability:levitate"])),
        c("intimidate", .first(["ability:intimidate"])),
        c("dragon", .first(["type:dragon"])),
        c("kartana", .first(["pokemon:kartana"])),
        // Prefixes of 1–6 characters.
        c("p", .within(5, ["pokemon:pidgey"])),
        c("pi", .within(5, ["pokemon:pikachu", "pokemon:pidgey"])),
        c("pik", .first(["pokemon:pikachu"])),
        // A whole word before a name's prefix (the exactness rule): Pika Papow, then Pikachu.
        // "pika" is Pikachu's whole name by Pokémon Showdown's nickname; then the names it is a word of.
        c("pika", .first(["pokemon:pikachu", "move:pika-papow", "item:pika-pika-pick", "item:winking-pika-pick"])),
        c("pikac", .first(["pokemon:pikachu"])),
        c("pikach", .first(["pokemon:pikachu"])),
        c("ch", .first(["pokemon:charmander"])),
        c("char", .first(["pokemon:charmander", "pokemon:charmeleon", "pokemon:charizard"])),
        c("chariz", .first(["pokemon:charizard"])),
        c("bulb", .first(["item:absorb-bulb", "pokemon:petilil", "pokemon:bulbasaur"])),
        // Prefixes of later words.
        c("jr", .first(["pokemon:mime-jr"])),
        c("rock star", .first(["pokemon:pikachu-rock-star"])),
        c("mime", .within(4, ["pokemon:mime-jr", "pokemon:mr-mime"])),
        c("stone thunder", .first(["item:thunder-stone"])),
        // Substrings.
        c("chomp", .first(["pokemon:garchomp"])),
        c("meleon", .first(["pokemon:charmeleon"])),
        c("izard", .within(3, ["pokemon:charizard"])),
        // Compact names.
        c("pokeball", .first(["item:poke-ball"])),
        c("mrmime", .first(["pokemon:mr-mime"])),
        c("porygonz", .first(["pokemon:porygon-z"])),
        c("hooh", .first(["pokemon:ho-oh"])),
        c("typenull", .first(["pokemon:type-null"])),
        c("thunderstone", .first(["item:thunder-stone"])),
        // Type queries: the four fire/dragon Pokémon first.
        c("fire dragon", .first(["pokemon:gouging-fire", "pokemon:reshiram", "pokemon:turtonator", "pokemon:charizard-mega-x"])),
        c("water ground", .within(4, ["pokemon:wooper", "pokemon:quagsire", "pokemon:swampert"])),
        c("grass poison", .first(["pokemon:bulbasaur", "pokemon:ivysaur", "pokemon:venusaur"])),
        c("bug steel", .within(10, ["pokemon:scizor", "pokemon:forretress"])),
        c("ghost dragon kind:pokemon", .within(5, ["pokemon:dragapult", "pokemon:giratina-altered"])),
        c("fire fighting", .within(4, ["pokemon:blaziken", "pokemon:infernape"])),
        c("electric mouse", .within(3, ["pokemon:pikachu"])),
        c("seed pokemon grass", .within(3, ["pokemon:bulbasaur"])),
        // Accents both ways.
        c("flabebe", .first(["pokemon:flabebe"])),
        c("flabébé", .first(["pokemon:flabebe"])),
        c("evoli", .first(["pokemon:eevee"])),
        c("évoli", .first(["pokemon:eevee"])),
        c("pokémon box", .within(3, ["item:pokemon-box"])),
        c("poké ball", .first(["item:poke-ball"])),
        // Letters whose mark NFKD leaves in them, capital or small: the French "Œil Miracle"
        // (Miracle Eye) folded to "œil miracle", found by neither "œil" nor "oeil".
        c("œil miracle", .first(["move:miracle-eye"])),
        c("oeil miracle", .first(["move:miracle-eye"])),
        c("ŒUF CHANCE", .first(["item:lucky-egg"])),
        // Typos of each kind.
        c("pikahcu", .first(["pokemon:pikachu"])),       // transposition
        c("pkiachu", .first(["pokemon:pikachu"])),       // transposition
        c("pikchu", .first(["pokemon:pikachu"])),        // deletion
        c("pickachu", .first(["pokemon:pikachu"])),      // insertion
        c("pikaxhu", .first(["pokemon:pikachu"])),       // substitution
        c("bulbsaur", .first(["pokemon:bulbasaur"])),
        c("bulbasuar", .first(["pokemon:bulbasaur"])),
        c("charzard", .first(["pokemon:charizard"])),
        c("garchmop", .first(["pokemon:garchomp"])),
        c("snorlx", .first(["pokemon:snorlax"])),
        c("lucaroi", .first(["pokemon:lucario"])),
        c("gyardos", .first(["pokemon:gyarados"])),
        c("thunderbot", .first(["move:thunderbolt"])),
        c("earthqauke", .first(["move:earthquake"])),
        c("levitaet", .first(["ability:levitate"])),
        c("ピカチウ", .first(["pokemon:pikachu"])),
        // Other languages and scripts.
        c("glurak", .first(["pokemon:charizard"])),
        c("dracaufeu", .first(["pokemon:charizard"])),
        c("bisasam", .first(["pokemon:bulbasaur"])),
        c("psiana", .first(["pokemon:espeon"])),
        c("ピカチュウ", .first(["pokemon:pikachu"])),
        c("ぴかちゅう", .first(["pokemon:pikachu"])),
        c("リザードン", .first(["pokemon:charizard"])),
        c("りざーどん", .first(["pokemon:charizard"])),
        c("イーブイ", .first(["pokemon:eevee"])),
        c("ｶﾞﾌﾞﾘｱｽ", .first(["pokemon:garchomp"])),
        c("fushigidane", .first(["pokemon:bulbasaur"])),
        c("rizadon", .first(["pokemon:charizard"])),
        c("ibui", .first(["pokemon:eevee"])),
        c("피카츄", .first(["pokemon:pikachu"])),
        c("이브이", .first(["pokemon:eevee"])),
        c("리자몽", .first(["pokemon:charizard"])),
        c("pikachyu", .first(["pokemon:pikachu"])),
        c("皮卡丘", .first(["pokemon:pikachu"])),
        c("伊布", .first(["pokemon:eevee"])),
        c("喷火龙", .first(["pokemon:charizard"])),
        c("噴火龍", .first(["pokemon:charizard"])),
        // (Kalos Cap Pikachu and Pineco have two of the terms in English, or in a field: the
        // language rule.)
        c("pi ka qiu", .within(3, ["pokemon:pikachu"])),
        c("pikaqiu", .first(["pokemon:pikachu"])),
        c("dracaufeu", .first(["pokemon:charizard"]), language: "fr"),
        // Filters.
        c("kind:move thunder", .first(["move:thunder"])),
        c("move:pound", .first(["move:pound"])),
        c("item:potion", .first(["item:potion"])),
        c("kind:ability levitate", .first(["ability:levitate"])),
        c("type:fire", .onlyKinds([.pokemon, .move], atLeast: 20)),
        c("type:fire kind:pokemon", .first(["pokemon:charmander", "pokemon:charmeleon", "pokemon:charizard"])),
        c("type:feuer kind:pokemon", .first(["pokemon:charmander"])),
        c("ability:levitate", .first(["pokemon:gastly", "pokemon:haunter"])),
        c("ability:lightning-rod", .within(3, ["pokemon:pikachu", "pokemon:raichu"])),
        c("ability:\"lightning rod\"", .within(3, ["pokemon:pikachu"])),
        c("gen:1 type:ghost", .first(["pokemon:gastly", "pokemon:haunter", "pokemon:gengar"])),
        c("color:pink is:baby", .within(3, ["pokemon:cleffa", "pokemon:igglybuff"])),
        c("habitat:cave zubat", .first(["pokemon:zubat"])),
        c("is:legendary type:psychic", .first(["pokemon:mewtwo"])),
        c("is:mythical", .first(["pokemon:mew", "pokemon:celebi"])),
        c("is:baby", .first(["pokemon:pichu"])),
        c("is:default pikachu kind:pokemon", .first(["pokemon:pikachu"])),
        c("is:mega charizard", .first(["pokemon:charizard-mega-x", "pokemon:charizard-mega-y"])),
        c("hp>200", .within(4, ["pokemon:chansey", "pokemon:blissey"])),
        c("atk>=180", .within(3, ["pokemon:kartana"])),
        c("def<10", .first(["pokemon:chansey", "pokemon:happiny"])),
        c("spd>=200", .first(["pokemon:shuckle"])),
        c("spe>=180", .first(["pokemon:regieleki", "pokemon:deoxys-speed"])),
        c("bst>700 kind:pokemon", .first(["pokemon:arceus"])),
        c("weight>=9000", .within(3, ["pokemon:groudon"])),
        c("power>=250", .onlyKinds([.move], atLeast: 1)),
        c("accuracy<50 kind:move", .within(4, ["move:guillotine", "move:horn-drill", "move:fissure"])),
        c("cost>=100000", .onlyKinds([.item], atLeast: 1)),
        c("id:1..3 kind:pokemon", .first(["pokemon:bulbasaur", "pokemon:ivysaur", "pokemon:venusaur"])),
        c("lang:fr dracaufeu", .first(["pokemon:charizard"])),
        c("@fr:dracaufeu", .first(["pokemon:charizard"])),
        c("@de:glurak", .first(["pokemon:charizard"])),
        c("@ja:ピカ", .first(["pokemon:pikachu"])),
        c("@de:pikachu", .first(["pokemon:pikachu"])),
        c("@fr:glurak", .nothing),
        // Negation.
        c("-type:flying charizard", .within(3, ["pokemon:charizard-mega-x"])),
        c("charizard -item", .first(["pokemon:charizard"])),
        c("pikachu -pikachu", .nothing),
        c("dragon -type:flying -kind:item -kind:move", .first(["type:dragon", "form:arceus-dragon", "form:silvally-dragon"])),
        // Wildcards.
        c("*meleon", .first(["pokemon:charmeleon"])),
        c("ee?ee", .first(["pokemon:eevee"])),
        c("pika*", .first(["pokemon:pikachu"])),
        c("*chu", .within(4, ["pokemon:pikachu", "pokemon:raichu", "pokemon:pichu"])),
        c("char*der", .first(["pokemon:charmander"])),
        // Mixed kinds and bare numbers.
        c("metronome", .first(["move:metronome", "item:metronome"])),
        c("25", .first(["pokemon:pikachu", "move:mega-kick", "ability:wonder-guard", "item:hyper-potion"])),
        c("151", .first(["pokemon:mew"])),
        // Short Latin words equal to some name's transliteration (茶 "cha", 破殼 "po ke") rank
        // below names as written that start with them.
        c("cha", .first(["pokemon:charmander", "pokemon:charmeleon", "pokemon:charizard"])),
        // A typo of a whole name ranks it as that name, above names starting within the same
        // edits in its language: "dracofeu" is two from Dracaufeu (Charizard in French), two
        // from the start of "dracometeor", English: the language rule puts Draco Meteor first.
        c("dracofeu", .within(3, ["pokemon:charizard"])),
        c("pikchu", .first(["pokemon:pikachu", "pokemon:pichu"])),
        // A term found only inside names (no exact or prefix hit) also gets its typos: "gengr"
        // is inside Morgengrauen (Morning Sun in German), weak evidence, ranked as a typo.
        c("gengr", .first(["pokemon:gengar"])),
        // Such a piece's typo search, on its share of the budget, may run out without the
        // query being refused: eight kana of a compact name within two edits.
        c("マダムゴミノミノ", .first(["pokemon:wormadam-trash"])),
        c("poke", .first(["form:vivillon-poke-ball", "item:poke-ball"])),
        // A species' flags are words of its fields too (Silvally Psychic, legendary, has the
        // word in its name: first).
        c("legendary psychic", .within(3, ["pokemon:mewtwo"])),
        c("mythical", .first(["pokemon:mew"])),
        c("baby electric", .first(["pokemon:pichu"])),
        // A number among words is an id ("pikachu 25" is Pikachu alone); where no document
        // with that id has the other words, it is also a word of a name ("10% Zygarde").
        c("pikachu 25", .first(["pokemon:pikachu"])),
        // "zygarde 10" is the whole slug of the 10% forme.
        c("ZYGARDE 10", .first(["pokemon:zygarde-10", "pokemon:zygarde-10-power-construct"])),
        // Several terms are an exact match together (the whole name), not one of them alone:
        // Croagunk is a poison type, Skill Swap a psychic move named "Échange" in French.
        c("Croagunk Poison", .first(["item:croagunk-poison", "pokemon:croagunk"])),
        c("Échange Psy", .first(["move:psycho-shift", "move:skill-swap"])),
        // ... and a name's start together, not one of them alone: Mega Pinsir has "mega" and,
        // in French (Méga-Scarabrute), "sc"; Scolipede "sc" and the mega flag.
        c("mega sc", .first(["pokemon:scizor-mega", "pokemon:sceptile-mega", "pokemon:scolipede-mega", "pokemon:scrafty-mega",
                             "pokemon:scovillain-mega"])),
        c("ice sh", .first(["move:ice-shard"])),
        c("50 zygarde", .first(["pokemon:zygarde-50-power-construct"])),
        c("zygarde 10 -ability:aura-break", .first(["pokemon:zygarde-10-power-construct"])),
        c("unown 1", .nothing),
        // Names that look like syntax.
        c("\"mr mime\"", .first(["pokemon:mr-mime"])),
        c("Type: Null", .first(["pokemon:type-null"])),
        c("\"Type: Null\"", .first(["pokemon:type-null"])),
        c("Typ:Null", .first(["pokemon:type-null"])),
        c("Farfetch'd", .first(["pokemon:farfetchd"])),
        c("Farfetch’d", .first(["pokemon:farfetchd"])),
        c("Porygon-Z", .first(["pokemon:porygon-z"])),
        c("Nidoran♀", .first(["pokemon:nidoran-f"])),
        c("Nidoran♂", .first(["pokemon:nidoran-m"])),
        c("Mr. Mime", .first(["pokemon:mr-mime"])),
        c(":Eevee", .first(["pokemon:eevee"])),
        c("Ho-Oh", .first(["pokemon:ho-oh"])),
        c("Jangmo-o", .first(["pokemon:jangmo-o"])),
        c("sirfetch", .first(["pokemon:sirfetchd"])),
        c("mime jr", .first(["pokemon:mime-jr"])),
        c("zygarde 10%", .within(2, ["pokemon:zygarde-10"])),
        c("charizard pikachu", .nothing),
        // Names of symbols alone, which folding leaves empty, are read as written.
        c("???", .first(["type:unknown", "form:arceus-unknown"])),
        c("★", .within(8, ["item:dynamax-crystal-and458"])),
        c("!", .first(["form:unown-exclamation"])),
        c("?", .first(["form:arceus-unknown", "type:unknown", "form:unown-question"])),
        c("%%%", .nothing),
    ]

    @Test(arguments: cases)
    func query(_ c: Case) throws { try Self.check(c) }

    /// Runs a case's query over the real corpus and checks what it expects (other suites'
    /// cases too).
    static func check(_ c: Case) throws {
        var options = SearchOptions()
        options.limit = 50
        options.language = Language.index(of: c.language)!
        let results = try Fixture.engine.search(c.query, options: options).results.map { "\($0.kind.rawValue):\($0.slug)" }
        switch c.expect {
        case .first(let expected):
            #expect(Array(results.prefix(expected.count)) == expected, "got \(results.prefix(6))")
        case .within(let n, let expected):
            for e in expected { #expect(results.prefix(n).contains(e), "\(e) not in \(results.prefix(n))") }
        case .onlyKinds(let kinds, let atLeast):
            #expect(results.count >= atLeast)
            #expect(results.allSatisfy { kinds.contains(Kind(rawValue: String($0.prefix { $0 != ":" }))!) })
        case .nothing:
            #expect(results.isEmpty, "got \(results.prefix(6))")
        }
    }

    @Test func suiteIsLargeEnough() { #expect(Self.cases.count >= 100) }

    /// Completion: the word being typed is a prefix of a name word, or after other words a
    /// field typed out in full ("fire dragon"); earlier words are whole words of a name or of
    /// a field (a type: "fire char").
    static let completions: [(text: String, first: [String])] = [
        ("p", ["pokemon:meloetta-pirouette", "pokemon:oricorio-pau", "form:unown-p"]), ("pika", ["pokemon:pikachu", "move:pika-papow", "item:pika-pika-pick", "item:winking-pika-pick"]), ("char", ["pokemon:charmander", "pokemon:charmeleon", "pokemon:charizard"]),
        ("mr mi", ["pokemon:mr-mime"]), ("thunder p", ["move:thunder-punch"]), ("fire char", ["pokemon:charmander"]),
        // Names the words start together first (Mega Pinsir is "Méga-Scarabrute" in French).
        ("mega sc", ["pokemon:scizor-mega", "pokemon:sceptile-mega", "pokemon:scolipede-mega", "pokemon:scrafty-mega", "pokemon:scovillain-mega"]),
        ("fighting rapi", ["pokemon:urshifu-rapid-strike"]),
        ("fire dragon", ["pokemon:gouging-fire", "pokemon:reshiram", "pokemon:turtonator", "pokemon:charizard-mega-x"]),
        ("bug flying", ["pokemon:butterfree", "pokemon:scyther"]), ("Floette (Weiß)", ["form:floette-white", "pokemon:floette"]), ("electric levitate", ["pokemon:rotom", "pokemon:tynamo"]), ("pikachu ", ["pokemon:pikachu"]), ("ピカ", ["pokemon:pikachu"]),
        ("dracau", ["pokemon:charizard"]), ("cha", ["pokemon:charmander"]), ("poke", ["form:vivillon-poke-ball", "item:poke-ball"]), ("zzzzqqqq", []), ("metronome", ["move:metronome", "item:metronome"]),
        // A form's name as written: the last term folds to two words, the start of a later one.
        ("シルヴァディ (タイプ：ドラゴン)", ["form:silvally-dragon"]), ("銀伴戰獸 (屬性：龍)", ["form:silvally-dragon"]),
        ("じがるで (５０％ふぉるむ)", ["pokemon:zygarde-50", "pokemon:zygarde-50-power-construct"]),
        // A number that is no such id, as a name's word being typed.
        ("zygarde 1", ["pokemon:zygarde-10-power-construct", "pokemon:zygarde-10"]), ("zygarde 10 ", ["pokemon:zygarde-10", "pokemon:zygarde-10-power-construct"]),
        ("10 zyg", ["pokemon:zygarde-10-power-construct", "pokemon:zygarde-10"]), ("1 zyg", []),
        // Symbols alone, as written: name starts and later words' starts, not further in.
        ("??", ["form:arceus-unknown", "type:unknown"]), ("★", ["item:dynamax-crystal-and458"]),
    ]

    @Test func completionsSuggestNamesBeingTyped() throws {
        for (text, first) in Self.completions {
            let suggestions = try Fixture.engine.complete(text).map { "\($0.kind.rawValue):\($0.slug)" }
            // (No suggestion expected: none given.)
            #expect(first.isEmpty ? suggestions.isEmpty : Array(suggestions.prefix(first.count)) == first, "'\(text)': \(suggestions)")
        }
        // The word being typed matches names only, alone or as a field's start: "fire"
        // suggests names, not every fire type; "fire dra" no fire Pokémon of the dragon type.
        let index = Fixture.engine.index
        for (text, word) in [("fire", "fire"), ("fire dra", "dra")] {
            let suggested = try Fixture.engine.complete(text, limit: 1000)
            #expect(!suggested.isEmpty)
            for suggestion in suggested {
                let doc = index.doc(kind: suggestion.kind, slug: suggestion.slug)!
                let words = (index.names(doc).map(\.text) + Fixture.searchedNames(suggestion.kind, suggestion.slug)).flatMap { name in
                    ([Folding.fold(name)] + (Folding.transliterate(name).map { [$0] } ?? [])).flatMap { Folding.words($0) }
                }
                #expect(words.contains { $0.hasPrefix(word) }, "'\(text)': \(suggestion.slug) has no name word starting with '\(word)'")
            }
        }
        #expect(try Fixture.engine.complete("fire", limit: 1000).count < (try Fixture.engine.search("type:fire").total))
    }

    /// A query of symbols alone is matched as written; one with a letter or a digit and
    /// nothing to search for stays an error.
    @Test func symbolsAloneAreReadAsWritten() throws {
        #expect(try Fixture.engine.search("%%%").total == 0)
        // A completion's symbols start a name or a word of it; a search's may be further in.
        let index = Fixture.engine.index
        for symbol in ["?", "-"] {
            func startsAWord(_ doc: Int) -> Bool { index.names(doc).contains { $0.text.hasPrefix(symbol) || $0.text.contains(" " + symbol) } }
            let completed = try Fixture.engine.complete(symbol, limit: 50)
            #expect(completed.allSatisfy { startsAWord(index.doc(kind: $0.kind, slug: $0.slug)!) }, "\(symbol)")
        }
        #expect(try !Fixture.engine.complete("?").isEmpty)
        #expect(try Fixture.engine.search("-").results.contains { $0.slug == "ho-oh" })
        var items = SearchOptions()
        items.kinds = [.item]
        #expect(try Fixture.engine.search("?", options: items).results.allSatisfy { $0.kind == .item })
        #expect(throws: QueryError.self) { try Fixture.engine.search("lang:fr") }
        #expect(throws: QueryError.self) { try Fixture.engine.search("   ") }
    }

    @Test func exactHitsRankAboveTypoHits() throws {
        let results = try Fixture.engine.search("pichu", options: { var o = SearchOptions(); o.explain = true; return o }()).results
        #expect(results.first?.slug == "pichu")
        #expect(results.allSatisfy { $0.explanation.allSatisfy { $0.typos == 0 } }, "pichu has exact hits: no typo hits")
        let typo = try Fixture.engine.search("pichuy", options: { var o = SearchOptions(); o.explain = true; return o }()).results
        #expect(typo.first?.explanation.first?.typos ?? 0 > 0)
    }

    /// A result's score is read from its ranking key: 1000 for an exact whole name in the
    /// display language, less 200 a term matched with typos, 50 a typo and 1 a step down in
    /// where the best term matched; down a ranked list it never rises.
    @Test func scoresFollowTheRankingBuckets() throws {
        let exact = try Fixture.engine.search("pikachu").results
        #expect(exact.first?.slug == "pikachu")
        #expect(exact.first?.score == 1000)
        // One term with one typo, the whole English name within it (position 0); the names
        // starting with it within one edit ("pichu" then other words) a position down (its
        // value in the key is the position << 1, the display language's bit below it).
        // ("pichuu" is Pichu's Japanese name, one of Showdown's nicknames: an exact hit.)
        let typo = try Fixture.engine.search("pichuy").results
        #expect(typo.first?.slug == "pichu")
        #expect(typo.first?.score == 1000 - 200 - 50)
        #expect(typo.dropFirst().first?.score == 1000 - 200 - 50 - 2)
        for query in ["pikachu", "pichuu", "fire dragon", "char", "ピカチュウ", "type:water spe"] {
            let scores = try Fixture.engine.search(query).results.map(\.score)
            #expect(!scores.isEmpty, "\(query)")
            #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }, "\(query): \(scores)")
        }
    }

    @Test func typoBudgetFollowsTheContract() throws {
        // Under 4 characters: no typos. 4–7: one edit. 8 and more: two.
        #expect(try Fixture.engine.search("pkx").results.isEmpty)
        #expect(try Fixture.engine.search("snrolax").results.first?.slug == "snorlax")     // 1 edit (transposition), 7 chars
        #expect(try Fixture.engine.search("snxrlxx").results.first?.slug != "snorlax")      // 3 edits
        #expect(try Fixture.engine.search("bulbasuer").results.first?.slug == "bulbasaur")  // 9 chars, 1 edit
        #expect(try Fixture.engine.search("blbasuar").results.first?.slug == "bulbasaur")   // 8 chars, 2 edits
    }

    @Test func termsFoundApartTryTyposExceptTypeNames() throws {
        var options = SearchOptions()
        options.explain = true
        options.limit = 10
        // "fier" has hits of its own ("Fiery Dance"), none together with "dragon": within one
        // edit it is "fire", and fire/dragon Pokémon come up with a typo on it.
        let misspelt = try Fixture.engine.search("fier dragon", options: options).results
        #expect(misspelt.contains { $0.slug == "reshiram" })
        #expect(misspelt.allSatisfy { $0.explanation.first?.typos == 1 && $0.explanation.last?.typos == 0 })
        // Type names as written are meant: typing "water rock" (no name of a water type
        // starts with "rock") suggests what has both types, not names one edit from "water"
        // or "rock"; so in any language ("kampf flug": fighting, flying in German).
        for (text, filters) in [("water rock", "type:water type:rock"), ("dragon dark", "type:dragon type:dark"),
                                ("kampf flug", "type:fighting type:flying")] {
            var all = SearchOptions()
            all.limit = SearchOptions.maxLimit
            let typed = Set(try Fixture.engine.search(filters, options: all).results.map(\.slug))
            let suggested = try Fixture.engine.complete(text).map(\.slug)
            #expect(!suggested.isEmpty && suggested.allSatisfy(typed.contains), "'\(text)': \(suggested)")
        }
        #expect(try Fixture.engine.complete("fier drag").isEmpty == false, "a word that is no type still gets its typos")
    }

    @Test func explainSaysHowEachTermMatched() throws {
        var options = SearchOptions()
        options.explain = true
        let fire = try #require(try Fixture.engine.search("fire dragon", options: options).results.first { $0.slug == "reshiram" })
        #expect(fire.explanation.map(\.matchClass) == [.field, .field])
        let glurak = try #require(try Fixture.engine.search("glurak", options: options).results.first)
        #expect(glurak.explanation.first?.matchClass == .exact && glurak.explanation.first?.language == "de")
        let translit = try #require(try Fixture.engine.search("rizadon", options: options).results.first)
        #expect(translit.explanation.first?.transliterated == true)
        // A transliteration equal to the query is a prefix match at best (tones and long vowels
        // are gone from it): 皮卡丘 is "pi ka qiu".
        let pinyin = try #require(try Fixture.engine.search("pikaqiu", options: options).results.first)
        #expect(pinyin.slug == "pikachu" && pinyin.explanation.first?.matchClass == .namePrefix
                && pinyin.explanation.first?.transliterated == true)
        let typo = try #require(try Fixture.engine.search("charzard", options: options).results.first)
        #expect(typo.explanation.first?.typos == 1)
    }

    @Test func displayLanguageRanksItsNamesFirst() throws {
        var options = SearchOptions()
        options.language = Language.index(of: "de")!
        options.explain = true
        options.limit = 200
        // Names in the display language come first (the language rule: after typos, before
        // whole words and positions).
        let results = try Fixture.engine.search("glu", options: options).results
        let buckets = results.map { r in
            let hit = r.explanation[0]
            return (hit.typos + (hit.weak ? 1 : 0)) * 64 + (hit.language == nil || hit.language == "de" ? 0 : 32)
                + (hit.wholeWord ? 0 : 16) + Int(hit.position.rawValue)
        }
        #expect(buckets == buckets.sorted())
        #expect(results.first { $0.explanation.first?.matchClass == .namePrefix }?.name == "Glumanda")
        options.explain = false
        #expect(try Fixture.engine.search("pikachu", options: options).results.first?.name == "Pikachu")
        options.language = Language.index(of: "ja")!
        #expect(try Fixture.engine.search("pikachu", options: options).results.first?.name == "ピカチュウ")
    }

    @Test func sortingAndPaging() throws {
        var options = SearchOptions()
        options.sort = .attack
        options.descending = true
        options.limit = 30
        let attack = try Fixture.engine.search("type:dragon kind:pokemon", options: options).results
        let values = attack.map { Fixture.engine.index.number(.attack, $0.doc) }
        #expect(values == values.sorted(by: >))
        options.sort = .name
        options.descending = false
        let names = try Fixture.engine.search("kind:type", options: options).results.map { Folding.fold($0.name) }
        #expect(names.count == 21 && names == names.sorted() && names.contains("bug"))
        var page = SearchOptions()
        page.limit = 7
        var seen: [String] = []
        let total = try Fixture.engine.search("type:ice kind:pokemon", options: page).total
        while page.offset < total {
            seen += try Fixture.engine.search("type:ice kind:pokemon", options: page).results.map(\.slug)
            page.offset += 7
        }
        #expect(seen.count == total && Set(seen).count == total)
    }
}
