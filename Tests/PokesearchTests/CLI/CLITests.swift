import Catalog
import Foundation
import Index
import Store
import Testing

/// The command line as users and scripts see it: output, exit status, errors.
@Suite("Command line")
struct CLITests {
    let db = Fixture.database

    @Test func searchPrintsATableAndExitsZero() throws {
        let run = try pokesearch(["fire", "dragon", "--db", db])
        #expect(run.status == 0 && run.stderr == "4 results\n")
        #expect(run.lines.count == 4, "the four fire/dragon Pokémon: \(run.lines)")
        #expect(run.lines.allSatisfy { $0.hasPrefix("#") && $0.contains("fire") && $0.contains("dragon") })
        #expect(!run.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        let same = try pokesearch(["search", "fire dragon", "--db", db])
        #expect(same.stdout == run.stdout)
    }

    @Test func mixedKindsShowTheKind() throws {
        let run = try pokesearch(["metronome", "--db", db])
        // (TR14 follows: Pokémon Showdown's nickname "tr14metronome" holds the word.)
        #expect(run.lines.count >= 2 && run.lines[0].contains("move") && run.lines[1].contains("item"), "\(run.lines)")
    }

    /// Two things of a kind shown with one name are told apart by their slugs; a name shown
    /// once is not followed by one.
    @Test func namesShownTwiceShowTheirSlugs() throws {
        let balls = try pokesearch(["poke ball", "--kind", "item", "--limit", "2", "--db", db])
        #expect(balls.lines.count == 2 && balls.lines[0].hasSuffix("  poke-ball") && balls.lines[1].hasSuffix("  lapoke-ball"),
                "\(balls.lines)")
        let pikachu = try pokesearch(["pikachu", "--limit", "1", "--db", db])
        #expect(pikachu.lines.count == 1 && !pikachu.lines[0].hasSuffix("pikachu"), "\(pikachu.lines)")
    }

    @Test func jsonLinesCarryTheContractFields() throws {
        let run = try pokesearch(["pikachu", "--json", "--limit", "3", "--db", db])
        #expect(run.status == 0 && run.lines.count == 3)
        for line in run.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for key in ["kind", "id", "slug", "name", "score", "types"] { #expect(object[key] != nil, "\(key) in \(line)") }
        }
        let first = try #require(try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [String: Any])
        #expect(first["slug"] as? String == "pikachu" && first["types"] as? [String] == ["electric"])
        let item = try pokesearch(["master ball", "--json", "--db", db])
        #expect(!item.lines[0].contains("\"types\""), "types only for Pokémon and moves")
    }

    @Test func optionsShapeTheResults() throws {
        let french = try pokesearch(["charizard", "--lang", "fr", "--limit", "1", "--db", db])
        #expect(french.stdout.contains("Dracaufeu"))
        let byEnvironment = try pokesearch(["charizard", "--limit", "1", "--db", db], environment: ["POKESEARCH_LANG": "de"])
        #expect(byEnvironment.stdout.contains("Glurak"))
        let moves = try pokesearch(["thunder", "--kind", "move", "--json", "--db", db])
        #expect(moves.lines.allSatisfy { $0.contains("\"kind\":\"move\"") })
        let page2 = try pokesearch(["type:water", "--limit", "5", "--offset", "5", "--json", "--db", db])
        let page1 = try pokesearch(["type:water", "--limit", "10", "--json", "--db", db])
        #expect(page2.lines == Array(page1.lines.dropFirst(5)))
        let sorted = try pokesearch(["kind:pokemon", "--sort", "speed", "--desc", "--limit", "1", "--db", db])
        #expect(sorted.stdout.contains("Regieleki"))
        let explain = try pokesearch(["glurak", "--explain", "--limit", "1", "--db", db])
        #expect(explain.stdout.contains("whole name (de)"))
    }

    @Test func exitStatuses() throws {
        let nothing = try pokesearch(["zzzzqqqq", "--db", db])
        #expect(nothing.status == 1 && nothing.stdout.isEmpty && nothing.stderr.contains("nothing found"))
        let emptyJSON = try pokesearch(["zzzzqqqq", "--json", "--db", db])
        #expect(emptyJSON.status == 1 && emptyJSON.stdout.isEmpty)
        for bad in [["atk>>x"], ["--limit", "lots", "x"], ["--frobnicate"], ["--kind", "dog", "x"], ["--sort", "mood", "x"],
                    ["\"mr mime"], ["--lang", "xx", "x"], []] {
            let run = try pokesearch(bad + ["--db", db])
            #expect(run.status == 2, "\(bad)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.hasPrefix("pokesearch: "), "\(bad): \(run.stderr)")
        }
        // White space of any kind (a newline, an ideographic space) is nothing to search for.
        for blank in ["\n", "\u{3000}", " \t"] {
            let run = try pokesearch([blank, "--db", db])
            #expect(run.status == 2 && run.stderr.contains("nothing to search for; try `pokesearch"), "\(blank.debugDescription): \(run.stderr)")
        }
        let badQuery = try pokesearch(["fire", "atk>>x", "--db", db])
        #expect(badQuery.stderr.contains("atk>>x") && badQuery.stderr.contains("character 6"))
    }

    /// A negated term is quoted with the query or put after `--`; alone it is a usage error
    /// that says so.
    @Test func negatedTermsAreQuotedOrAfterTheEndOfOptions() throws {
        let quoted = try pokesearch(["charizard -type:flying", "--json", "--db", db])
        #expect(quoted.status == 0 && !quoted.stdout.contains("\"slug\":\"charizard\""))
        let afterEnd = try pokesearch(["--json", "--db", db, "--", "charizard", "-type:flying"])
        #expect(afterEnd.stdout == quoted.stdout)
        let bare = try pokesearch(["charizard", "-type:flying", "--db", db])
        #expect(bare.status == 2 && bare.stdout.isEmpty)
        #expect(bare.stderr.contains("to negate a term") && bare.stderr.contains("`pokesearch \"charizard -type:flying\"`")
                && bare.stderr.contains("`pokesearch -- charizard -type:flying`"), "\(bare.stderr)")
    }

    @Test func helpAndVersion() throws {
        let help = try pokesearch(["--help"])
        #expect(help.status == 0 && help.stdout.contains("usage:") && help.stdout.contains("query language"))
        let topic = try pokesearch(["help", "complete"])
        #expect(topic.status == 0 && topic.stdout.contains("pokesearch complete PREFIX"))
        #expect(try pokesearch(["help", "nonsense"]).status == 2)
        let version = try pokesearch(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("pokesearch "))
    }

    @Test func completion() throws {
        let run = try pokesearch(["complete", "pika", "--db", db, "--no-server"])
        #expect(run.status == 0 && run.lines.first == "Pikachu" && run.lines.count == 8)
        let words = try pokesearch(["complete", "mr mi", "--db", db, "--no-server"])
        #expect(words.lines.first == "Mr. Mime")
        // The README's query typed out: the word being typed after others is a type too.
        let typed = try pokesearch(["complete", "fire dragon", "--db", db, "--no-server"])
        #expect(typed.status == 0 && typed.lines.prefix(4) == ["Gouging Fire", "Reshiram", "Turtonator", "Mega Charizard X"], "\(typed.lines)")
        let none = try pokesearch(["complete", "zzzzqqqq", "--db", db, "--no-server"])
        #expect(none.status == 1 && none.stdout.isEmpty)
    }

    /// Recording a search waits a moment at most for the database's writer lock: the answer
    /// is printed before, and with the lock held elsewhere the command exits all the same,
    /// its search not recorded. Without the lock held, the search is recorded.
    /// (The completion's text is recorded without the white space around it, a newline too.)
    @Test(arguments: [(["fire dragon"], "Reshiram"), (["show", "reshiram"], "Reshiram")])
    func theAnswerComesBeforeTheHistoryIsWritten(_ command: [String], answer: String) throws {
        let path = Fixture.copyOfDatabase("history-order")
        let output = Fixture.temporaryDirectory("history-order") + "/stdout"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = Fixture.binary
        process.arguments = command + ["--db", path]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": Fixture.temporaryDirectory("home"), "POKESEARCH_NO_HISTORY": "",
                               "POKESEARCH_SOCKET": "/nonexistent/pokesearch-test.sock"].merging(Fixture.sanitizerEnvironment) { new, _ in new }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        var printedWhileLocked = ""
        try WriterLock.withLock(databasePath: path, waitingAtMost: 0) {
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline && process.isRunning { usleep(20_000) }
            printedWhileLocked = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(!process.isRunning, "still waiting for the writer's lock")
        }
        process.waitUntilExit()
        #expect(printedWhileLocked.contains(answer), "printed while the writer's lock was held: \(printedWhileLocked.debugDescription)")
        #expect(process.terminationStatus == 0)
        #expect(try pokesearch(["history", "--db", path]).lines.isEmpty)
        let recorded = try pokesearch(command + ["--db", path], environment: ["POKESEARCH_NO_HISTORY": ""])
        #expect(recorded.status == 0)
        let history = try pokesearch(["history", "--json", "--db", path])
        #expect(history.lines.map(historyQuery) == [command.joined(separator: " ")])
    }

    /// The environment is read from `environ` as `getenv` reads it: a name given twice is
    /// its first entry.
    @Test func aNameSetTwiceInTheEnvironmentIsItsFirst() throws {
        let stdout = try spawned(["charizard", "--limit", "1", "--db", db], environment: ["POKESEARCH_LANG=fr", "POKESEARCH_LANG=de"])
        #expect(stdout.contains("Dracaufeu"), "\(stdout)")
    }

    @Test func historyIsRecordedUnlessTurnedOff() throws {
        let path = Fixture.copyOfDatabase("history")
        _ = try pokesearch(["eevee", "--db", path], environment: ["POKESEARCH_NO_HISTORY": ""])
        _ = try pokesearch(["fire dragon", "--db", path], environment: ["POKESEARCH_NO_HISTORY": ""])
        _ = try pokesearch(["mew", "--db", path], environment: ["POKESEARCH_NO_HISTORY": "1"])
        let history = try pokesearch(["history", "--json", "--db", path])
        #expect(history.lines.map(historyQuery) == ["fire dragon", "eevee"])
    }
}

/// One run of the built binary with exactly these environment entries (`environ` as given,
/// a name twice if so), through posix_spawn: its output.
func spawned(_ arguments: [String], environment: [String] = []) throws -> String {
    let words = [Fixture.binary.path] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let entries = ["POKESEARCH_NO_HISTORY=1", "POKESEARCH_SOCKET=/nonexistent/pokesearch-test.sock", "NO_COLOR=1"] + environment
    let envp: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    let output = Fixture.temporaryDirectory("spawned") + "/stdout"
    defer { try? FileManager.default.removeItem(atPath: output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0, status: Int32 = 0
    try #require(posix_spawn(&pid, Fixture.binary.path, &actions, nil, argv, envp) == 0)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    try #require(status == 0, "\(arguments) exited with \(status)")
    return try String(contentsOfFile: output, encoding: .utf8)
}
