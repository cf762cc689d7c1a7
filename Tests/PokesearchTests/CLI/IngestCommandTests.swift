import Catalog
import Corpus
import Foundation
import Query
import Store
import Testing

@Suite("Ingest from the command line")
struct IngestCommandTests {
    /// (The first command is the one that made the tests' shared database: an ingest of the
    /// whole corpus the run makes once.)
    @Test func firstCommandIngestsTheBundledCorpusByItself() throws {
        let (path, run) = Fixture.firstCommand
        #expect(run.status == 0)
        #expect(run.messages.count == 1 && run.stderr.contains("building it from the bundled corpus"))
        #expect(run.lines.first?.contains("Pikachu") == true)
        let again = try pokesearch(["pikachu", "--db", path])
        #expect(again.messages.isEmpty && again.status == 0)
    }

    /// A database whose documents an older pokesearch made (no species flags among its
    /// field words, its index from another format) is rebuilt from its own corpus tables
    /// when first opened, saying so once, its favourites kept: "baby electric" finds Pichu
    /// instead of nothing. (A database of the small corpus: a rebuild is most of an ingest.)
    @Test func olderDocumentsAreRebuiltOnOpen() throws {
        let path = Fixture.copyOfDatabase("older-documents", from: Fixture.smallDatabase)
        do {
            let store = try Store(path: path)
            try store.database.execute("""
                DELETE FROM meta WHERE key = 'documents_version';
                UPDATE field_fts SET text = replace(replace(replace(text, ' legendary', ''), ' mythical', ''), ' baby', '');
                DELETE FROM index_snapshot;
                INSERT INTO favourite (kind, slug, added_at) VALUES ('pokemon', 'pikachu', 0);
                """)
        }
        let run = try pokesearch(["baby", "electric", "--limit", "50", "--db", path])
        #expect(run.stderr.contains("made by an older pokesearch") && run.messages.count == 1, "\(run.stderr)")
        #expect(run.status == 0 && run.lines.contains { $0.contains("Pichu") }, "\(run.lines)")
        let again = try pokesearch(["baby", "electric", "--limit", "50", "--db", path])
        #expect(again.messages.isEmpty && again.stdout == run.stdout)
        #expect(try pokesearch(["fav", "--db", path]).stdout.contains("Pikachu"))
        #expect(try Store(path: path, readOnly: true).meta("documents_version") == String(Documents.version))
    }

    /// A database of schema 1 (what pokesearch made before synonyms and the Pokédex page's
    /// tables) opens, migrates to schema 4 and is rebuilt from its own tables, favourites and
    /// history kept. (A database of the small corpus: a rebuild is most of an ingest.)
    @Test func schemaOneDatabaseMigrates() throws {
        let path = try Fixture.olderDatabase("schema-one", Fixture.downgradeToSchemaOne, userData: """
            INSERT INTO favourite (kind, slug, added_at) VALUES ('pokemon', 'pikachu', 0);
            INSERT INTO history (query, searched_at) VALUES ('old query', 0);
            """, from: Fixture.smallDatabase)
        let run = try pokesearch(["show", "pikachu", "--db", path])
        #expect(run.status == 0 && run.stdout.hasPrefix("#25 Pikachu"), "\(run.stderr)")
        let store = try Store(path: path, readOnly: true)
        #expect(store.meta("schema_version") == "4")
        #expect(try store.favourites().map(\.slug) == ["pikachu"])
        #expect(try store.history().contains("old query"))
        // Its corpus tables had no prose: `text:` finds nothing (exit 1), and is no error.
        let text = try pokesearch(["text:paralyze", "--db", path])
        #expect(text.status == 1 && !text.stderr.contains("error"), "\(text.stderr)")
        // A new ingest fills them.
        #expect(try pokesearch(["ingest", "--quiet", "--db", path], environment: Fixture.smallCorpusEnvironment).status == 0)
        #expect(try pokesearch(["text:paralyze", "--db", path]).status == 0)
        #expect(try Store(path: path, readOnly: true).favourites().map(\.slug) == ["pikachu"])
    }

    @Test func defaultPathFollowsTheEnvironment() throws {
        let home = Fixture.temporaryDirectory("xdg")
        let run = try pokesearch(["pikachu"], environment: ["XDG_DATA_HOME": home + "/data", "HOME": home].merging(Fixture.smallCorpusEnvironment) { $1 })
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/data/pokesearch/pokesearch.sqlite"))
        let byVariable = home + "/explicit.sqlite"
        #expect(try pokesearch(["pikachu"], environment: ["POKESEARCH_DB": byVariable].merging(Fixture.smallCorpusEnvironment) { $1 }).status == 0)
        #expect(FileManager.default.fileExists(atPath: byVariable))
    }

