@testable import Corpus
import Foundation
import Testing

/// The corpus side of "every name people type": forms' other names and synonyms.
@Suite("Corpus: form names and synonyms")
struct NamesPeopleTypeCorpusTests {
    let corpus = Fixture.corpus

    func formNames(_ slug: String, _ language: String) -> [String] {
        corpus.formNames.filter { $0.slug == slug && $0.language == language }.map(\.text)
    }

    @Test func defaultFormsHaveTheirFullNamesInEveryLanguage() {
        #expect(formNames("palafin-zero", "en") == ["Zero Form Palafin"])
        #expect(formNames("flabebe", "en") == ["Red Flabébé", "Flabébé (Red Flower)", "Red Flower Flabébé"])
        #expect(formNames("tornadus-incarnate", "en").contains("Incarnate Tornadus"))
        #expect(formNames("indeedee-male", "en") == ["Male Indeedee"])
        #expect(formNames("cherrim", "en") == ["Overcast Cherrim", "Cherrim (Overcast Form)", "Overcast Form Cherrim"])
        // In English, the form's name before the species' too, as players write it.
        #expect(formNames("darmanitan-zen", "en") == ["Darmanitan (Zen Mode)", "Zen Mode Darmanitan"])
        #expect(formNames("wishiwashi-solo", "fr") == ["Froussardine Forme Solitaire"])
        #expect(formNames("cherrim", "ja") == ["チェリム (ネガフォルム)"])
        // What names.tsv already has is not repeated: Wash Rotom's form name is its name.
        #expect(formNames("rotom-wash", "en").isEmpty)
    }

    func synonym(_ term: String) -> [String] {
        corpus.synonyms.filter { $0.term == term }.map { "\($0.kind):\($0.slug)" }
    }

    @Test func showdownNicknamesNameTheirPokeAPIEntities() {
        #expect(synonym("ttar") == ["pokemon:tyranitar"])
        #expect(synonym("landot") == ["pokemon:landorus-therian"])
        #expect(synonym("lando-t") == ["pokemon:landorus-therian"])
        #expect(synonym("zardx") == ["pokemon:charizard-mega-x"])
        #expect(synonym("rotom-w") == ["pokemon:rotom-wash"])
        // Formes Showdown names otherwise than PokeAPI.
        #expect(synonym("ndm") == ["pokemon:necrozma-dusk"])
        #expect(synonym("wetbull") == ["pokemon:tauros-paldea-aqua-breed"])
        #expect(synonym("taurospaldea") == ["pokemon:tauros-paldea-combat-breed"])
        // A forme's nickname holding a type's name run together is left out: "fire" would
        // find it as a name for every search of fire Pokémon.
        #expect(synonym("taurospaldeafire").isEmpty && synonym("genesectfire").isEmpty)
        #expect(synonym("meowsticfemale") == ["pokemon:meowstic-female"])
        // Moves, items, abilities by their sections; Showdown's list of names split in words
        // is no list of nicknames ("char" would be a whole word of Charmander's name).
        #expect(synonym("tbolt").allSatisfy { $0 == "move:thunderbolt" })
        #expect(synonym("Thunder bolt").isEmpty)
        #expect(synonym("bproof") == ["ability:bulletproof"])
        // No battle format is a synonym.
        #expect(synonym("randbats").isEmpty && synonym("ou").isEmpty)
    }

    @Test func formWordsAreShippedGroups() {
        #expect(synonym("alolan") == ["word:alola"])
        #expect(synonym("gigantamax") == ["word:gmax"])
        #expect(Set(corpus.synonyms.filter { $0.kind == "word" && $0.slug == "female" }.map(\.term)) == ["f", "♀"])
    }

