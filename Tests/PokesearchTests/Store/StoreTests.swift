import Catalog
import Corpus
import Foundation
import Query
import Store
import Testing

@Suite("Store and ingest")
struct StoreTests {
    @Test func corpusTablesRoundTripThroughTheDatabase() throws {
        let store = try Store(path: Fixture.database, readOnly: true)
        #expect(try store.readCorpusTables() == Fixture.corpusTables)
        #expect(store.meta("schema_version") == "4")
        #expect(store.meta("corpus_version") == Ingest.corpusVersion(Fixture.corpusTables))
        let entities = try store.readEntities()
        #expect(entities.count == 1579 + 937 + 373 + 2223 + 21)
        #expect(entities.first?.slug == "bulbasaur" && entities.last?.kind == .type)
        let names = try store.readFoldedNames()
        #expect(names.contains { $0.raw == "Mr. Mime" && $0.folded == "mr mime" && $0.compact == "mrmime" })
        #expect(names.contains { $0.raw == "ピカチュウ" && $0.translit == "pikachuu" })
    }

    @Test func fullTextTablesHoldFoldedText() throws {
        let store = try Store(path: Fixture.database, readOnly: true)
        let pikachu = try #require(Fixture.engine.index.doc(kind: .pokemon, slug: "pikachu"))
        #expect(try store.fullTextNameMatches("kachu").contains(pikachu))
        #expect(try store.fullTextNameMatches("ピカチ").contains(pikachu))
        #expect(try store.fullTextFieldMatches("electr").contains(pikachu))
        // Bound parameters: FTS syntax in the text is searched for, not interpreted.
        #expect(try store.fullTextNameMatches("\" OR \"").isEmpty)
    }

    @Test func favouritesAndHistory() throws {
        let store = try Store(path: Fixture.copyOfDatabase("favourites"))
        try store.addFavourite(kind: .pokemon, slug: "pikachu")
        try store.addFavourite(kind: .move, slug: "thunderbolt")
        try store.addFavourite(kind: .pokemon, slug: "pikachu")
        #expect(try store.favourites().map(\.slug) == ["pikachu", "thunderbolt"])
        #expect(try store.removeFavourite(kind: .move, slug: "thunderbolt"))
        #expect(try !store.removeFavourite(kind: .move, slug: "thunderbolt"))
        for i in 0..<60 { try store.recordHistory("query \(i)") }
        try store.recordHistory("query 3")
        let history = try store.history()
        #expect(history.count == Store.historyLimit)
        #expect(history.first == "query 3" && history[1] == "query 59")
        try store.clearHistory()
        #expect(try store.history().isEmpty)
    }

    @Test func sqliteErrorsCarryTheSQLAndCode() throws {
        let store = try Store(path: Fixture.database, readOnly: true)
        do {
            _ = try store.database.rows("SELECT nope FROM entity")
            Issue.record("bad SQL was accepted")
        } catch let error as SQLiteError {
            #expect(error.sql == "SELECT nope FROM entity")
            #expect(error.primaryCode == 1)
            #expect(error.description.contains("no such column: nope"))
        }
    }

    @Test func refusesDatabasesItCannotUse() throws {
        let directory = Fixture.temporaryDirectory("refuse")
        let other = directory + "/other.sqlite"
        let db = try Database(path: other, mode: .create)
        try db.execute("CREATE TABLE t (x)")
        #expect { try Store(path: other) } throws: { ($0 as? StoreError)?.description.contains("not a pokesearch one") == true }
        let newer = Fixture.copyOfDatabase("newer")
        try Store(path: newer).setMeta("schema_version", "99")
        #expect { try Store(path: newer) } throws: { ($0 as? StoreError)?.description.contains("schema version 99") == true }
        let garbage = directory + "/garbage.sqlite"
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: garbage))
        #expect { try Store(path: garbage) } throws: { error in
            guard case .corrupt = error as? StoreError else { return false }
            return true
        }
    }

    @Test func reingestKeepsFavouritesAndHistory() throws {
        let path = Fixture.copyOfDatabase("reingest")
        try Store(path: path).addFavourite(kind: .pokemon, slug: "eevee")
        try Store(path: path).recordHistory("fire dragon")
        // (The small corpus: what is ingested does not matter here, only what is carried.)
        let report = try Ingest.run(tables: PokeAPIFixture.shared.subset, source: "test", databasePath: path)
        #expect(report.carriedFavourites == 1)
        let store = try Store(path: path)
        #expect(try store.favourites().map(\.slug) == ["eevee"])
        #expect(try store.history() == ["fire dragon"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(!leftovers.contains { $0.contains(".ingest-") })
    }
}

extension Fixture {
    /// Turns a database made by this pokesearch into one of schema 1, as the first release
    /// made it: without the synonym tables (schema 2) and the Pokédex page's columns and
    /// tables (schema 3), its documents of version 3.
    static func downgradeToSchemaOne(_ store: Store) throws {
        let added = ["pokemon": ["generation", "base_experience", "ev_yield"],
                     "species": ["base_friendship", "hatch_counter", "growth_rate", "egg_groups", "dex_numbers"],
                     "moves": ["target", "effect", "effect_chance", "category", "ailment", "ailment_chance", "flinch_chance", "crit_rate",
                               "drain", "healing", "stat_chance", "stat_changes", "min_hits", "max_hits", "min_turns", "max_turns", "flags"],
                     "items": ["fling_effect", "flags"]]
        var sql = """
            DROP TABLE prose_fts; DROP TABLE machines; DROP TABLE prose; DROP INDEX IF EXISTS moves_slug;
            DROP TABLE user_synonym; DROP TABLE synonyms; DROP TABLE form_names;

            """
        for (table, columns) in added { for column in columns { sql += "ALTER TABLE \(table) DROP COLUMN \"\(column)\";\n" } }
        sql += """
            UPDATE meta SET value = '1' WHERE key = 'schema_version';
            UPDATE meta SET value = '3' WHERE key = 'documents_version';
            """
        try store.database.execute(sql)
    }
}
