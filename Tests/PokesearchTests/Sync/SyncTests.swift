import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
@testable import Sprite
import Store
@testable import Sync
import Testing

/// The live-API sync, end to end: the built binary against a local PokeAPI-shaped server.
/// (Build first: `swift build`, then `swift test --filter Sync`.)
@Suite struct SyncTests {
    static let checkout = Fixture.root
    static let binary = Fixture.binary.path

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A temporary directory with a server serving the fixture, and the binary's environment.
    final class Sandbox {
        let directory: URL
        let server: TestHTTPServer
        var database: String { directory.appendingPathComponent("db.sqlite").path }
        var api: String { server.origin + "/api/v2" }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pokesearch-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            server = try TestHTTPServer()
            PokeAPIFixture.shared.serve(on: server)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: SyncTests.binary)
            process.arguments = arguments + ["--db", database]
            var environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                               "POKESEARCH_NO_HISTORY": "1", "POKESEARCH_HTTP_TIMEOUT": "2", "POKESEARCH_HTTP_ATTEMPTS": "3",
                               "POKESEARCH_HTTP_BACKOFF": "0.05", "POKESEARCH_CORPUS": PokeAPIFixture.corpusDirectory.path]
            environment.merge(Fixture.sanitizerEnvironment) { _, new in new }
            environment.merge(extra) { _, new in new }
            process.environment = environment
            let (status, stdout, stderr) = try runDrainingOutput(process)
            return Run(status: status, stdout: stdout, stderr: stderr)
        }

        /// A previous database built from the subset, with a favourite: a copy of the one
        /// ingested for the whole run (`Fixture.smallDatabase`).
        func makePreviousDatabase() throws {
            try FileManager.default.copyItem(atPath: Fixture.smallDatabase, toPath: database)
            try Store(path: database).addFavourite(kind: .pokemon, slug: "pikachu")
        }

        func databaseBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: database)) }
    }

    /// The rows of the PokeAPI tables (not the synonyms and form names an ingest adds from the
    /// bundled corpus), sorted.
    static func sortedRows(_ tables: CorpusTables) -> [String: [[String]]] {
        tables.tables.filter { CorpusTables.fileStems.contains($0.key) }.mapValues { $0.rows.sorted { $0.lexicographicallyPrecedes($1) } }
    }

    @Test func fullCrawlBuildsTheSameDatabaseAsTheCSVPath() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(["ingest", "--api", sandbox.api])
        #expect(run.status == 0, "\(run.stderr)")
        let synced = try Store(path: sandbox.database, readOnly: true)
        let expected = PokeAPIFixture.shared.subset
        let actual = try synced.readCorpusTables()
        for stem in CorpusTables.fileStems {
            #expect(actual.tables[stem]?.columns == expected.tables[stem]?.columns, "\(stem) columns")
            let want = Self.sortedRows(expected)[stem] ?? [], got = Self.sortedRows(actual)[stem] ?? []
            #expect(got == want, "\(stem): \(got.count) rows vs \(want.count); first difference: \(zip(got, want).first { $0 != $1 }.map { "\($0) ≠ \($1)" } ?? "-")")
        }
        // The CSV path's database over the same subset has the same entities.
        let csvPath = sandbox.directory.appendingPathComponent("csv.sqlite").path
        _ = try Ingest.run(tables: expected, source: "subset", databasePath: csvPath)
        #expect(try synced.readEntities() == (try Store(path: csvPath, readOnly: true).readEntities()))
        #expect(try Corpus(tables: actual).pokemon.count == Corpus(tables: expected).pokemon.count)
        // Honest User-Agent, responses cached in the database, the side file gone.
        #expect(sandbox.server.log.allSatisfy { $0.userAgent.hasPrefix("pokesearch/0.1") })
        #expect(try synced.cachedResponseCount() == Set(sandbox.server.log.map { $0.path + "?" + $0.query }).count)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database + ".sync"))
        #expect(run.stderr.contains("requests"), "a progress line on a non-terminal stderr")
        #expect(run.stdout.contains("\(sandbox.server.log.count) downloaded"))
    }

    @Test func secondCrawlSendsConditionalRequestsAndTransfersAlmostNothing() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["ingest", "--api", sandbox.api, "--quiet"]).status == 0)
        let entities = try Store(path: sandbox.database, readOnly: true).readEntities()
        let firstBytes = sandbox.server.log.reduce(0) { $0 + $1.bodyBytes }
        sandbox.server.clearLog()
        let second = try sandbox.run(["ingest", "--api", sandbox.api])
        #expect(second.status == 0, "\(second.stderr)")
        let log = sandbox.server.log
        #expect(!log.isEmpty && log.allSatisfy { $0.conditional && $0.status == 304 })
        #expect(log.reduce(0) { $0 + $1.bodyBytes } == 0 && firstBytes > 100_000)
        #expect(second.stdout.contains("0 downloaded") && second.stdout.contains("\(log.count) not modified"))
        #expect(try Store(path: sandbox.database, readOnly: true).readEntities() == entities)
    }

    @Test func interruptedCrawlResumesWhereItStopped() throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let before = try sandbox.databaseBytes()
        // Abilities come after Pokémon, forms, species, moves and items: stop there.
        sandbox.server.inject(.status(404)) { $0 == "/api/v2/ability/65/" }
        let first = try sandbox.run(["ingest", "--api", sandbox.api, "--quiet"])
        #expect(first.status == 3)
        #expect(first.stderr.contains("/api/v2/ability/65/"))
        #expect(try sandbox.databaseBytes() == before)
        let fetched = Set(sandbox.server.log.filter { $0.status == 200 }.map(\.path))
        let fetchedURLs = Set(sandbox.server.log.filter { $0.status == 200 }.map { $0.path + "?" + $0.query }).count
        #expect(fetched.contains { $0.hasPrefix("/api/v2/pokemon/") } && fetched.contains { $0.hasPrefix("/api/v2/item/") })

        sandbox.server.clearFaults()
        sandbox.server.clearLog()
        let second = try sandbox.run(["ingest", "--api", sandbox.api])
        #expect(second.status == 0, "\(second.stderr)")
        let asked = Set(sandbox.server.log.map(\.path))
        #expect(asked.isDisjoint(with: fetched.subtracting(["/api/v2/ability/65/"])), "nothing fetched before is asked again")
        #expect(asked.contains("/api/v2/ability/65/"))
        #expect(second.stdout.contains("\(fetchedURLs) reused from an interrupted sync"), "\(second.stdout)")
        let store = try Store(path: sandbox.database, readOnly: true)
        #expect(try store.favourites().map(\.slug) == ["pikachu"])
        let actual = Self.sortedRows(try store.readCorpusTables()), expected = Self.sortedRows(PokeAPIFixture.shared.subset)
        for stem in CorpusTables.fileStems { #expect((actual[stem] ?? []) == (expected[stem] ?? []), "\(stem)") }
    }

    @Test func retriesRecoverFromTransientErrors() async throws {
        let sandbox = try Sandbox()
        sandbox.server.inject(.status(500), times: 2) { $0 == "/api/v2/pokemon/1/" }
        sandbox.server.inject(.status(503), times: 1) { $0 == "/api/v2/move/" }
        sandbox.server.inject(.tooManyRequests(retryAfter: 1), times: 1) { $0 == "/api/v2/type/10/" }
        sandbox.server.inject(.truncate, times: 1) { $0 == "/api/v2/item/2/" }
        // (Retry-After waited out off the test runner's threads, and timed there.)
        let (run, took) = try await offTheTestThreads {
            let started = Date()
            let run = try sandbox.run(["ingest", "--api", sandbox.api], environment: ["POKESEARCH_HTTP_ATTEMPTS": "4"])
            return (run, Date().timeIntervalSince(started))
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" 5 retries"), "\(run.stdout)")
        #expect(took >= 1, "Retry-After: 1 was honoured")
        let statuses = sandbox.server.log.filter { $0.path == "/api/v2/pokemon/1/" }.map(\.status)
        #expect(statuses == [500, 500, 200])
    }

    enum Failure: String, CaseIterable, Sendable {
        case notFound, serverErrorStorm, truncated, notJSON, stall, unreachable, unresolvable
    }

    @Test(arguments: Failure.allCases)
    func failureEndsInOneLineAndKeepsThePreviousDatabase(_ failure: Failure) async throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let before = try sandbox.databaseBytes()
        var api = sandbox.api
        var environment: [String: String] = [:]
        let expected: String
        switch failure {
        case .notFound:
            sandbox.server.inject(.status(404)) { $0 == "/api/v2/pokemon/25/" }
            expected = "\(sandbox.api)/pokemon/25/: not found (HTTP 404)"
        case .serverErrorStorm:
            sandbox.server.inject(.status(500)) { _ in true }
            expected = "server error (HTTP 500) (after 3 attempts)"
        case .truncated:
            sandbox.server.inject(.truncate) { $0 == "/api/v2/pokemon-species/4/" }
            expected = "\(sandbox.api)/pokemon-species/4/: transfer closed with"
        case .notJSON:
            sandbox.server.inject(.garbage) { $0 == "/api/v2/move/7/" }
            expected = "\(sandbox.api)/move/7/: the response is not valid JSON"
        case .stall:
            sandbox.server.inject(.stall) { $0 == "/api/v2/type/" }
            // Each of the three attempts waits the timeout out: a second, not the sandbox's two.
            environment["POKESEARCH_HTTP_TIMEOUT"] = "1"
            expected = "/api/v2/type/?offset=0&limit=100: Operation timed out"
        case .unreachable:
            let closed = try TestHTTPServer()
            closed.stop()
            api = closed.origin + "/api/v2"
            expected = "Failed to connect to 127.0.0.1 port \(closed.port)"
        case .unresolvable:
            // A 70-character label is too long for DNS: the resolver fails without asking anyone.
            api = "http://" + String(repeating: "a", count: 70) + ".invalid/api/v2"
            expected = "Could not resolve host"
        }
        // (Timeouts and retries waited out off the test runner's threads.)
        let run = try await offTheTestThreads { [api, environment] in try sandbox.run(["ingest", "--api", api, "--quiet"], environment: environment) }
        #expect(run.status == 3)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("pokesearch: ") && lines[0].contains(expected), "\(run.stderr)")
        #expect(lines.first?.contains(api) == true, "the line names the URL")
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test func spriteIsDownloadedOnceAndReused() throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)
        sandbox.server.route("/sprites/25.png") { _ in TestHTTPServer.Response(status: 200, body: png, contentType: "image/png") }
        sandbox.server.route("/sprites/1.png") { _ in TestHTTPServer.Response(status: 200, body: Array("<html>".utf8), contentType: "text/html") }
        let expectedPath = sandbox.directory.appendingPathComponent("cache/pokesearch/sprites/pikachu.png").path

        let first = try sandbox.run(["sprite", "pikachu", "--api", sandbox.api])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == expectedPath + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: expectedPath)) == Data(png))
        let requests = sandbox.server.log.count
        #expect(requests == 2)

        let byName = try sandbox.run(["sprite", "Pikachu", "--api", sandbox.api])
        #expect(byName.stdout == expectedPath + "\n" && sandbox.server.log.count == requests, "cached: no request")
        let forced = try sandbox.run(["sprite", "pikachu", "--force", "--api", sandbox.api])
        #expect(forced.status == 0 && sandbox.server.log.count == requests + 2)
        // `show` names the cached sprite; a Pokémon without one shows none.
        let page = try sandbox.run(["show", "pikachu"], environment: ["COLUMNS": "400"]).stdout
        #expect(page.split(separator: "\n").contains { $0.hasPrefix("Sprite ") && $0.hasSuffix(" " + expectedPath) })
        let raichu = try sandbox.run(["show", "raichu"])
        #expect(raichu.status == 0 && !raichu.stdout.contains("Sprite"))

        let notPNG = try sandbox.run(["sprite", "bulbasaur", "--api", sandbox.api])
        #expect(notPNG.status == 3 && notPNG.stderr.contains("cannot download the sprite of bulbasaur: not a PNG image") && notPNG.stderr.contains("/sprites/1.png"), "\(notPNG.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("cache/pokesearch/sprites/bulbasaur.png").path))
    }

    @Test func csvOverHTTPFailsCleanlyWhenATableIsMissing() throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let before = try sandbox.databaseBytes()
        let run = try sandbox.run(["ingest", "--csv", sandbox.server.origin + "/csv", "--quiet"])
        #expect(run.status == 3)
        #expect(run.stderr.contains(sandbox.server.origin + "/csv/") && run.stderr.contains(".csv: not found (HTTP 404)"), "\(run.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }

    /// `ingest --csv URL` downloads every table the converter reads, each as served, into
    /// the directory it then converts as a local one (IngestCommandTests.ingestFromACSVDirectory;
    /// the two end to end over the real tables: csvOverHTTPConvertsLikeALocalDirectory).
    @Test func csvOverHTTPDownloadsEveryTableAsServed() throws {
        let sandbox = try Sandbox()
        for table in Converter.csvFiles {
            sandbox.server.route("/csv/\(table).csv") { _ in
                TestHTTPServer.Response(status: 200, body: Array("id,table\n1,\(table)\n".utf8), contentType: "text/csv")
            }
        }
        let directory = try CSVDownload.download(base: sandbox.server.origin + "/csv/", settings: HTTPSettings(environment: ["POKESEARCH_HTTP_TIMEOUT": "2"]),
                                                 progress: ProgressMeter(style: .silent, label: "CSV tables"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(files) == Set(Converter.csvFiles.map { "\($0).csv" }))
        for table in Converter.csvFiles {
            #expect(try String(contentsOf: directory.appendingPathComponent("\(table).csv"), encoding: .utf8) == "id,table\n1,\(table)\n")
        }
        #expect(sandbox.server.log.count == Converter.csvFiles.count)
    }

    /// The real tables over HTTP, converted and ingested by the binary: a whole conversion and
    /// ingest of the corpus (in a full run, as a local directory's is; the everyday one has
    /// the download above and the conversion of the local directory in process).
    @Test(.tags(.exhaustive), .enabled(if: Exhaustive.isFull, "the CSV download and a local CSV directory's conversion are checked apart outside a full run"))
    func csvOverHTTPConvertsLikeALocalDirectory() throws {
        let shared = Self.checkout.deletingLastPathComponent().appendingPathComponent("shared/pokeapi-csv")
        guard FileManager.default.fileExists(atPath: shared.appendingPathComponent("pokemon.csv").path) else {
            print("skipped: ../shared/pokeapi-csv is absent")
            return
        }
        let sandbox = try Sandbox()
        for table in Converter.csvFiles {
            let body = try [UInt8](Data(contentsOf: shared.appendingPathComponent("\(table).csv")))
            sandbox.server.route("/csv/\(table).csv") { _ in TestHTTPServer.Response(status: 200, body: body, contentType: "text/csv") }
        }
        let run = try sandbox.run(["ingest", "--csv", sandbox.server.origin + "/csv/", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        // The bundled corpus is this conversion of these tables (CorpusTests.
        // converterReproducesTheBundledCorpusByteForByte): not made again here.
        #expect(Self.sortedRows(try Store(path: sandbox.database, readOnly: true).readCorpusTables()) == Self.sortedRows(Fixture.corpusTables))
        #expect(Set(sandbox.server.log.map(\.path)) == Set(Converter.csvFiles.map { "/csv/\($0).csv" }))
    }

    @Test func bareAPIOptionMeansTheDefaultURL() throws {
        #expect(try Arguments.parse(["ingest", "--api"]).values["--api"] == "")
        #expect(try Arguments.parse(["ingest", "--api", "--quiet"]).values["--api"] == "")
        #expect(try Arguments.parse(["ingest", "--api", "--quiet"]).flags.contains("--quiet"))
        #expect(try Arguments.parse(["ingest", "--api", "http://127.0.0.1:1/api/v2"]).values["--api"] == "http://127.0.0.1:1/api/v2")
        let sandbox = try Sandbox()
        let run = try sandbox.run(["ingest", "--api", "ftp://example.invalid/"])
        #expect(run.status == 2 && run.stderr.contains("--api takes an http:// or https:// URL"))
    }

    /// The mapping against real PokeAPI responses (../shared/pokeapi-json): each gives the
    /// bundled corpus's rows (built by the CSV converter) for the same things.
    @Test func realResponsesMapToTheCorpusRows() throws {
        let samples = Self.checkout.deletingLastPathComponent().appendingPathComponent("shared/pokeapi-json")
        guard FileManager.default.fileExists(atPath: samples.appendingPathComponent("pokemon-25.json").path) else {
            print("skipped: ../shared/pokeapi-json is absent")
            return
        }
        func load<T: Codable & Sendable>(_ file: String, _ type: T.Type) throws -> T {
            try T.decode([UInt8](Data(contentsOf: samples.appendingPathComponent(file))), url: file)
        }
        var data = APIData()
        data.pokemon = [try load("pokemon-25.json", APIPokemon.self)]
        data.species = [try load("pokemon-species-25.json", APISpecies.self)]
        data.moves = [try load("move-85.json", APIMove.self)]
        data.items = [try load("item-1.json", APIItem.self)]
        data.abilities = [try load("ability-9.json", APIAbility.self)]
        data.types = [try load("type-10.json", APIType.self)]
        data.chains = [try load("evolution-chain-10.json", APIEvolutionChain.self)]
        let mapped = APIMapper.tables(data)
        let corpus = try TSV.readCorpus(from: PokeAPIFixture.corpusDirectory)
        // Columns only the CSVs have: empty from the API.
        let csvOnly: [String: Set<String>] = ["pokemon": ["generation"], "moves": ["effect", "flags"]]
        func rows(_ tables: CorpusTables, _ stem: String, where keep: ([String]) -> Bool) -> [[String]] {
            let table = tables.tables[stem]!
            let blank = table.columns.indices.filter { csvOnly[stem]?.contains(table.columns[$0]) == true }
            return table.rows.filter(keep).map { row in var row = row; for i in blank { row[i] = "" }; return row }
                .sorted { $0.lexicographicallyPrecedes($1) }
        }
        #expect(rows(mapped, "pokemon") { _ in true } == rows(corpus, "pokemon") { $0[0] == "25" })
        #expect(rows(mapped, "species") { _ in true } == rows(corpus, "species") { $0[0] == "25" })
        #expect(rows(mapped, "moves") { _ in true } == rows(corpus, "moves") { $0[0] == "85" })
        #expect(rows(mapped, "abilities") { _ in true } == rows(corpus, "abilities") { $0[0] == "9" })
        #expect(rows(mapped, "types") { _ in true } == rows(corpus, "types") { $0[0] == "10" })
        #expect(rows(mapped, "evolutions") { _ in true } == rows(corpus, "evolutions") { ["pikachu", "raichu"].contains($0[0]) })
        #expect(rows(mapped, "type_efficacy") { _ in true } == rows(corpus, "type_efficacy") { $0[0] == "fire" && $0[1] == "fire" })
        for kind in ["pokemon", "genus", "move", "ability", "type"] {
            let id = ["pokemon": "25", "genus": "25", "move": "85", "ability": "9", "type": "10"][kind]!
            #expect(rows(mapped, "names") { $0[0] == kind } == rows(corpus, "names") { $0[0] == kind && $0[1] == id }, "\(kind) names")
        }
        // Items: the current shape has `prices` (none with a purchase price for the Master Ball), the legacy one `cost`.
        #expect(mapped.tables["items"]!.rows.map { Array($0.prefix(6)) } == [["1", "master-ball", "standard-balls", "", "", ""]])
        #expect(mapped.tables["items"]!.rows.first?.last == rows(corpus, "items") { $0[0] == "1" }.first?.last, "item flags")
        // Prose the CSVs lack: Pokédex entries and flavour texts, the newest per language.
        let prose = mapped.tables["prose"]!.rows
        #expect(prose.contains { $0[0] == "species" && $0[1] == "25" && $0[3] == "en" && $0[4] == "dex" })
        #expect(prose.contains { $0[0] == "move" && $0[1] == "85" && $0[3] == "en" && $0[4] == "short" && $0[5].contains("paralyze") })
        #expect(prose.contains { $0[0] == "move" && $0[1] == "85" && $0[3] == "fr" && $0[4] == "flavor" })
        #expect(prose.contains { $0[0] == "item" && $0[1] == "1" && $0[3] == "en" && $0[4] == "flavor" })
        #expect(prose.contains { $0[0] == "ability" && $0[1] == "9" && $0[3] == "en" && $0[4] == "effect" })
        #expect(try load("item-1-legacy-cost.json", APIItem.self).effectiveCost == 0)
        let rotomWash = try load("pokemon-form-10059.json", APIForm.self)
        #expect(rotomWash.form_name == rows(corpus, "pokemon") { $0[1] == "rotom-wash" }.first?[5])
        #expect(rotomWash.names.first { $0.language.name == "en" }?.name == rows(corpus, "names") { $0[2] == "rotom-wash" && $0[3] == "en" }.first?[4])
    }
}

extension SyncTests {
    /// A sprite the API test server serves, downloaded and drawn by `sprite --show` in each
    /// protocol; `show` draws it beside the page only on a terminal.
    @Test func spriteIsDrawnFromWhatTheServerServes() throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let png = TestPNG.rgba
        sandbox.server.route("/sprites/25.png") { _ in TestHTTPServer.Response(status: 200, body: png, contentType: "image/png") }
        let blocks = try sandbox.run(["sprite", "pikachu", "--show", "--api", sandbox.api], environment: ["POKESEARCH_SPRITE": "blocks"])
        #expect(blocks.status == 0, "\(blocks.stderr)")
        #expect(blocks.stdout == TerminalImage.halfBlocks(try PNG.decode(png)).map { $0 + "\n" }.joined())
        let kitty = try sandbox.run(["sprite", "pikachu", "--show"], environment: ["TERM": "xterm-kitty"])
        #expect(kitty.stdout == TerminalImage.kitty(png: png, columns: 24, rows: 12) + "\n")
        let sixel = try sandbox.run(["sprite", "pikachu", "--show"], environment: ["TERM": "foot"])
        #expect(sixel.stdout.hasPrefix("\u{1B}P0;1;0q") && sixel.stdout.hasSuffix("\u{1B}\\\n"))
        // Piped, `show` draws no sprite.
        let piped = try sandbox.run(["show", "pikachu"])
        #expect(piped.status == 0 && !piped.stdout.contains("▀"))
    }
}
