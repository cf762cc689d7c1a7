import Corpus
@testable import Query
import Testing

/// A word naming a kind, added to a name as people do ("levitate ability", "dragon moves"),
/// is that kind's filter (`SearchEngine.kindWordsAsFilters`); where the words together are a
/// name's start, or the filter finds nothing, the words are matched as typed, but for a
/// Pokémon's name before "ability": its abilities (`abilitiesOfAPokemon`).
@Suite("Kind words")
struct KindWordsTests {
    typealias Case = RelevanceTests.Case

    static let cases: [Case] = [
        // The kind narrows the words: without it, "levitate ability" and "water type moves"
        // found nothing, "thunderbolt move" gave 10,000,000 Volt Thunderbolt (a Z-Move, whose
        // synonym "z move" holds "move"), "dragon moves" Z-Moves.
        RelevanceTests.c("levitate ability", .first(["ability:levitate"])),
        RelevanceTests.c("thunderbolt move", .first(["move:thunderbolt"])),
        RelevanceTests.c("dragon moves", .onlyKinds([.move], atLeast: 20)),
        RelevanceTests.c("water type moves", .first(["move:water-gun"])),
        RelevanceTests.c("ghost type pokemon", .first(["pokemon:gastly"])),
        RelevanceTests.c("ability shield item", .first(["item:ability-shield"])),
        RelevanceTests.c("leftovers item", .first(["item:leftovers"])),
        // Names that hold a kind word stay names.
        RelevanceTests.c("ability capsule", .first(["item:ability-capsule"])),
        RelevanceTests.c("type null", .first(["pokemon:type-null"])),
        RelevanceTests.c("z move", .first(["move:breakneck-blitz--physical"])),
        // The filter finds nothing: the words as typed.
        RelevanceTests.c("capsule ability", .first(["item:ability-capsule"])),
        // No ability is so named, and the words are a Pokémon's name: its abilities, hidden one
        // included (they found nothing).
        RelevanceTests.c("garchomp ability", .first(["ability:sand-veil", "ability:rough-skin"])),
        RelevanceTests.c("pikachu abilities", .first(["ability:static", "ability:lightning-rod"])),
        RelevanceTests.c("galarian slowbro ability", .first(["ability:own-tempo", "ability:regenerator", "ability:quick-draw"])),
        // Only a whole name, typed as it is, names the Pokémon.
        RelevanceTests.c("garchmp ability", .nothing),
        RelevanceTests.c("xyzzy ability", .nothing),
    ]

    @Test(arguments: cases)
    func findsIt(_ c: Case) throws { try RelevanceTests.check(c) }

    func narrowed(_ query: String) throws -> [Clause]? {
        try Fixture.engine.kindWordsAsFilters(QueryParser.parse(query)).map { $0.clauses.map(\.clause) }
    }

    @Test func theLastTermElseTheFirstIsRead() throws {
        let last = try #require(try narrowed("ability shield item"))
        #expect(last.count == 3)
        if case .filter(.kind(.item), _, _) = last[2] {} else { Issue.record("\(last)") }
        if case .term(let term) = last[0] { #expect(term.text == "ability") } else { Issue.record("\(last)") }
        let first = try #require(try narrowed("moves dragon"))
        if case .filter(.kind(.move), _, _) = first[0] {} else { Issue.record("\(first)") }
        // "type" before the last term's kind goes with the word before it.
        let typed = try #require(try narrowed("fire type pokemon"))
        #expect(typed.count == 2)
        if case .filter(.kind(.pokemon), _, _) = typed[1] {} else { Issue.record("\(typed)") }
    }

    /// The abilities of a Pokémon named before "ability" say whose they are, the hidden one
    /// so called (no term matched them: the explanation had only the rule that decided).
    @Test func aPokemonsAbilitiesAreExplainedAsItsOwn() throws {
        var options = SearchOptions()
        options.explain = true
        let found = try Fixture.engine.search("Garchomp ability", options: options).results
        #expect(found.map(\.slug) == ["sand-veil", "rough-skin"])
        #expect(found.map { $0.explanationLines.first } == ["Garchomp: Garchomp's ability", "Garchomp: Garchomp's hidden ability"])
        #expect(found.map { $0.explanationLines.last } == ["above the next by id", "Garchomp: Garchomp's hidden ability"])
        // Unasked, nothing is explained.
        #expect(try Fixture.engine.search("garchomp ability").results.allSatisfy { $0.explanation.isEmpty })
    }

    @Test func aKindWordAloneOrInsideANameOrNegatedIsAWord() throws {
        for query in ["ability", "moves", "ability capsule", "pokemon box", "type null", "z move", "dragon -moves", "fire dragon",
                      "@fr:moves dragon"] {
            #expect(try narrowed(query) == nil, "\(query)")
        }
    }
}
