import Catalog
import Foundation
import Store
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What `ingest` and every other command do with what sits at the database path: a hot
/// journal is rolled back (never separated from its database), only a pokesearch database
/// that could be read is replaced, a link is written through, the mode is kept.
@Suite struct StorageFaultTests {
    /// Root reads and writes anything: this drops that privilege so permissions count.
    static let unprivileged = getuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search",
                                               "--inh-caps=-dac_override,-dac_read_search"] : []
    /// Every run is stopped after this long: a command that hangs fails instead of hanging the suite.
    static let bounded = ["/usr/bin/timeout", "60"]

    /// A database caught in the middle of a write, as a process killed inside its transaction
    /// leaves it: the committed favourite `mew`, then a transaction that deleted it and
    /// rewrote enough pages to spill into the database file, its rollback journal beside it.
    static func interruptedWrite(_ label: String) throws -> String {
        let live = Fixture.copyOfDatabase(label + "-live")
        try Store(path: live).addFavourite(kind: .pokemon, slug: "mew")
        let crashed = Fixture.temporaryDirectory(label) + "/pokesearch.sqlite"
        let writer = try Database(path: live, mode: .readWrite)
        try writer.execute("PRAGMA cache_size = 8")
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("DELETE FROM favourite; UPDATE names SET name = name || ' (rewritten)'; DELETE FROM folded_name")
        // The copies are what the disk holds at this instant: the state a SIGKILL leaves.
        try FileManager.default.copyItem(atPath: live, toPath: crashed)
        try FileManager.default.copyItem(atPath: live + "-journal", toPath: crashed + "-journal")
        try writer.execute("ROLLBACK")
        return crashed
    }

    static func expectSoundWithItsFavourite(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"), "the journal is still there", sourceLocation: sourceLocation)
        let store = try Store(path: path, readOnly: true)
        #expect(try store.database.rows("PRAGMA integrity_check").first?.first?.textValue == "ok", sourceLocation: sourceLocation)
        #expect(try store.favourites().map(\.slug) == ["mew"], sourceLocation: sourceLocation)
        let search = try pokesearch(["pikachu", "--db", path, "--limit", "1"])
        #expect(search.status == 0 && search.stdout.contains("Pikachu"), "\(search.stderr)", sourceLocation: sourceLocation)
        let entries = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(!entries.contains { $0.contains(".damaged-") || $0.contains(".ingest-") }, "\(entries)", sourceLocation: sourceLocation)
    }

    @Test func theInterruptedWriteIsAHotJournal() throws {
        let path = try Self.interruptedWrite("hot-state")
        #expect { try Store(path: path, readOnly: true) } throws: { error in
            guard case .hotJournal = error as? StoreError else { return false }
            return true
        }
    }

    /// Ingest rolls the journal back (opening the old database writable) and carries the
    /// favourite the rolled-back transaction had deleted; nothing is set aside as damaged.
    @Test func ingestRollsAHotJournalBackAndKeepsTheFavourites() throws {
        let path = try Self.interruptedWrite("hot-ingest")
        let run = try pokesearch(["ingest", "--db", path, "--quiet"], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.status) \(run.stderr)")
        try Self.expectSoundWithItsFavourite(path)
    }

    /// Any command that may write the file rolls the journal back on open.
    @Test func aSearchRollsAHotJournalBack() throws {
        let path = try Self.interruptedWrite("hot-search")
        let run = try pokesearch(["fav", "--db", path, "--json"])
        #expect(run.status == 0 && run.stdout.contains(#""slug":"mew""#), "\(run.status) \(run.stderr)")
        try Self.expectSoundWithItsFavourite(path)
    }

    /// A user who cannot write the database file cannot roll its journal back: one line saying
    /// so, the files untouched.
    @Test func aHotJournalThatCannotBeRolledBackIsReported() throws {
        let path = try Self.interruptedWrite("hot-readonly")
        chmod(path, 0o444)
        for arguments in [["pikachu"], ["ingest", "--quiet"]] {
            let run = try pokesearch(arguments + ["--db", path], launcher: Self.unprivileged)
            #expect(run.status == 3 && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("interrupted write"), "\(run.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
        chmod(path, 0o644)
        #expect(try pokesearch(["fav", "--db", path]).status == 0)
        try Self.expectSoundWithItsFavourite(path)
    }

    enum Occupant: String, CaseIterable, Sendable {
        case directory, fifo, device, unreadable, newerSchema, otherSQLite, notSQLite

        /// Words the refusal must hold.
        var words: [String] {
            switch self {
            case .directory: return ["is a directory", "choose another --db"]
            case .fifo: return ["named pipe"]
            case .device: return ["is a device"]
            case .unreadable: return ["cannot read", "Permission denied"]
            case .newerSchema: return ["schema version 99", "upgrade pokesearch"]
            case .otherSQLite: return ["not a pokesearch one"]
            case .notSQLite: return ["not a SQLite database", "move it away"]
            }
        }

        /// Puts the occupant at `path`; false when this machine cannot make it.
        func make(at path: String) throws -> Bool {
            switch self {
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt"))
            case .fifo: return mkfifo(path, 0o644) == 0
            // Major 1, minor 3: what /dev/null is.
            case .device: return mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0
            case .unreadable:
                try FileManager.default.copyItem(atPath: Fixture.database, toPath: path)
                try Store(path: path).addFavourite(kind: .pokemon, slug: "mew")
                chmod(path, 0o000)
            case .newerSchema:
                try FileManager.default.copyItem(atPath: Fixture.database, toPath: path)
                try Store(path: path).setMeta("schema_version", "99")
            case .otherSQLite:
                try Database(path: path, mode: .create).execute("CREATE TABLE notes (text)")
            case .notSQLite:
                try Data("my thesis, chapter one\n".utf8).write(to: URL(fileURLWithPath: path))
            }
            return true
        }
    }

    /// Ingest, search and `fav add` leave what is not a pokesearch database they could
    /// read where it is, as it was, and say what it is in one line (exit 3), never hanging.
    @Test(arguments: Occupant.allCases)
    func somethingElseAtTheDatabasePathIsLeftAlone(_ occupant: Occupant) throws {
        let directory = Fixture.temporaryDirectory("occupied-\(occupant.rawValue)")
        let path = directory + "/pokesearch.sqlite"
        guard try occupant.make(at: path) else {
            #expect(occupant == .device, "cannot make a \(occupant) here")
            return
        }
        defer { chmod(path, 0o644) }
        var before = stat()
        #expect(lstat(path, &before) == 0)
        let contents = occupant == .directory || occupant == .fifo || occupant == .device ? nil : FileManager.default.contents(atPath: path)
        for arguments in [["ingest", "--quiet"], ["pikachu"], ["fav", "add", "eevee"]] {
            let run = try pokesearch(arguments + ["--db", path], launcher: Self.bounded + Self.unprivileged)
            #expect(run.status == 3 && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.status) \(run.stderr)")
            for word in occupant.words {
                #expect(run.stderr.contains(word), "\(arguments): '\(word)' not in \(run.stderr)")
            }
        }
        var after = stat()
        #expect(lstat(path, &after) == 0 && after.st_ino == before.st_ino && after.st_mode == before.st_mode)
        if occupant == .unreadable { chmod(path, 0o644) }
        #expect(FileManager.default.contents(atPath: path) == contents || contents == nil)
        if occupant == .directory { #expect(FileManager.default.fileExists(atPath: path + "/notes.txt")) }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(entries).isSubset(of: ["pokesearch.sqlite", "pokesearch.sqlite.lock", "pokesearch.sqlite.ingest.lock"]), "\(entries)")
    }

    /// A zero-byte file (what `touch` makes) holds nothing: it is treated as no database,
    /// replaced by one, its mode kept.
    @Test func aZeroByteFileIsReplacedKeepingItsMode() throws {
        let path = Fixture.temporaryDirectory("empty") + "/pokesearch.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        let run = try pokesearch(["ingest", "--db", path, "--quiet"], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try pokesearch(["pikachu", "--db", path]).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
    }

    /// Ingest through a link writes the link's target (the link stays a link) and keeps the
    /// target's mode; favourites added through the link are the target's.
    @Test func aSymlinkedDatabaseIsWrittenThroughAndItsModeKept() throws {
        let directory = Fixture.temporaryDirectory("symlink")
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: false)
        let target = directory + "/data/real.sqlite", link = directory + "/pokesearch.sqlite"
        try FileManager.default.copyItem(atPath: Fixture.database, toPath: target)
        try Store(path: target).addFavourite(kind: .pokemon, slug: "mew")
        chmod(target, 0o604)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/real.sqlite")
        let run = try pokesearch(["ingest", "--db", link, "--quiet"], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "data/real.sqlite")
        #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o604)
        #expect(try pokesearch(["fav", "add", "pikachu", "--db", link]).status == 0)
        #expect(try Store(path: target, readOnly: true).favourites().map(\.slug) == ["mew", "pikachu"])
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(entries.sorted() == ["data", "pokesearch.sqlite"], "\(entries)")
    }

    /// A damaged SQLite database is set aside (kept) and rebuilt, and no file SQLite keeps
    /// beside a database (here a write-ahead log) stays behind to be read with the new one.
    @Test func aDamagedDatabaseIsSetAsideAndNothingOfItsStaysBeside() throws {
        let directory = Fixture.temporaryDirectory("damaged-companion")
        let path = directory + "/pokesearch.sqlite"
        try Data(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0x13, count: 65536)).write(to: URL(fileURLWithPath: path))
        try Data(repeating: 0x21, count: 4096).write(to: URL(fileURLWithPath: path + "-wal"))
        let run = try pokesearch(["ingest", "--db", path, "--quiet"], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0 && run.stderr.contains("kept it as"), "\(run.status) \(run.stderr)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(entries.contains { $0.hasPrefix("pokesearch.sqlite.damaged-") }, "\(entries)")
        #expect(!entries.contains("pokesearch.sqlite-wal") && !entries.contains("pokesearch.sqlite-journal"), "\(entries)")
        #expect(try Store(path: path, readOnly: true).database.rows("PRAGMA integrity_check").first?.first?.textValue == "ok")
        #expect(try pokesearch(["pikachu", "--db", path]).status == 0)
    }

    /// A favourite and a search's history written while an ingest builds its database end
    /// up in the database it swaps in, neither refused nor lost.
    @Test func writesDuringAnIngestAreKept() throws {
        let (path, process) = try startIngestOfAFavourite("write-during-ingest")
        let building = path + ".ingest-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: building) && process.isRunning && Date() < deadline { usleep(5_000) }
        let favourite = try pokesearch(["fav", "add", "eevee", "--db", path])
        #expect(favourite.status == 0 && favourite.stderr.isEmpty, "\(favourite.status) \(favourite.stderr)")
        let search = try pokesearch(["pikachu", "--db", path, "--limit", "1"], environment: ["POKESEARCH_NO_HISTORY": ""])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(FileManager.default.fileExists(atPath: building), "the ingest was over before the writes: nothing tested")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let store = try Store(path: path, readOnly: true)
        #expect(try store.favourites().map(\.slug) == ["mew", "eevee"])
        #expect(try store.history() == ["pikachu"])
    }

    /// A sync's fresh responses (written by `carry` while the new database is built) are not
    /// replaced by the previous database's cached ones when its user data is copied at the swap.
    @Test func aSyncsFreshResponsesOutliveThePreviousCache() throws {
        let path = Fixture.copyOfDatabase("fresh-cache")
        let url = "https://pokeapi.example/api/v2/pokemon/25/"
        try Store(path: path).storeResponse(CachedResponse(url: url, etag: "\"old\"", lastModified: nil, body: Array("old".utf8), fetchedAt: 1))
        // (The small corpus: what is ingested does not matter here, only what is carried.)
        _ = try Ingest.run(tables: PokeAPIFixture.shared.subset, source: "test", databasePath: path, carry: { store in
            try store.storeResponse(CachedResponse(url: url, etag: "\"new\"", lastModified: nil, body: Array("new".utf8), fetchedAt: 2))
        })
        let cached = try Store(path: path, readOnly: true).cachedResponse(url: url)
        #expect(cached?.etag == "\"new\"" && cached?.body == Array("new".utf8))
    }

    /// A writer lock held elsewhere holds `fav add` up only a moment: then one line, exit 3.
    @Test func aHeldWriterLockHoldsAFavouriteUpOnlyAMoment() async throws {
        let path = Fixture.copyOfDatabase("writer-held")
        // (The moment waited out off the test runner's threads, and timed there.)
        let (run, heldUp) = try await offTheTestThreads {
            let started = Date()
            let run = try WriterLock.withLock(databasePath: path, waitingAtMost: 0) {
                try pokesearch(["fav", "add", "eevee", "--db", path])
            }
            return (run, Date().timeIntervalSince(started))
        }
        #expect(run.status == 3 && run.stderr.contains("being written by another pokesearch"), "\(run.status) \(run.stderr)")
        #expect(heldUp < WriterLock.userWait + 20)
        #expect(try pokesearch(["fav", "add", "eevee", "--db", path]).status == 0)
    }
}

/// A copy of the test database with the favourite `mew`, and an `ingest` of it by the built
/// binary, started (its output discarded).
func startIngestOfAFavourite(_ label: String) throws -> (path: String, process: Process) {
    let path = Fixture.copyOfDatabase(label)
    try Store(path: path).addFavourite(kind: .pokemon, slug: "mew")
    let process = Process()
    process.executableURL = Fixture.binary
    process.arguments = ["ingest", "--db", path, "--quiet"]
    process.environment = Fixture.sanitizerEnvironment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (path, process)
}