    @Test func corruptDatabaseExitsThreeWithOneClearLine() throws {
        let path = Fixture.temporaryDirectory("corrupt") + "/pokesearch.sqlite"
        // A SQLite header, then garbage (a file without the header is not pokesearch's:
        // StorageFaultTests.somethingElseAtTheDatabasePathIsLeftAlone).
        try Data(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0x13, count: 65536)).write(to: URL(fileURLWithPath: path))
        let run = try pokesearch(["pikachu", "--db", path])
        #expect(run.status == 3)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("is damaged") && run.stderr.contains("pokesearch ingest"))
        // ingest rebuilds it, keeping the damaged file aside rather than deleting it.
        let ingest = try pokesearch(["ingest", "--db", path], environment: Fixture.smallCorpusEnvironment)
        #expect(ingest.status == 0)
        #expect(try pokesearch(["pikachu", "--db", path]).status == 0)
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.contains(".damaged-") })
    }

    /// SIGKILL an ingest at several instants: the previous database must stay whole, with
    /// its favourite, and a reader running meanwhile never sees an error. (Each instant waits
    /// itself out with a reader and an ingest busy: outside a full run, every third one, the
    /// earliest and one in the middle of the ingest.)
    @Test(.tags(.exhaustive), arguments: Exhaustive.sample([0.05, 0.3, 0.8, 1.5, 2.5, 4.0], oneIn: 3))
    func killedIngestLeavesThePreviousDatabaseIntact(after seconds: Double) throws {
        let (path, process) = try startIngestOfAFavourite("kill")
        let deadline = Date().addingTimeInterval(seconds)
        var readerRuns = 0
        while Date() < deadline {
            let store = try Store(path: path, readOnly: true)
            let engine = SearchEngine(index: try Catalog.loadIndex(store))
            #expect(try engine.search("pikachu").results.first?.slug == "pikachu")
            readerRuns += 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(readerRuns > 0)
        let store = try Store(path: path)
        #expect(try store.favourites().map(\.slug) == ["mew"])
        let engine = SearchEngine(index: try Catalog.loadIndex(store))
        #expect(try engine.search("fire dragon").results.count >= 4)
        // The next ingest clears what the killed one left behind.
        #expect(try pokesearch(["ingest", "--db", path, "--quiet"], environment: Fixture.smallCorpusEnvironment).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(!leftovers.contains { $0.contains(".ingest-") })
    }

    /// PokeAPI's CSV directory converted and ingested by the binary: a whole conversion and
    /// ingest of the corpus, in a full run. The everyday one checks the two apart: the
    /// conversion of these tables is the bundled corpus byte for byte
    /// (CorpusTests.converterReproducesTheBundledCorpusByteForByte), whose ingest is the
    /// tests' shared database. (A clone without ../shared, a user's, skips it rather than
    /// failing it.)
    @Test(.tags(.exhaustive), .enabled(if: Exhaustive.isFull, "the CSV conversion and the ingest of its corpus are checked apart outside a full run"),
          .enabled(if: Fixture.hasSharedCSV, "../shared/pokeapi-csv is not on this machine: CSV ingest skipped"))
    func ingestFromACSVDirectory() throws {
        let path = Fixture.temporaryDirectory("csv") + "/pokesearch.sqlite"
        let run = try pokesearch(["ingest", "--csv", Fixture.sharedCSV.path, "--db", path])
        #expect(run.status == 0 && run.stdout.contains("1351 Pokémon, 228 forms"))
        // The bundled corpus is this conversion of these tables (CorpusTests.
        // converterReproducesTheBundledCorpusByteForByte): not made again here.
        #expect(SyncTests.sortedRows(try Store(path: path, readOnly: true).readCorpusTables()) == SyncTests.sortedRows(Fixture.corpusTables))
    }

    @Test func ingestFromAMissingCSVDirectoryIsAUsageError() throws {
        let path = Fixture.temporaryDirectory("csv-missing") + "/pokesearch.sqlite"
        let bad = try pokesearch(["ingest", "--csv", "/nonexistent", "--db", path])
        #expect(bad.status == 2 && bad.stderr.contains("is neither"))
        #expect(!FileManager.default.fileExists(atPath: path), "a failed ingest leaves no database behind")
    }
}
