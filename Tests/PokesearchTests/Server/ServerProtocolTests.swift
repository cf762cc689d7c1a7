import Dispatch
import Foundation
import Locking
import Store
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The line protocol over real AF_UNIX connections to the real server binary.
@Suite("Server protocol")
struct ServerProtocolTests {
    @Test func everyVerbAnswers() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        #expect(try client.request("PING") == #"{"ok":true}"#)
        #expect(try client.request("ping") == #"{"ok":true}"#)

        // SEARCH: the same objects as `search --json`, in the same order.
        let search = try client.request("SEARCH pikachu LIMIT(3)")
        let searchObject = try decode(search)
        let local = ServerFixture.run(["search", "pikachu", "--limit", "3", "--json", "--no-server", "--db", ServerFixture.database])
        let localLines = local.stdout.split(separator: "\n").joined(separator: ",")
        #expect(search.hasPrefix(#"{"ok":true,"total":"#))
        #expect(search.hasSuffix(#""results":[\#(localLines)]}"#))
        #expect((searchObject["total"] as? Int ?? 0) >= 3)

        let french = try client.requestJSON("search dracaufeu LANG(fr) LIMIT(1)")
        #expect(((french["results"] as? [[String: Any]])?.first?["name"] as? String) == "Dracaufeu")
        let sorted = try client.request("SEARCH type:dragon KIND(pokemon) SORT(attack:desc) LIMIT(3)")
        let localSorted = ServerFixture.run(["search", "type:dragon", "--kind", "pokemon", "--sort", "attack", "--desc", "--limit", "3",
                                             "--json", "--no-server", "--db", ServerFixture.database])
        #expect(sorted.contains(#""results":[\#(localSorted.stdout.split(separator: "\n").joined(separator: ","))],"sort_values":[180,175,170]}"#))

        // COMPLETE: the objects of `complete --json`.
        let complete = try client.request("COMPLETE char LIMIT(3)")
        let localComplete = ServerFixture.run(["complete", "char", "--limit", "3", "--json", "--no-server", "--db", ServerFixture.database])
        #expect(complete == #"{"ok":true,"suggestions":[\#(localComplete.stdout.split(separator: "\n").joined(separator: ","))]}"#)
        let moves = try client.requestJSON("COMPLETE thunder KIND(move)")
        #expect((moves["suggestions"] as? [[String: Any]] ?? []).allSatisfy { $0["kind"] as? String == "move" })

        // GET by slug, id and kind:slug.
        let pikachu = try client.requestJSON("GET pikachu")
        let entity = pikachu["entity"] as? [String: Any]
        #expect(entity?["id"] as? Int == 25)
        #expect(entity?["types"] as? [String] == ["electric"])
        #expect((entity?["stats"] as? [String: Any])?["total"] as? Int == 320)
        #expect((entity?["names"] as? [String: Any])?["ja"] as? String == "ピカチュウ")
        #expect(((try client.requestJSON("GET 6"))["entity"] as? [String: Any])?["slug"] as? String == "charizard")
        let move = (try client.requestJSON("GET move:thunderbolt"))["entity"] as? [String: Any]
        #expect(move?["power"] as? Int == 90)
        #expect(try errorCode(client.request("GET missingno")) == "not_found")
        // Names in any language, as `show` takes them; a name two kinds share is ambiguous.
        #expect(((try client.requestJSON("GET Dracaufeu"))["entity"] as? [String: Any])?["slug"] as? String == "charizard")
        #expect((pikachu["entity"] as? [String: Any])?["genus"] as? String == "Mouse Pokémon")
        #expect(try errorCode(client.request("GET metronome")) == "ambiguous")

        // STATS counts what happened.
        let stats = try client.requestJSON("STATS")
        let entities = stats["entities"] as? [String: Int]
        #expect((entities?["pokemon"] ?? 0) > 1000)
        #expect((entities?["type"] ?? 0) > 15)
        #expect((stats["requests"] as? Int ?? 0) >= 12)
        #expect(stats["connections"] as? Int == 1)
        #expect(stats["uptime_s"] != nil && stats["index_build_ms"] != nil)

        let reload = try client.requestJSON("RELOAD")
        #expect(reload["ok"] as? Bool == true)
        #expect(reload["entities"] as? Int == entities?.values.reduce(0, +))
        #expect((try client.requestJSON("STATS"))["reloads"] as? Int == 1)

