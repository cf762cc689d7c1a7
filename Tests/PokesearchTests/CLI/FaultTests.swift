import Catalog
import Corpus
import Foundation
import Store
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Faults around the database and the corpus, each against the built binary: a clear
/// one-line error, a non-zero exit, and the previous database byte for byte as it was
/// (favourite included). SIGKILL during an ingest: IngestCommandTests.killedIngestLeavesThePreviousDatabaseIntact;
/// a database that is not SQLite at all: IngestCommandTests.corruptDatabaseExitsThreeWithOneClearLine.
@Suite struct FaultTests {
    /// A database with a favourite, and its bytes as they were before the fault.
    struct Previous {
        let path: String
        let contents: Data
        var directory: String { (path as NSString).deletingLastPathComponent }

        init(_ label: String, inDirectory directory: String? = nil) throws {
            if let directory {
                path = directory + "/pokesearch.sqlite"
                try FileManager.default.copyItem(atPath: Fixture.database, toPath: path)
            } else {
                path = Fixture.copyOfDatabase(label)
            }
            try Store(path: path).addFavourite(kind: .pokemon, slug: "mew")
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        }

        /// Unchanged, still searchable, its favourite kept, no half-built file left beside it.
        func expectIntact(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents, "the database changed", sourceLocation: sourceLocation)
            let search = try pokesearch(["pikachu", "--db", path, "--limit", "1"])
            #expect(search.status == 0 && search.stdout.contains("Pikachu"), "\(search.stderr)", sourceLocation: sourceLocation)
            #expect(try pokesearch(["fav", "--db", path, "--json"]).stdout.contains(#""slug":"mew""#), sourceLocation: sourceLocation)
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(!entries.contains { $0.contains(".ingest-") || $0.contains(".damaged-") }, "\(entries)", sourceLocation: sourceLocation)
        }
    }

    /// One line on stderr, exit 3, no crash.
    func expectDataError(_ run: Run, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 3 && !run.signalled, "status \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        for word in words {
            #expect(run.stderr.localizedCaseInsensitiveContains(word), "'\(word)' not in: \(run.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// RLIMIT_FSIZE (SIGXFSZ ignored, so writes fail with EFBIG as on a full disk).
    @Test func fileSizeLimitDuringIngest() throws {
        let previous = try Previous("fsize")
        let run = try pokesearch(["ingest", "--db", previous.path, "--quiet"],
                                 launcher: ["/bin/sh", "-c", #"trap '' XFSZ; ulimit -f 2048; exec "$0" "$@""#])
        expectDataError(run, mentioning: ["cannot write", "pokesearch.sqlite"])
        try previous.expectIntact()
    }

    /// A real full disk: a tmpfs just larger than the database (mounting needs root).
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDiskDuringIngest() throws {
        let mountPoint = Fixture.temporaryDirectory("tmpfs")
        let size = (try FileManager.default.attributesOfItem(atPath: Fixture.database)[.size] as? Int ?? 0) + 4 << 20
        guard try runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint]) == 0, isMountPoint(mountPoint) else {
            Issue.record("cannot mount a tmpfs at \(mountPoint)")
            return
        }
        defer { _ = try? runTool("/bin/umount", [mountPoint]) }
        let previous = try Previous("tmpfs", inDirectory: mountPoint)
        let run = try pokesearch(["ingest", "--db", previous.path, "--quiet"])
        expectDataError(run, mentioning: ["full"])
        try previous.expectIntact()
    }

    /// A read-only directory: ingest and favourites fail clearly, searching still works.
    @Test func readOnlyDatabaseDirectory() throws {
        let previous = try Previous("readonly", inDirectory: Fixture.temporaryDirectory("readonly"))
        chmod(previous.directory, 0o555)
        defer { chmod(previous.directory, 0o755) }
        // Root writes anywhere: drop that privilege so the permissions count.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search",
                                        "--inh-caps=-dac_override,-dac_read_search"] : []
        expectDataError(try pokesearch(["ingest", "--db", previous.path, "--quiet"], launcher: launcher), mentioning: ["permission denied"])
        let search = try pokesearch(["pikachu", "--db", previous.path], launcher: launcher)
        #expect(search.status == 0, "\(search.stderr)")
        let favourite = try pokesearch(["fav", "add", "eevee", "--db", previous.path], launcher: launcher)
        #expect(favourite.status == 3 && favourite.stderr.split(separator: "\n").count == 1, "\(favourite.status) \(favourite.stderr)")
        chmod(previous.directory, 0o755)
        try previous.expectIntact()
    }

    /// Another process holds the write lock (`BEGIN EXCLUSIVE`): commands wait SQLite's busy
    /// timeout, then fail clearly; the database is not mistaken for a damaged one.
    @Test func databaseLockedByAnotherWriter() async throws {
        let previous = try Previous("locked")
        let holder = try Database(path: previous.path, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        // (All three at once: each waits out the same timeout, off the test runner's threads.)
        let runs = try await offTheTestThreads {
            try pokesearchAtOnce([["ingest", "--db", previous.path, "--quiet"], ["fav", "add", "eevee", "--db", previous.path],
                                  ["pikachu", "--db", previous.path]])
        }
        for run in runs { expectDataError(run, mentioning: ["locked"]) }
        try holder.execute("ROLLBACK")
        try previous.expectIntact()
    }

    static let damagedFractions = [0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.98]
    static let commandsOnDamagedPages = [["pikachu"], ["fire", "dragon", "--limit", "50"], ["show", "25"], ["complete", "char"], ["fav", "add", "pikachu"]]

    /// A database whose pages are damaged here and there (the SQLite header intact): every
    /// command exits with a result or one error line, never a crash. (Damage in the stored
    /// index has each command rebuild it, the slow part: a database of the small corpus, and
    /// outside a full run, one command at each place, a different one at each, every command
    /// at one place at least.)
    @Test(.tags(.exhaustive), arguments: damagedFractions)
    func damagedPages(at fraction: Double) throws {
        let path = Fixture.copyOfDatabase("damaged", from: Fixture.smallDatabase)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: UInt64(Double(size) * fraction) & ~4095)
        var generator = SystemRandomNumberGenerator()
        try handle.write(contentsOf: Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        try handle.close()
        let commands = Self.commandsOnDamagedPages, place = Self.damagedFractions.firstIndex(of: fraction)!
        for arguments in Exhaustive.sample(commands.indices.map { commands[($0 + place) % commands.count] }, oneIn: commands.count) {
            let run = try pokesearch(arguments + ["--db", path])
            #expect(!run.signalled && [0, 1, 3].contains(run.status), "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count <= 1, "\(arguments): \(run.stderr)")
        }
    }

    /// POKESEARCH_CORPUS at a broken copy of the corpus: ingest names the file and keeps
    /// the previous database.
    @Test(arguments: [
        ("missing file", "names.tsv"),
        ("short row", "pokemon.tsv"),
        ("bad number", "moves.tsv"),
        ("not UTF-8", "items.tsv"),
        ("empty file", "types.tsv"),
        ("unknown language", "names.tsv"),
    ])
    func malformedCorpus(fault: String, file: String) throws {
        let previous = try Previous("corpus")
        let corpus = Fixture.temporaryDirectory("broken-corpus")
        for stem in CorpusTables.fileStems {
            try FileManager.default.copyItem(atPath: Fixture.corpusDirectory.path + "/\(stem).tsv", toPath: corpus + "/\(stem).tsv")
        }
        let url = URL(fileURLWithPath: corpus + "/" + file)
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        switch fault {
        case "missing file": try FileManager.default.removeItem(at: url)
        case "short row": lines[5] = lines[5].split(separator: "\t").dropLast().joined(separator: "\t")
        case "bad number": lines[3] = "x" + lines[3]
        case "not UTF-8": try Data(lines.joined(separator: "\n").utf8 + [0xFF, 0xFE, 0x0A]).write(to: url)
        case "empty file": try Data().write(to: url)
        default:
            var fields = lines[7].split(separator: "\t", omittingEmptySubsequences: false)
            fields[3] = "xx"
            lines[7] = fields.joined(separator: "\t")
        }
        if ["short row", "bad number", "unknown language"].contains(fault) {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        }
        let run = try pokesearch(["ingest", "--db", previous.path, "--quiet"], environment: ["POKESEARCH_CORPUS": corpus])
        expectDataError(run, mentioning: [file])
        try previous.expectIntact()
        try FileManager.default.removeItem(atPath: corpus)
    }

    /// SIGKILL the server while it rebuilds its index for RELOAD: the database is untouched
    /// (a rebuild only reads it) and the next server replaces the stale socket and serves.
    @Test(arguments: [0.0, 0.05, 0.3])
    func serverKilledDuringReload(after seconds: Double) throws {
        let previous = try Previous("reload-kill")
        let server = try RunningServer(database: previous.path)
        let client = try TestClient(path: server.socketPath)
        try client.send("RELOAD\n")
        usleep(useconds_t(seconds * 1_000_000))
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        try previous.expectIntact()
        let next = try RunningServer(database: previous.path, socketPath: server.socketPath)
        #expect(try TestClient(path: next.socketPath).request("SEARCH pikachu LIMIT(1)").contains(#""slug":"pikachu""#))
        next.stop()
    }
}

/// Whether `path` is a mount point: its device differs from its parent's.
private func isMountPoint(_ path: String) -> Bool {
    var own = stat(), parent = stat()
    return stat(path, &own) == 0 && stat((path as NSString).deletingLastPathComponent, &parent) == 0 && own.st_dev != parent.st_dev
}

/// Runs a system tool to completion; its exit status.
private func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