    /// The groups read off the tables (`CuratedSynonyms`) hold what the games call so, and only
    /// that: a PokeAPI change that breaks a membership rule (a Z-Move's PP, a Max Move's slug,
    /// `is_mega`, `is_legendary`) fails here rather than in a judged query's first result.
    @Test func groupsReadOffTheTablesHoldTheirMembers() {
        func members(_ term: String) -> Set<String> { Set(synonym(term)) }
        // The 35 Z-Moves of a type (each a physical and a special move in PokeAPI) and the 18
        // exclusive ones; generation 7's other moves, and the other moves of 1 PP, are none.
        let zMoves = members("z move")
        #expect(zMoves.count == 53)
        #expect(zMoves.isSuperset(of: ["move:breakneck-blitz--physical", "move:breakneck-blitz--special", "move:catastropika",
                                       "move:10-000-000-volt-thunderbolt", "move:clangorous-soulblaze"]))
        #expect(zMoves.isDisjoint(with: ["move:struggle", "move:sketch", "move:revival-blessing", "move:spectral-thief",
                                         "move:max-flare"]))
        // The 18 Max Moves of a type and Max Guard.
        let maxMoves = members("max move")
        #expect(maxMoves.count == 19 && maxMoves.contains("move:max-guard") && maxMoves.contains("move:max-flare"))
        // Every Mega Evolution, and no other form.
        let megas = members("mega evolution")
        #expect(megas == Set(corpus.pokemon.filter(\.isMega).map { "pokemon:\($0.slug)" }))
        #expect(megas.count == 97 && megas.contains("pokemon:charizard-mega-x") && !megas.contains("pokemon:charizard"))
        // The default Pokémon of each legendary and each mythical species (not their other
        // forms), and the Ultra Beasts, which PokeAPI marks not.
        let legendaries = members("legendary"), mythicals = members("mythical")
        #expect(legendaries.count == corpus.species.filter(\.isLegendary).count && legendaries.count == 71)
        #expect(legendaries.isSuperset(of: ["pokemon:articuno", "pokemon:mewtwo", "pokemon:koraidon"]))
        #expect(!legendaries.contains("pokemon:mewtwo-mega-x") && !legendaries.contains("pokemon:mew"))
        #expect(mythicals.count == 23 && mythicals.contains("pokemon:mew") && mythicals.isDisjoint(with: legendaries))
        #expect(members("ultra beast").count == 11 && members("ultra beast").contains("pokemon:blacephalon"))
        // The starters, three a generation: none evolved, none a partner form.
        let starters = members("starter")
        #expect(starters.count == 27 && starters.contains("pokemon:quaxly") && !starters.contains("pokemon:charizard")
                && !starters.contains("pokemon:pikachu-starter"))
        // Groups fans name, each member a Pokémon of the corpus.
        #expect(members("pseudo legendary").count == 10 && members("legendary birds").count == 6
                && members("swords of justice").contains("pokemon:keldeo-ordinary"))
        let slugs = Set(corpus.pokemon.map { "pokemon:\($0.slug)" })
        #expect(CuratedSynonyms.pokemonGroups.allSatisfy { group in group.names.allSatisfy { members($0).isSubset(of: slugs) && members($0).count == group.members.count } })
        // The plurals name the same.
        #expect(members("z moves") == zMoves && members("max moves") == maxMoves && members("mega evolutions") == megas)
        #expect(members("legendaries") == legendaries && members("mythicals") == mythicals
                && members("ultra beasts") == members("ultra beast") && members("starters") == starters)
    }

    @Test func aliasesParseSkipFormatsAndReportWhatNamesNothing() throws {
        let text = """
            export const Aliases: import('../sim/dex').AliasesTable = {
            \t// formats
            \trandbats: "[Gen 9] Random Battle",
            \t// mega evos --- 1st ordered
            \tzardx: "Charizard-Mega-X",
            \t// Pokéstar Studios --- 1st ordered
            \tufo: "Pokestar UFO",
            \t// items --- 1st ordered
            \t"lefties": 'Leftovers',
            \t// moves --- ordered
            \tpsychic: "Psychic",
            };
            export const CompoundWordNames = [
            \t// moves
            \t'Thunder-bolt',
            ];
            """
        let (synonyms, report) = try ShowdownAliases.synonyms(from: text, corpus: Fixture.corpusTables)
        #expect(synonyms.map { "\($0.term)=\($0.kind):\($0.slug)" }
                == ["zardx=pokemon:charizard-mega-x", "zard-x=pokemon:charizard-mega-x", "lefties=item:leftovers",
                    "psychic=move:psychic"])
        #expect(report.hasSuffix("ufo\tPokestar UFO\tpokéstar studios\n"))
        #expect(!report.contains("randbats"))
    }

    @Test func aCorpusWithoutTheOptionalTablesReadsAsHavingNone() throws {
        var tables = Fixture.corpusTables
        tables.tables["synonyms"] = nil
        tables.tables["form_names"] = nil
        let bare = try Corpus(tables: tables)
        #expect(bare.synonyms.isEmpty && bare.formNames.isEmpty && bare.pokemon.count == corpus.pokemon.count)
    }
}