        #expect(try client.request("QUIT") == #"{"ok":true}"#)
        #expect(try client.readLine() == nil)
        #expect(server.stop().status == 0)
    }

    /// GET answers with the very object `show --json` prints, byte for byte (a bare id
    /// other kinds share is followed by `"also"`, FormIdentityTests).
    @Test func getIsShowJSON() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        for key in ["pikachu", "25", "eevee", "charizard-mega-x", "raichu-alola", "shellos-east", "move:thunderbolt", "item:1",
                    "ability:static", "type:fire", "Dracaufeu", "Type: Null", "Farfetch'd"] {
            let show = ServerFixture.run(["show", key, "--json", "--db", ServerFixture.database])
            #expect(show.status == 0, "show \(key): \(show.stderr)")
            let answer = try client.request("GET \(key)"), entity = #"{"ok":true,"entity":"# + show.stdout.dropLast()
            #expect(answer == entity + "}" || answer.hasPrefix(entity + #","also":["#), "GET \(key)")
        }
    }

    @Test func malformedRequestsGetErrorLines() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        #expect(try errorCode(client.request("FROBNICATE now")) == "unknown_verb")
        #expect(try errorCode(client.request("SEARCH hp>>")) == "bad_query")
        #expect(try errorCode(client.request("SEARCH")) == "bad_query")
        #expect(try errorCode(client.request("SEARCH fire LIMIT(many)")) == "bad_option")
        #expect(try errorCode(client.request("COMPLETE pi LANG(xx)")) == "bad_option")
        #expect(try errorCode(client.request("PING extra")) == "bad_request")
        // Empty and whitespace-only lines, with \r\n too, each get one answer.
        try client.send("\n   \t\n\r\n")
        for _ in 0..<3 { #expect(try errorCode(try #require(try client.readLine())) == "empty_request") }
        #expect(try client.request("PING\r") == #"{"ok":true}"#)
        // Invalid UTF-8, then the connection goes on.
        try client.send([0x53, 0x45, 0x41, 0x52, 0x43, 0x48, 0x20, 0xFF, 0xC0, 0x0A])
        #expect(try errorCode(try #require(try client.readLine())) == "bad_utf8")
        #expect(try client.request("PING") == #"{"ok":true}"#)
    }

    @Test func overlongLinesAreSkippedToTheirEnd() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        // Exactly at the limit is a request; one byte more is not.
        let atLimit = "PING" + String(repeating: " ", count: 8192 - 4)
        #expect(try client.request(atLimit) == #"{"ok":true}"#)
        #expect(try errorCode(client.request(atLimit + " ")) == "line_too_long")
        // A long line arriving in pieces is answered once, and the line after it normally.
        try client.send("SEARCH " + String(repeating: "a", count: 6000))
        usleep(50_000)
        try client.send(String(repeating: "b", count: 6000))
        usleep(50_000)
        try client.send(String(repeating: "c", count: 100_000) + "\nPING\n")
        #expect(try errorCode(try #require(try client.readLine())) == "line_too_long")
        #expect(try client.readLine() == #"{"ok":true}"#)
        #expect(try client.request("STATS").contains(#""ok":true"#))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        try client.send((1...200).map { "GET \($0)\n" }.joined())
        for id in 1...200 {
            let answer = try decode(try #require(try client.readLine()))
            #expect((answer["entity"] as? [String: Any])?["id"] as? Int == id)
        }
    }

    /// A pipelined run longer than one read (16 KiB of requests), whose answers pass the
    /// output's high-water mark many times: the output room kept from read to read while
    /// requests are waiting still holds each answer once, in order.
    @Test func pipelinedRunLongerThanOneReadIsAnsweredInOrder() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 20)
        // (A few KiB past one read, no more: each GET reads its entity from the database.)
        let ids = (0..<2400).map { $0 % 900 + 1 }
        let requests = ids.map { "GET \($0)\n" }.joined()
        #expect(requests.utf8.count > 16 * 1024)
        try client.send(requests)
        var answered: [Int] = []
        while answered.count < ids.count, let line = try client.readLine() {
            answered.append((try decode(line)["entity"] as? [String: Any])?["id"] as? Int ?? -1)
        }
        #expect(answered == ids)
        #expect(try client.request("PING") == #"{"ok":true}"#)
    }

    /// More pipelined answers than the server queues before it pauses reading (found by the
    /// benchmark: the paused rest of a read was never resumed once the output drained).
    @Test func pipelinedRequestsBeyondTheOutputLimitAreAllAnswered() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 10)
        let count = 1000
        try client.send(String(repeating: "COMPLETE char LIMIT(20)\n", count: count))
        var answered = 0
        while answered < count, let line = try client.readLine() {
            #expect(line.hasPrefix("{\"ok\":true,\"suggestions\":["))
            answered += 1
        }
        #expect(answered == count)
    }

    @Test func sixtyFourConcurrentClients() throws {
        let server = try RunningServer()
        let failures = Locked<[String]>([])
        let socketPath = server.socketPath
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            do {
                let client = try TestClient(path: socketPath)
                for round in 0..<10 {
                    let id = index * 10 + round + 1
                    let answer = try client.requestJSON("GET \(id)")
                    if (answer["entity"] as? [String: Any])?["id"] as? Int != id { failures.withLock { $0.append("client \(index): GET \(id)") } }
                    let search = try client.requestJSON("COMPLETE pika LIMIT(2)")
                    if (search["suggestions"] as? [Any])?.count != 2 { failures.withLock { $0.append("client \(index): COMPLETE") } }
                }
            } catch {
                failures.withLock { $0.append("client \(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let stats = try TestClient(path: server.socketPath).requestJSON("STATS")
        #expect((stats["requests"] as? Int ?? 0) >= 64 * 20)
    }

    @Test func clientsHangingUpDoNotDisturbOthers() throws {
        let server = try RunningServer()
        do {
            // Mid-line: half a request, then gone.
            let client = try TestClient(path: server.socketPath)
            try client.send("SEARCH pika")
        }
        do {
            // Mid-answer: many large answers asked for, none read.
            let client = try TestClient(path: server.socketPath)
            try client.send(String(repeating: "SEARCH a LIMIT(1000)\n", count: 200))
        }
        do {
            // Half-close: what was sent is still answered.
            let client = try TestClient(path: server.socketPath)
            try client.send("PING\nGET 25\nPING")
            shutdown(client.fd, Int32(SHUT_WR))
            #expect(try client.readLine() == #"{"ok":true}"#)
            #expect(try client.readLine()?.contains(#""slug":"pikachu""#) == true)
            #expect(try client.readLine() == nil) // the unfinished last line is no request
        }
        let client = try TestClient(path: server.socketPath)
        #expect(try client.request("PING") == #"{"ok":true}"#)
        let connections = try settled(at: 1, within: 2) { try client.requestJSON("STATS")["connections"] as? Int }
        #expect(connections == 1)
        #expect(server.process.isRunning)
    }

    @Test func aClientThatNeverReadsDoesNotStallOthers() throws {
        let server = try RunningServer()
        let silent = try TestClient(path: server.socketPath)
        #expect(silent.sendUntilTheServerStopsReading())
        // Another client is answered at once all the while.
        let other = try TestClient(path: server.socketPath, timeoutSeconds: 5)
        for _ in 0..<50 { #expect(try other.request("COMPLETE bulba") .contains("bulbasaur")) }
        // The silent client and this one (the start-up check's connection, closed, counts
        // until its thread has read its end: a moment on a loaded machine).
        let connections = try settled(at: 2, within: 10) { try other.requestJSON("STATS")["connections"] as? Int }
        #expect(connections == 2)
    }

    @Test func reloadWhileAnotherClientTypes() throws {
        let server = try RunningServer()
        let typist = try TestClient(path: server.socketPath)
        let reloader = try TestClient(path: server.socketPath, timeoutSeconds: 120)
        try typist.send("SEARCH pika")
        try reloader.send("RELOAD\nPING\n")
        for word in ["chu", " LIMIT(1)\n"] {
            usleep(20_000)
            try typist.send(word)
        }
        #expect(try typist.readLine()?.contains(#""slug":"pikachu""#) == true)
        for _ in 0..<20 { #expect(try typist.request("COMPLETE eev").contains("eevee")) }
        // RELOAD is answered when the new index is in, and the line after it only then.
        let reload = try decode(try #require(try reloader.readLine()))
        #expect(reload["ok"] as? Bool == true)
        #expect(try reloader.readLine() == #"{"ok":true}"#)
        #expect(try typist.request("SEARCH pikachu LIMIT(1)").contains(#""slug":"pikachu""#))
        #expect(try typist.requestJSON("STATS")["reloads"] as? Int == 1)
    }

    /// RELOAD frees the index it replaces, with its database connection: the first one too
    /// (the command that started the server once kept it alive for good).
    @Test func reloadFreesThePreviousIndex() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 120)
        #expect(try server.openDatabaseFiles() == 1)
        for _ in 0..<2 {
            #expect(try client.requestJSON("RELOAD")["ok"] as? Bool == true)
            #expect(try server.openDatabaseFiles() == 1)
            #expect(try client.request("GET pikachu").contains(#""slug":"pikachu""#))
        }
    }

    /// A connection waiting for its client to read its answers does not hold the index they
    /// came from: RELOAD frees it all the same, once the requests still being answered on it
    /// are done (moments; the waiting write lasts until the idle timeout).
    @Test func reloadFreesThePreviousIndexWhileAClientDoesNotRead() throws {
        let server = try RunningServer()
        let silent = try TestClient(path: server.socketPath)
        #expect(silent.sendUntilTheServerStopsReading())
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 120)
        #expect(try client.requestJSON("RELOAD")["ok"] as? Bool == true)
        #expect(try settled(at: 1, within: 20) { try server.openDatabaseFiles() } == 1)
    }

    /// RELOAD reads the index the database stores with its tables, and rebuilds it from
    /// the tables when the database has none (an older pokesearch's, say).
    @Test func reloadReadsTheStoredIndexElseRebuildsIt() throws {
        let database = ServerFixture.temporaryDirectory() + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: ServerFixture.database, toPath: database)
        let server = try RunningServer(database: database)
        let client = try TestClient(path: server.socketPath, timeoutSeconds: 300)
        let stored = try client.requestJSON("RELOAD")
        #expect(stored["ok"] as? Bool == true)
        try Store(path: database).database.execute("DELETE FROM index_snapshot")
        let rebuilt = try client.requestJSON("RELOAD")
        #expect(rebuilt["ok"] as? Bool == true && rebuilt["entities"] as? Int == stored["entities"] as? Int)
        #expect(try client.request("COMPLETE pikachu").contains(#""slug":"pikachu""#))
        // Reading the stored index is a copy of its bytes; rebuilding folds and sorts
        // every key (about 50 times longer in a release build).
        let storedMilliseconds = try #require(stored["index_build_ms"] as? Double)
        let rebuiltMilliseconds = try #require(rebuilt["index_build_ms"] as? Double)
        #expect(storedMilliseconds * 5 < rebuiltMilliseconds, "\(storedMilliseconds) ms read, \(rebuiltMilliseconds) ms rebuilt")
        #expect(server.stop().status == 0)
    }

    @Test func sighupReloads() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        kill(server.process.processIdentifier, SIGHUP)
        var reloads = 0
        let deadline = Date().addingTimeInterval(120)
        while reloads == 0 && Date() < deadline {
            #expect(try client.request("PING") == #"{"ok":true}"#)
            reloads = try client.requestJSON("STATS")["reloads"] as? Int ?? 0
            usleep(100_000)
        }
        #expect(reloads == 1)
        #expect(server.process.isRunning)
    }

    @Test func connectionLimitAnswersThenCloses() throws {
        let server = try RunningServer(extraArguments: ["--max-connections", "2"])
        let first = try TestClient(path: server.socketPath)
        let second = try TestClient(path: server.socketPath)
        #expect(try first.request("PING") == #"{"ok":true}"#)
        #expect(try second.request("PING") == #"{"ok":true}"#)
        let third = try TestClient(path: server.socketPath)
        #expect(try errorCode(try #require(try third.readLine())) == "too_many_connections")
        #expect(try third.readLine() == nil)
        #expect(try first.request("PING") == #"{"ok":true}"#)
    }

    /// A client that hangs up no longer counts against the limit: reconnecting at once is
    /// served, not refused, also when the server admitted the connection it hangs up in the
    /// same turn of accepting (a count of the connections in use made before that admission
    /// is stale).
    @Test func aClientReconnectingAtTheLimitIsServed() throws {
        let server = try RunningServer(extraArguments: ["--max-connections", "1"])
        for _ in 0..<100 {
            let client = try TestClient(path: server.socketPath)
            #expect(try client.request("PING") == #"{"ok":true}"#)
            client.hangUp()
        }
    }

    /// A client that reads none of its answers for the idle timeout is closed (its thread's
    /// write gives up), and no longer counts.
    @Test func aClientThatReadsNothingIsClosedAfterTheIdleTimeout() async throws {
        let server = try RunningServer(extraArguments: ["--idle-timeout", "1"])
        let silent = try TestClient(path: server.socketPath)
        #expect(silent.sendUntilTheServerStopsReading())
        let other = try TestClient(path: server.socketPath)
        // (The idle timeout waited out off the test runner's threads.)
        let connections = try await offTheTestThreads {
            try settled(at: 1, within: 10) { try other.requestJSON("STATS")["connections"] as? Int }
        }
        #expect(connections == 1)
    }

    @Test func idleConnectionsAreClosed() async throws {
        let server = try RunningServer(extraArguments: ["--idle-timeout", "1"])
        let idle = try TestClient(path: server.socketPath)
        #expect(try idle.request("PING") == #"{"ok":true}"#)
        // (The read waits for the server's line, which comes after the idle second: off the
        // test runner's threads.)
        let line = try await offTheTestThreads { try idle.readLine() }
        #expect(try errorCode(try #require(line)) == "idle_timeout")
        #expect(try idle.readLine() == nil)
    }
}
