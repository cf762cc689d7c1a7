import Foundation
import Store
import Testing

/// Favourites, history, random, and sorting and paging, end to end.
@Suite struct PokedexUserDataTests {
    @Test func favouritesSurviveIngest() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        #expect(harness.run(["fav"]).status == 1)
        #expect(harness.run(["fav", "add", "pikachu"]).status == 0)
        #expect(harness.run(["fav", "add", "move:thunder-punch"]).status == 0)
        #expect(harness.run(["fav", "add", "Dracaufeu"]).status == 0)
        #expect(harness.run(["fav", "add", "metronome"]).status == 1)
        #expect(harness.run(["ingest", "--quiet"], environment: Fixture.smallCorpusEnvironment).status == 0)
        let listed = try harness.run(["fav", "--json"]).jsonLines().map { "\($0["kind"]!):\($0["slug"]!)" }
        #expect(listed == ["pokemon:pikachu", "move:thunder-punch", "pokemon:charizard"])
        let filtered = try harness.run(["is:fav", "--json"]).jsonLines().compactMap { $0["slug"] as? String }
        #expect(Set(filtered) == ["pikachu", "thunder-punch", "charizard"])
        #expect(harness.run(["fav", "remove", "pikachu"]).status == 0)
        let again = harness.run(["fav", "remove", "pikachu"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("not a favourite"))
        #expect(harness.run(["fav"]).lines.count == 2)
        #expect(harness.run(["fav", "frobnicate"]).status == 2)
    }

    /// Searches are history, completions are not (each TAB asks for one).
    @Test func historyOfSearchesNotCompletions() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        #expect(harness.run(["history"]).status == 1)
        _ = harness.run(["pikachu"])
        _ = harness.run(["complete", "char"])
        _ = harness.run(["fire", "dragon"])
        _ = harness.run(["pikachu"])
        _ = harness.run(["eevee"], environment: ["POKESEARCH_NO_HISTORY": "1"])
        #expect(harness.run(["history"]).lines.map { $0.split(separator: "  ", maxSplits: 1).last.map(String.init) ?? "" } == ["pikachu", "fire dragon"])
        let json = try harness.run(["history", "--json"]).jsonLines()
        #expect(json.compactMap { $0["query"] as? String } == ["pikachu", "fire dragon"])
        #expect(harness.run(["history", "--clear"]).status == 0)
        #expect(harness.run(["history"]).lines.isEmpty)
        #expect(harness.run(["history", "extra"]).status == 2)
    }

    @Test func historyKeepsTheLastFiftyDistinct() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let store = try Store(path: harness.database)
        for n in 0..<60 { try store.recordHistory("query \(n)") }
        try store.recordHistory("query 5")
        let history = try store.history()
        #expect(history.count == 50)
        #expect(history.first == "query 5")
        #expect(history[1] == "query 59")
        #expect(!history.contains("query 10"))
    }

    @Test func randomMove() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        for _ in 0..<3 {
            let run = harness.run(["random", "--kind", "move", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let objects = try run.jsonLines()
            #expect(objects.count == 1)
            #expect(objects.first?["kind"] as? String == "move")
        }
        let table = harness.run(["random", "--kind", "move"])
        #expect(table.lines.count == 1)
        #expect(table.lines.first?.hasPrefix("#") == true)
    }

    @Test func randomAmongAQuerysMatches() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        var seen = Set<String>()
        for _ in 0..<12 {
            let run = harness.run(["random", "type:fire", "gen:1", "kind:pokemon", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try run.jsonLines().first)
            #expect((object["types"] as? [String])?.contains("fire") == true)
            seen.insert(object["slug"] as? String ?? "")
        }
        // Twelve draws among a dozen first-generation fire Pokémon: not always the same one.
        #expect(seen.count > 1)
        let none = harness.run(["random", "zzzzqqq"])
        #expect(none.status == 1 && none.stderr.contains("nothing found"))
        let text = harness.run(["random", "text:paralyze", "type:electric", "kind:move", "--json"])
        #expect(try text.jsonLines().first?["types"] as? [String] == ["electric"])
    }

    /// Water Pokémon slugs from the corpus itself.
    static func waterPokemon() throws -> Set<String> {
        let text = try String(contentsOf: PokedexHarness.checkout.appendingPathComponent("corpus/pokemon.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let types = try #require(rows.first?.firstIndex(of: "types")), formOf = try #require(rows.first?.firstIndex(of: "form_of"))
        // (Cosmetic forms, the rows with `form_of`, are of kind form.)
        return Set(rows.dropFirst().filter { $0[formOf].isEmpty && $0[types].split(separator: ",").contains("water") }.map { String($0[1]) })
    }

    func pages(_ harness: PokedexHarness, _ arguments: [String]) throws -> [String] {
        var slugs: [String] = []
        for offset in stride(from: 0, to: 2000, by: 20) {
            let page = try harness.run(arguments + ["--limit", "20", "--offset", String(offset), "--json"]).jsonLines()
            slugs += page.compactMap { $0["slug"] as? String }
            if page.count < 20 { break }
        }
        return slugs
    }

    @Test func pagingYieldsEveryWaterPokemonOnce() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let slugs = try pages(harness, ["type:water", "kind:pokemon"])
        #expect(slugs.count == Set(slugs).count)
        #expect(Set(slugs) == (try Self.waterPokemon()))
        let whole = try harness.run(["type:water", "kind:pokemon", "--limit", "1000", "--json"]).jsonLines().compactMap { $0["slug"] as? String }
        #expect(slugs == whole)
    }

    @Test func sortingByAttackDescendingIsMonotone() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let text = try String(contentsOf: PokedexHarness.checkout.appendingPathComponent("corpus/pokemon.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let attackColumn = try #require(rows.first?.firstIndex(of: "attack"))
        let attack = Dictionary(rows.dropFirst().map { (String($0[1]), Int($0[attackColumn]) ?? 0) }, uniquingKeysWith: { a, _ in a })
        let arguments = ["type:water", "kind:pokemon", "--sort", "attack", "--desc"]
        let slugs = try pages(harness, arguments)
        let values = slugs.map { attack[$0] ?? -1 }
        #expect(values.count == (try Self.waterPokemon()).count)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(values.first == values.max())
        let whole = try harness.run(arguments + ["--limit", "1000", "--json"]).jsonLines().compactMap { $0["slug"] as? String }
        #expect(slugs == whole)
    }
}
