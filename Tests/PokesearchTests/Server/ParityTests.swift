import Corpus
import Foundation
import Query
@testable import Server
import Testing

/// One behaviour with or without a server: every command's output through `pokesearch
/// serve` is what the database gives, and the request grammar is one (`Request`), parsed by
/// the server and encoded by the CLI.
@Suite("Server parity")
struct ParityTests {
    /// The judged query set (Tests/PokesearchTests/Query/Judged/, the first tab-separated field of
    /// each line that is not a comment) when it is there, else a representative list.
    static let queries: [String] = {
        let directory = JudgedQueryTests.directory
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        var judged: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                if let query = line.split(separator: "\t").first.map(String.init), !query.isEmpty, !judged.contains(query) { judged.append(query) }
            }
        }
        if !judged.isEmpty { return Array(judged.prefix(60)) }
        return ["pikachu", "fire dragon", "mr mime", "char", "garchomp", "type:water hp>100", "kind:move thunder", "dracaufeu",
                "ピカチュウ", "피카츄", "mime", "ball", "is:legendary gen:1", "eon", "25", "-type:flying kind:pokemon gen:1",
                "*meleon", "ee?ee", "@fr:salameche", "zzzzqqqq", "gen:99", "hp>>", "\"mr mime\"", "poke ball", "metronome"]
    }()

    func requestsServed(_ server: RunningServer) throws -> Int {
        try TestClient(path: server.socketPath).requestJSON("STATS")["requests"] as? Int ?? -1
    }

    /// A command run through the server and from the database, and how many requests the
    /// server took meanwhile besides the STATS that counted them.
    struct Both {
        var arguments: [String]
        var served: ServerFixture.RunResult
        var local: ServerFixture.RunResult
        var asked: Int
    }

    func runBoth(_ arguments: [String], server: RunningServer, database: String = ServerFixture.database) throws -> Both {
        let common = ["--db", database, "--socket", server.socketPath]
        let before = try requestsServed(server)
        let served = ServerFixture.run(arguments + common)
        let asked = try requestsServed(server) - before - 1
        let local = ServerFixture.run(arguments + common + ["--no-server"])
        return Both(arguments: arguments, served: served, local: local, asked: asked)
    }

    /// The same stdout, stderr and status either way.
    func expectSame(_ both: Both) {
        #expect(both.served.stdout == both.local.stdout, "\(both.arguments)")
        #expect(both.served.stderr == both.local.stderr, "\(both.arguments)")
        #expect(both.served.status == both.local.status, "\(both.arguments)")
        #expect(both.asked == 2, "\(both.arguments): STATS and the request went to the server")
    }

    /// `arguments` run through the server and from the database: the same stdout, stderr and status.
    func expectSame(_ arguments: [String], server: RunningServer, database: String = ServerFixture.database) throws {
        expectSame(try runBoth(arguments, server: server, database: database))
    }

    /// Each of `commands` run both ways, off the test runner's threads (each run is mostly a
    /// wait for a process and the server), then compared.
    func expectSame(_ commands: [[String]], server: RunningServer) async throws {
        for both in try await offTheTestThreads({ try commands.map { try runBoth($0, server: server) } }) { expectSame(both) }
    }

    @Test(.tags(.exhaustive)) func searchesAreTheSameWithAndWithoutAServer() async throws {
        let server = try RunningServer()
        var commands: [[String]] = []
        for query in Exhaustive.sample(Self.queries, oneIn: 16) {
            for options in [["-n", "10"], ["-n", "5", "-l", "ja", "--offset", "2"], ["-j", "-n", "5"]] {
                commands.append(["search", query] + options)
            }
        }
        commands.append(["search", "kind:pokemon", "-s", "attack", "--desc", "-n", "5", "-l", "fr"])
        commands.append(["search", "type:water", "-n", "0"])
        commands.append(["search", "type:water", "--offset", "100000"])
        try await expectSame(commands, server: server)
    }

    @Test(.tags(.exhaustive)) func completionsAreTheSameWithAndWithoutAServer() async throws {
        let server = try RunningServer()
        var commands: [[String]] = []
        for prefix in Exhaustive.sample(["pika", "fire d", "ピカ", "zzzzqqqq", "char", "mr mi", "metronom"], oneIn: 2) {
            for options in [[], ["--slugs"], ["-j", "-n", "3"], ["-n", "0"], ["-k", "move"]] {
                commands.append(["complete", prefix] + options)
            }
        }
        try await expectSame(commands, server: server)
    }

    /// The server reads the favourites from the database it serves, as the CLI does.
    @Test func favouritesFilterTheSameThroughTheServer() throws {
        let database = ServerFixture.temporaryDirectory() + "/favourites.sqlite"
        try FileManager.default.copyItem(atPath: ServerFixture.database, toPath: database)
        for name in ["eevee", "pikachu", "thunderbolt"] { #expect(ServerFixture.run(["fav", "add", name, "--db", database]).status == 0) }
        let server = try RunningServer(database: database)
        for query in ["is:fav", "is:fav kind:pokemon", "-is:fav pika", "is:favourite"] {
            try expectSame(["search", query, "-j"], server: server, database: database)
        }
        let served = ServerFixture.run(["search", "is:fav", "--db", database, "--socket", server.socketPath])
        #expect(served.stdout.contains("Eevee") && served.stdout.contains("Thunderbolt"), "\(served.stdout)")
        // A favourite added while the server runs counts at once.
        #expect(ServerFixture.run(["fav", "add", "mew", "--db", database]).status == 0)
        let after = try TestClient(path: server.socketPath).request("SEARCH is:fav kind:pokemon")
        #expect(after.contains(#""slug":"mew""#), "\(after)")
    }

    @Test func unknownOptionsInRequestsAreRefused() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        #expect(try errorCode(client.request("SEARCH pika FOO(1)")) == "bad_option")
        #expect(try errorCode(client.request("COMPLETE pika OFFSET(2)")) == "bad_option")
        #expect(try errorCode(client.request("SEARCH pika LIMIT(2) BAR(x)")) == "bad_option")
        // A lower-case word before parentheses is query text.
        #expect(try client.requestJSON("SEARCH porygon(z)")["ok"] as? Bool == true)
    }

    /// The CLI's requests are `Request.line`: the server reads back exactly the request.
    @Test func requestLinesReadBackAsTheirRequests() throws {
        let requests: [Request] = [
            .ping, .stats, .reload, .quit, .get("move:thunderbolt"),
            .search(query: "fire dragon", options: SearchRequestOptions()),
            .search(query: "type:water", options: SearchRequestOptions(limit: 5, offset: 10, language: 1, kinds: [.pokemon, .move],
                                                                       sort: .specialAttack, descending: true)),
            .search(query: "ピカチュウ (x)", options: SearchRequestOptions(limit: 0)),
            .complete(prefix: "mr mi", limit: 3, language: 8, kinds: [.item]),
            .complete(prefix: "pika", limit: 0, language: 0, kinds: []),
        ]
        for request in requests {
            let line = try #require(request.line, "\(request)")
            #expect(try RequestParser.parse(line) == request, "\(line)")
        }
        // What a line cannot carry is not encoded: the client answers by itself.
        #expect(Request.search(query: "pikachu limit(2)", options: SearchRequestOptions()).line == nil)
        #expect(Request.search(query: "pika\nPING", options: SearchRequestOptions()).line == nil)
        #expect(Request.complete(prefix: "pikachu ", limit: 8, language: 0, kinds: []).line == nil)
        #expect(Request.get("pika\u{0}chu").line == nil)
    }
}
