import Catalog
import Foundation
import Sync
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a user or a server's data may not reach: SQL text, files outside the data and
/// cache directories. (The socket's mode 0600: ServerSocketFileTests.)
@Suite struct SecurityTests {
    /// SQL built from interpolated or concatenated text, allowed only here: the corpus
    /// tables' names and columns, which come from `Schema.corpusTables`, a constant, and the
    /// conditions of the detail lookups, constants of `CorpusLookup`.
    static let interpolatedSQLAllowed: Set<String> = [
        #"Store/Schema.swift: "CREATE TABLE \(table.name) (\(columns));\n""#,
        // The schema 2 migration: its added tables and columns, Schema's constants.
        #"Store/Schema.swift: "CREATE TABLE \(table.name) (\(table.columns.map { ""#,
        #"Store/Schema.swift: "ALTER TABLE \(table) ADD COLUMN \""#,
        #"Store/Store.swift: "INSERT INTO \(table.name) (\(columns)) VALUES (\(placeholders))""#,
        #"Store/Store.swift: "SELECT \(columns) FROM \(table.name) ORDER BY rowid""#,
        #"Store/Store.swift: "SELECT rowid, \(columns) FROM \(schema.name) WHERE \(lookup.condition) ORDER BY rowid""#,
    ]
    /// Calls that pass SQL on from a variable: the wrappers themselves, the private helper
    /// whose callers pass literals (checked below), and the schema's constant text.
    static let variableSQLAllowed: Set<String> = [
        "Store/SQLite.swift: prepare(sql)",
        "Store/Store.swift: prepare(sql)",
        "Store/Store.swift: execute(sql)",
        "Store/Store.swift: execute(Schema.create)",
        "Store/Store.swift: execute(index.sql)", // Schema.lookupIndexes: constants
        "Catalog/DatabaseFilterQueries.swift: rows(sql)", // MoveFilterSQL's constants
        "Catalog/DatabaseFilterQueries.swift: rows(known.sql)",
    ]

    /// Every string literal that reads as SQL, and every call that runs SQL, in Sources/.
    @Test func noSQLIsBuiltFromText() throws {
        let sources = Fixture.root.appendingPathComponent("Sources")
        let sqlLiteral = try Regex(#"("(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|REPLACE|WITH)\b[^"\n]*")"#)
        // Simple word boundaries: Unicode's (the default) join "database.execute" into one
        // word, so a call through a receiver would go unseen.
        let call = try Regex(#"\b(prepare|execute|rows|run|docs)\(([^",)][^,)]*)[,)]"#).wordBoundaryKind(.simple)
        var interpolated: [String] = [], variable: [String] = [], scanned = 0
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && !line.contains("func ") {
                for match in line.matches(of: sqlLiteral) {
                    scanned += 1
                    let literal = String(line[match.range])
                    let concatenated = line[match.range.upperBound...].trimmingCharacters(in: .whitespaces).hasPrefix("+")
                    if literal.contains(#"\("#) || concatenated { interpolated.append("\(file): \(literal)") }
                }
                for match in line.matches(of: call) where line.contains("database") || file.hasPrefix("Store/") {
                    let argument = String(line[match.range]).dropLast()
                    // A labelled argument is another function (`Ingest.run(tables:)`); Statement.run
                    // binds an array of values and takes no SQL.
                    if argument.contains(":") || argument.hasPrefix("run([") || argument.hasPrefix("run(zip") || argument.hasPrefix("run((") { continue }
                    variable.append("\(file): \(argument))")
                }
            }
        }
        #expect(scanned > 30, "the scan found only \(scanned) SQL literals: is it still reading Sources/?")
        #expect(Set(interpolated).subtracting(Self.interpolatedSQLAllowed).isEmpty, "SQL built from text: \(interpolated)")
        #expect(Set(variable).subtracting(Self.variableSQLAllowed).isEmpty, "SQL passed from a variable: \(variable)")
    }

    /// A slug that could leave the sprites directory is refused before any request or write.
    @Test(arguments: ["../../escape", "a/b", "..", "/etc/passwd", "pika chu", "Pikachu", ""])
    func spriteSlugsStayInTheCache(slug: String) throws {
        // The cache in a directory of this case's own: the system's temporary directory,
        // where it was first made, gains the other tests' directories as they run.
        let outside = Fixture.temporaryDirectory("sprite-outside")
        let cache = outside + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: outside)
        #expect(throws: SyncError.self) {
            try Sprites.fetch(slug: slug, base: "http://127.0.0.1:9", cacheDirectory: cache + "/pokesearch", force: true,
                              settings: HTTPSettings(environment: ["POKESEARCH_HTTP_ATTEMPTS": "1"]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == before)
        #expect(!FileManager.default.fileExists(atPath: cache + "/pokesearch"))
    }

    /// `sprite NAME` with a path for a name writes nowhere: the name is only searched for.
    @Test func spriteNameIsNotAPath() throws {
        let home = Fixture.temporaryDirectory("sprite-home")
        let run = try pokesearch(["sprite", "../../../../tmp/pokesearch-escape", "--db", Fixture.database,
                                  "--api", "http://127.0.0.1:9"],
                                 environment: ["XDG_CACHE_HOME": home + "/cache", "POKESEARCH_HTTP_ATTEMPTS": "1"])
        #expect(run.status != 0 && !run.signalled)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pokesearch-escape.png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).allSatisfy { $0 == "cache" })
    }

    /// The data directory ingest creates is private to the user.
    @Test func createdDataDirectoryIsPrivate() throws {
        let directory = Fixture.temporaryDirectory("data-dir") + "/nested/pokesearch"
        let run = try pokesearch(["ingest", "--db", directory + "/pokesearch.sqlite", "--quiet"], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        var status = stat()
        #expect(stat(directory, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
    }

    /// The server makes no directory for its socket: a missing one is a clear error.
    @Test func serverMakesNoSocketDirectory() throws {
        let directory = Fixture.temporaryDirectory("no-socket-dir") + "/missing"
        let run = try pokesearch(["serve", "--db", Fixture.database, "--socket", directory + "/s.sock"])
        #expect(run.status != 0 && !run.signalled)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
