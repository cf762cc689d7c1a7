import Corpus
import Foundation
import Testing

@Suite("Bundled corpus")
struct CorpusTests {
    let corpus = Fixture.corpus

    /// A kind's rank is what the index stores: its place in `allCases`, both ways.
    @Test func kindRanksAreTheirPlacesInAllCases() {
        #expect(Kind.allCases.map(\.rank) == Array(Kind.allCases.indices))
        #expect(Kind.allCases.indices.map { Kind(rank: $0) } == Kind.allCases)
        #expect(Kind(rank: Kind.allCases.count) == nil && Kind(rank: -1) == nil)
    }

    @Test func countsPerKind() {
        // 1,351 rows of PokeAPI's pokemon table plus 228 cosmetic forms.
        #expect(corpus.pokemon.filter { $0.formOf == nil }.count == 1351)
        #expect(corpus.pokemon.filter { $0.formOf != nil }.count == 228)
        #expect(corpus.moves.count == 937)
        #expect(corpus.items.count == 2223)
        #expect(corpus.abilities.count == 373)
        #expect(corpus.types.count == 21)
        #expect(corpus.species.count == 1025)
    }

    func pokemon(_ slug: String) throws -> Pokemon { try #require(corpus.pokemon.first { $0.slug == slug }) }
    func name(_ kind: String, _ slug: String, _ language: String) -> String? {
        corpus.names.first { $0.kind == kind && $0.slug == slug && $0.language == language }?.text
    }

    @Test func pikachu() throws {
        let pikachu = try pokemon("pikachu")
        #expect(pikachu.id == 25 && pikachu.speciesID == 25)
        #expect(pikachu.types == ["electric"])
        #expect(pikachu.abilities == ["static"])
        #expect(pikachu.hiddenAbility == "lightning-rod")
        #expect(pikachu.stats.total == 320)
        #expect(name("pokemon", "pikachu", "ja") == "ピカチュウ")
    }

    @Test func namesInOtherLanguages() {
        #expect(name("pokemon", "charizard", "de") == "Glurak")
        #expect(name("pokemon", "charizard", "fr") == "Dracaufeu")
        #expect(name("pokemon", "eevee", "ko") == "이브이")
        #expect(name("pokemon", "eevee", "zh-hans") == "伊布")
        #expect(name("pokemon", "eevee", "zh-hant") == "伊布")
        #expect(name("genus", "bulbasaur", "en") == "Seed Pokémon")
    }

    @Test func formsAndCosmeticForms() throws {
        let mega = try pokemon("charizard-mega-x")
        #expect(mega.types == ["fire", "dragon"] && mega.isMega && !mega.isDefault)
        #expect(name("pokemon", "charizard-mega-x", "en") == "Mega Charizard X")
        let east = try pokemon("shellos-east")
        #expect(east.formOf == 422 && east.kind == .form && east.types == ["water"])
        #expect(name("form", "shellos-east", "en") == "East Shellos")
        #expect(try pokemon("rotom-wash").types == ["electric", "water"])
        // Arceus's forms have their own types.
        #expect(try pokemon("arceus-fire").types == ["fire"])
    }

    @Test func speciesEvolutionsMovesItemsTypes() throws {
        let raichu = try #require(corpus.evolutions.first { $0.species == "raichu" && $0.isDefault })
        #expect(raichu.trigger == "use-item")
        #expect(raichu.conditions.contains { $0.key == "item" && $0.value == "thunder-stone" })
        let ivysaur = try #require(corpus.evolutions.first { $0.species == "ivysaur" })
        #expect(ivysaur.conditions.first { $0.key == "min_level" }?.value == "16")
        let mewtwo = try #require(corpus.species.first { $0.slug == "mewtwo" })
        #expect(mewtwo.isLegendary && mewtwo.generation == 1 && mewtwo.habitat == "rare")
        let thunderbolt = try #require(corpus.moves.first { $0.slug == "thunderbolt" })
        #expect(thunderbolt.type == "electric" && thunderbolt.damageClass == "special" && thunderbolt.power == 90
                && thunderbolt.accuracy == 100 && thunderbolt.pp == 15)
        let masterBall = try #require(corpus.items.first { $0.slug == "master-ball" })
        #expect(masterBall.category == "standard-balls" && masterBall.cost == 0)
        #expect(corpus.items.first { $0.slug == "oran-berry" }?.category == "medicine")
        #expect(corpus.typeEfficacy["fire"]?["grass"] == 200)
        #expect(corpus.typeEfficacy["ground"]?["flying"] == 0)
        #expect(corpus.typeEfficacy["water"]?["water"] == 50)
    }

    @Test func proseOnlyInTheProseTable() throws {
        // Facts tables hold no text: prose is in prose.tsv alone, once per move effect.
        for stem in CorpusTables.fileStems where stem != "prose" {
            let table = try Fixture.corpusTables.table(stem)
            #expect(!table.columns.contains { $0.contains("flavor") || $0.contains("description") || $0.contains("text") })
        }
        let corpus = try Corpus(tables: Fixture.corpusTables)
        let thunderbolt = try #require(corpus.moves.first { $0.slug == "thunderbolt" })
        let prose = corpus.prose(ofMove: thunderbolt)
        #expect(prose.contains { $0.language == "en" && $0.field == "short" && $0.text == "Has a 10% chance to paralyze the target." })
        #expect(prose.contains { $0.language == "fr" && $0.field == "short" && $0.text.contains("paralyser") })
        // The newest version group's flavour text of an ability, one per language.
        let levitate = corpus.prose.filter { $0.kind == "ability" && $0.slug == "levitate" && $0.field == "flavor" }
        #expect(Set(levitate.map(\.language)).count == levitate.count && levitate.count >= 9)
    }

