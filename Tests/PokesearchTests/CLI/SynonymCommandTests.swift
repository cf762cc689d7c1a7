import Catalog
import Corpus
import Foundation
import Query
import Store
import Testing

/// `pokesearch synonym`: the user's synonyms, end to end, and how the store keeps them.
@Suite struct SynonymCommandTests {
    func slugs(_ harness: PokedexHarness, _ query: String) throws -> [String] {
        try harness.run([query, "--json", "--limit", "3"]).jsonLines().compactMap { $0["slug"] as? String }
    }

    /// (On a database of the small corpus: each change of a synonym rebuilds the index.)
    @Test func synonymsAreNamesKeptAcrossIngest() throws {
        let harness = try PokedexHarness(copying: Fixture.smallDatabase)
        defer { harness.remove() }
        #expect(harness.run(["synonym"]).status == 1)
        #expect(harness.run(["synonym", "add", "sparky", "pikachu"]).status == 0)
        #expect(harness.run(["synonym", "add", "starters", "bulbasaur", "charmander", "squirtle"]).status == 0)
        #expect(harness.run(["synonym", "add", "bestboi", "master", "ball"]).status == 0)
        // A synonym of a whole name ranks as that name.
        #expect(try slugs(harness, "sparky").first == "pikachu")
        #expect(try slugs(harness, "starters") == ["bulbasaur", "charmander", "squirtle"])
        #expect(try slugs(harness, "bestboi") == ["master-ball"])
        #expect(harness.run(["synonym", "list"]).lines.count == 5)
        #expect(harness.run(["ingest", "--quiet"], environment: Fixture.smallCorpusEnvironment).status == 0)
        #expect(try slugs(harness, "sparky").first == "pikachu")
        #expect(harness.run(["synonym", "remove", "Sparky"]).status == 0)
        #expect(try slugs(harness, "sparky").first != "pikachu")
        let again = harness.run(["synonym", "remove", "sparky"])
        #expect(again.status == 1 && again.stderr.contains("not a synonym of yours"))
    }

    @Test func aSynonymThatNamesNothingIsRefused() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let nothing = harness.run(["synonym", "add", "foo", "notapokemonatall"])
        #expect(nothing.status == 1 && nothing.stderr.contains("nothing is named 'notapokemonatall'"))
        let ambiguous = harness.run(["synonym", "add", "metro", "metronome"])
        #expect(ambiguous.status == 1 && ambiguous.stderr.contains("names several things"))
        #expect(harness.run(["synonym", "add", "!!!", "pikachu"]).status == 2)
        #expect(harness.run(["synonym", "add", "lonely"]).status == 2)
        #expect(harness.run(["synonym", "frobnicate"]).status == 2)
        #expect(harness.run(["synonym", "list"]).status == 1)
    }

    @Test func listingATermShowsShippedSynonyms() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["synonym", "list", "ttar"])
        #expect(run.status == 0 && run.stdout.contains("pokemon:tyranitar") && run.stdout.contains("showdown"))
    }

    /// A running server answers from the index it loaded until RELOAD, then with the
    /// user's new synonym.
    @Test func aServerSeesASynonymAfterReload() throws {
        let harness = try PokedexHarness(copying: Fixture.smallDatabase)
        defer { harness.remove() }
        let server = try RunningServer(database: harness.database)
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 120)
        #expect(!(try client.request("SEARCH sparky LIMIT(1)")).contains("\"pikachu\""))
        #expect(harness.run(["synonym", "add", "sparky", "pikachu"]).status == 0)
        #expect(try client.requestJSON("RELOAD")["ok"] as? Bool == true)
        #expect(try client.request("SEARCH sparky LIMIT(1)").contains("\"slug\":\"pikachu\""))
    }

    /// An ingest of a corpus without Showdown's nicknames (the live-API sync's, a PokeAPI
    /// CSV directory's) gets the bundled corpus's; a database made from the bundled corpus
    /// before form names gets its form names. (The small corpus, as the sync's: what is
    /// added is the bundled corpus's whole tables, and an ingest of the small one is quicker.)
    @Test func aCorpusWithoutNicknamesGetsTheBundledOnes() throws {
        var tables = PokeAPIFixture.shared.subset
        tables.tables["synonyms"] = Synonyms.table(FormWords.synonyms)
        tables.tables["form_names"] = nil
        let path = Fixture.temporaryDirectory("no-nicknames") + "/pokesearch.sqlite"
        _ = try Ingest.run(tables: tables, source: "bundled corpus", databasePath: path)
        let stored = try Store(path: path, readOnly: true).readCorpus()
        #expect(stored.synonyms.contains { $0.term == "ttar" && $0.slug == "tyranitar" })
        #expect(stored.synonyms.contains { $0.term == "alolan" && $0.kind == Synonym.wordKind })
        #expect(stored.formNames.count == Fixture.corpus.formNames.count)
        let engine = SearchEngine(index: try Catalog.loadIndex(try Store(path: path, readOnly: true)))
        #expect(try engine.search("bdrill").results.first?.slug == "beedrill")
    }

    /// A database of schema version 1 gets the synonym tables when opened writable, and
    /// keeps its favourites.
    @Test func version1DatabasesAreMigrated() throws {
        let path = Fixture.copyOfDatabase("schema-1")
        let store = try Store(path: path)
        try store.addFavourite(kind: .pokemon, slug: "pikachu")
        try Fixture.downgradeToSchemaOne(store)
        #expect(try Store(path: path, readOnly: true).userSynonyms().isEmpty)
        let migrated = try Store(path: path)
        #expect(migrated.meta("schema_version") == "4")
        try migrated.database.transaction { _ = try migrated.addUserSynonym("sparky", targets: [(.pokemon, "pikachu")]) }
        #expect(try migrated.userSynonyms().map(\.term) == ["sparky"])
        #expect(try migrated.favourites().map(\.slug) == ["pikachu"])
    }
}