    @Test func effectChanceIsFilledIn() {
        var corpus = try! Corpus(tables: Fixture.corpusTables)
        corpus.prose = [Prose(kind: "move-effect", id: 7, slug: "7", language: "en", field: "short", text: "Has a $effect_chance% chance to paralyze.")]
        var move = corpus.moves.first { $0.slug == "thunderbolt" }!
        move.effect = 7
        move.effectChance = 10
        #expect(corpus.prose(ofMove: move).map(\.text) == ["Has a 10% chance to paralyze."])
    }

    @Test func detailFacts() throws {
        let corpus = try Corpus(tables: Fixture.corpusTables)
        let pikachu = try #require(corpus.species.first { $0.slug == "pikachu" })
        #expect(pikachu.genderRate == 4 && pikachu.captureRate == 190 && pikachu.eggGroups == ["ground", "fairy"])
        #expect(pikachu.hatchCounter == 10 && pikachu.baseFriendship == 70 && pikachu.growthRate == "medium")
        #expect(pikachu.dexNumbers.first { $0.pokedex == "kanto" }?.number == 25)
        let pokemon = try #require(corpus.pokemon.first { $0.slug == "pikachu" })
        #expect(pokemon.evYield.map(\.stat) == ["speed"] && pokemon.evYield.map(\.value) == [2] && pokemon.baseExperience == 112)
        #expect(corpus.pokemon.first { $0.slug == "charizard-mega-x" }?.generation == 6)
        let thunderbolt = try #require(corpus.moves.first { $0.slug == "thunderbolt" })
        #expect(thunderbolt.target == "selected-pokemon" && thunderbolt.effectChance == 10)
        #expect(thunderbolt.meta?.ailment == "paralysis" && thunderbolt.meta?.ailmentChance == 10)
        #expect(corpus.moves.first { $0.slug == "quick-attack" }?.flags.contains("contact") == true)
        #expect(corpus.machines.contains { $0.move == "thunderbolt" && $0.versionGroup == "red-blue" && $0.item == "tm24" })
        #expect(corpus.items.first { $0.slug == "master-ball" }?.flags.contains("consumable") == true)
        // Tyrogue evolves into Hitmontop when its Attack equals its Defense (a 0 kept).
        #expect(corpus.evolutions.first { $0.species == "hitmontop" }?.conditions.contains { $0.key == "relative_physical_stats" && $0.value == "0" } == true)
    }

    @Test(.enabled(if: Fixture.hasSharedCSV, "../shared/pokeapi-csv is not on this machine: converter check skipped"))
    func converterReproducesTheBundledCorpusByteForByte() throws {
        let aliases = try String(contentsOf: Fixture.showdownAliases, encoding: .utf8)
        let (tables, unmapped) = try Converter.convert(csvDirectory: Fixture.sharedCSV, showdownAliases: aliases)
        for stem in CorpusTables.allStems {
            let written = TSV.encode(try tables.table(stem))
            let committed = try String(contentsOf: Fixture.corpusDirectory.appendingPathComponent("\(stem).tsv"), encoding: .utf8)
            #expect(written == committed, "corpus/\(stem).tsv differs from the converter's output")
        }
        let report = try String(contentsOf: Fixture.corpusDirectory.appendingPathComponent("synonyms-unmapped.txt"), encoding: .utf8)
        #expect(unmapped == report, "corpus/synonyms-unmapped.txt differs from the converter's report")
    }

    @Test func tsvRoundTripsAndReportsBadRows() throws {
        let table = Table(columns: ["id", "name"], rows: [["1", "Pikachu"], ["2", ""]])
        #expect(try TSV.decode(TSV.encode(table), file: "t.tsv") == table)
        #expect(throws: CorpusError.format(file: "t.tsv", line: 3, message: "expected 2 fields, found 1")) {
            try TSV.decode("id\tname\n1\tPikachu\n2\n", file: "t.tsv")
        }
    }

    @Test func missingOrMalformedCorpusFilesAreClearErrors() throws {
        let directory = URL(fileURLWithPath: Fixture.temporaryDirectory("corpus"))
        #expect(throws: CorpusError.self) { try TSV.readCorpus(from: directory) }
        try TSV.writeCorpus(Fixture.corpusTables, to: directory)
        var moves = try String(contentsOf: directory.appendingPathComponent("moves.tsv"), encoding: .utf8)
        moves = moves.replacingOccurrences(of: "1\tpound\t1\tnormal\tphysical\t40", with: "1\tpound\t1\tnormal\tphysical\tforty")
        try moves.write(to: directory.appendingPathComponent("moves.tsv"), atomically: true, encoding: .utf8)
        do {
            _ = try Corpus(directory: directory)
            Issue.record("a malformed corpus was accepted")
        } catch let error as CorpusError {
            #expect(error.description == "moves.tsv:2: 'power' is not a whole number: 'forty'")
        }
    }

    @Test func csvReaderHandlesQuotes() throws {
        let table = try CSVTable(text: "id,name\n1,\"Farfetch'd, \"\"the\"\" duck\"\n2,\"two\nlines\"\n", file: "x.csv")
        #expect(table.rows == [["1", "Farfetch'd, \"the\" duck"], ["2", "two\nlines"]])
        #expect(throws: CorpusError.self) { try CSVTable(text: "id,name\n1,\"open", file: "x.csv") }
    }
}
