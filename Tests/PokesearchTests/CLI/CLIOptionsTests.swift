import Catalog
import Foundation
@testable import PokesearchCLI
import Store
import Testing

/// The query of one `history --json` line.
func historyQuery(_ line: String) -> String {
    ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["query"] as? String ?? "(not JSON: \(line))"
}

/// Options as users of ripgrep and fd expect them, and the refusals that replace silence.
@Suite("Command-line options")
struct CLIOptionsTests {
    let db = Fixture.database

    @Test(arguments: [
        (["pikachu", "-n", "2", "-j"], ["pikachu", "--limit", "2", "--json"]),
        (["-n2", "-j", "pikachu"], ["pikachu", "--limit", "2", "--json"]),
        (["thunder", "-k", "move", "-l", "fr", "-n", "3"], ["thunder", "--kind", "move", "--lang", "fr", "--limit", "3"]),
        (["kind:pokemon", "-s", "speed", "--desc", "-n", "2"], ["kind:pokemon", "--sort", "speed", "--desc", "--limit", "2"]),
        (["pikachu", "-jn", "1"], ["pikachu", "--json", "--limit", "1"]),
    ])
    func shortOptionsAreTheLongOnes(short: [String], long: [String]) throws {
        // (The small corpus's database: its index loads in a fraction of the time, twice a case.)
        let a = try pokesearch(short + ["--db", Fixture.smallDatabase]), b = try pokesearch(long + ["--db", Fixture.smallDatabase])
        #expect(a.status == 0 && !a.stdout.isEmpty)
        #expect(a.stdout == b.stdout, "\(short)")
    }

    @Test func helpAndVersionHaveShortForms() throws {
        #expect(try pokesearch(["-V"]).stdout == pokesearch(["--version"]).stdout)
        let help = try pokesearch(["-h"]), long = try pokesearch(["--help"])
        #expect(help.status == 0 && help.stdout == long.stdout)
        #expect(try pokesearch(["show", "-h"]).stdout.contains("pokesearch show"))
    }

    /// `--help` names every option any command takes, and every command.
    @Test func helpListsEveryOptionAndCommand() throws {
        let help = try pokesearch(["--help"]).stdout
        for option in OptionSpec.all {
            #expect(help.contains(option.name), "\(option.name) missing from --help")
            if let short = option.short { #expect(help.contains("-\(short)"), "-\(short) missing from --help") }
        }
        for command in ["search", "complete", "show", "random", "ingest", "serve", "fav", "synonym", "history", "sprite", "interactive", "help"] {
            #expect(help.contains("pokesearch \(command)"), "\(command) missing from --help")
        }
    }

    @Test func unknownOptionsAndDashWordsAreUsageErrors() throws {
        for words in [["pika", "-x"], ["-q", "pika"], ["pika", "--frob"], ["pika", "-jx"]] {
            let run = try pokesearch(words + ["--db", db])
            #expect(run.status == 2 && run.stdout.isEmpty, "\(words)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("to negate a term"), "\(words): \(run.stderr)")
        }
    }

    @Test func colorChoiceOverridesTheDefault() throws {
        let always = try pokesearch(["pikachu", "-n", "1", "--color=always", "--db", db])
        #expect(always.stdout.contains("\u{1B}["))
        let alwaysDespiteNoColor = try pokesearch(["pikachu", "-n", "1", "--color", "always", "--db", db], environment: ["NO_COLOR": "1"])
        #expect(alwaysDespiteNoColor.stdout.contains("\u{1B}["))
        let never = try pokesearch(["pikachu", "-n", "1", "--color=never", "--db", db])
        #expect(!never.stdout.contains("\u{1B}[") && never.status == 0)
        let bad = try pokesearch(["pikachu", "--color=sometimes", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("--color takes auto, always or never"))
    }

    /// The completion scripts call `complete` at every TAB: nothing of it is history. A
    /// search and a `show` are, with their times.
    @Test func historyHoldsSearchesAndShowsWithTimes() throws {
        let path = Fixture.copyOfDatabase("history-kinds")
        let recording = ["POKESEARCH_NO_HISTORY": ""]
        let before = Date().timeIntervalSince1970
        _ = try pokesearch(["complete", "garcho", "--db", path, "--no-server"], environment: recording)
        _ = try pokesearch(["eevee", "--db", path], environment: recording)
        _ = try pokesearch(["show", "pikachu", "--db", path], environment: recording)
        _ = try pokesearch(["complete", "dracau", "--db", path, "--no-server"], environment: recording)
        let json = try pokesearch(["history", "--json", "--db", path])
        #expect(json.lines.map(historyQuery) == ["show pikachu", "eevee"])
        for line in json.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            let time = try #require(ISO8601DateFormatter().date(from: object["time"] ?? ""), "\(line)")
            #expect(time.timeIntervalSince1970 >= before.rounded(.down) - 1 && time.timeIntervalSince1970 <= Date().timeIntervalSince1970 + 1)
        }
        let human = try pokesearch(["history", "--db", path])
        #expect(human.lines.count == 2)
        #expect(human.lines.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d  "#, options: .regularExpression) != nil }, "\(human.lines)")
        #expect(human.lines[1].hasSuffix("  eevee"))
    }

    @Test(arguments: [
        (["pikachu", "--desc"], "--desc needs --sort"),
        (["show", "pikachu", "--sort", "id"], "show does not take --sort"),
        (["show", "pikachu", "--limit", "3"], "show does not take --limit"),
        (["complete", "pika", "--offset", "3"], "complete does not take --offset"),
        (["complete", "pika", "--sort", "id"], "complete does not take --sort"),
        (["history", "--kind", "move"], "history does not take --kind"),
        (["ingest", "--json"], "ingest does not take --json"),
        (["complete"], "complete needs the text being typed"),
    ])
    func optionsACommandWouldIgnoreAreRefused(words: [String], message: String) throws {
        let run = try pokesearch(words + ["--db", db])
        #expect(run.status == 2 && run.stdout.isEmpty)
        #expect(run.stderr.contains(message) && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// A generation the data does not have is a mistake to say, not an empty answer; one it
    /// has that matches nothing is "nothing found".
    @Test func aGenerationThatDoesNotExistIsAUsageError() throws {
        for query in ["gen:99", "pikachu gen>20", "kind:move gen:0"] {
            let run = try pokesearch([query, "--db", db])
            #expect(run.status == 2 && run.stderr.contains("no such generation: the data has generations 1 to"), "\(query): \(run.stderr)")
        }
        let none = try pokesearch(["pikachu gen:9", "--db", db])
        #expect(none.status == 1 && none.stderr.contains("nothing found"), "\(none.stderr)")
    }

    @Test func invalidUTF8InAnArgumentIsRefusedNamingIt() throws {
        // Foundation's Process cannot pass bytes that are not UTF-8: a shell does.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"exec "$0" --db "$1" "$(printf 'pika\303')""#, Fixture.binary.path, db]
        shell.environment = ["POKESEARCH_NO_HISTORY": "1", "POKESEARCH_SOCKET": "/nonexistent/s.sock"]
        let (status, stdout, stderr) = try runDrainingOutput(shell)
        #expect(status == 2 && stdout.isEmpty)
        #expect(stderr == "pokesearch: argument 3 ('pika\\xC3') is not valid UTF-8; pokesearch reads only UTF-8 text\n")
    }

    @Test func aDatabasePathThatIsNotUTF8IsRefused() throws {
        let directory = Fixture.temporaryDirectory("bad-path")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"POKESEARCH_DB="$1/db$(printf '\377').sqlite" exec "$0" pikachu"#, Fixture.binary.path, directory]
        shell.environment = ["POKESEARCH_NO_HISTORY": "1", "POKESEARCH_SOCKET": "/nonexistent/s.sock", "HOME": directory]
        let (status, _, stderr) = try runDrainingOutput(shell)
        #expect(status == 2 && stderr.contains("$POKESEARCH_DB") && stderr.contains("not valid UTF-8"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "no database made under another name")
    }

    @Test func aLocaleInPokesearchLangIsItsLanguageAndAnUnknownOneIsNamed() throws {
        let locale = try pokesearch(["charizard", "-n", "1", "--db", db], environment: ["POKESEARCH_LANG": "fr_FR.UTF-8"])
        #expect(locale.status == 0 && locale.stdout.contains("Dracaufeu"))
        let brazil = try pokesearch(["charizard", "-n", "1", "-j", "--db", db], environment: ["POKESEARCH_LANG": "pt_BR"])
        #expect(brazil.status == 0)
        let unknown = try pokesearch(["charizard", "--db", db], environment: ["POKESEARCH_LANG": "tlh_KX.UTF-8"])
        #expect(unknown.status == 2 && unknown.stderr.contains("POKESEARCH_LANG is 'tlh_KX.UTF-8'"), "\(unknown.stderr)")
    }

    /// coreutils' rule: output that could not be written is an error.
    @Test func aFailedWriteToStdoutIsAnError() throws {
        let full = try pokesearch(["pikachu", "--db", db], launcher: ["/bin/sh", "-c", #"exec "$0" "$@" >/dev/full"#])
        #expect(full.status == 3 && full.stderr.contains("cannot write the output: No space left on device"), "\(full.stderr)")
        let closed = try pokesearch(["pikachu", "--db", db], launcher: ["/bin/sh", "-c", #"exec "$0" "$@" >&-"#])
        #expect(closed.status == 3 && closed.stderr.contains("cannot write the output: Bad file descriptor"), "\(closed.stderr)")
        let pipe = try pokesearch(["kind:move", "-n", "1000", "--db", db], launcher: ["/bin/bash", "-c", #""$0" "$@" | true; exit ${PIPESTATUS[0]}"#])
        #expect(pipe.status == 3 && pipe.stderr.contains("Broken pipe"), "\(pipe.stderr)")
    }

    /// A name or query echoed in a message shows its control characters, never sends them.
    @Test func controlCharactersInMessagesAreShownNotSent() throws {
        let run = try pokesearch(["show", "x\u{1B}]0;pwned\u{07}", "--db", db])
        #expect(run.status == 1 && !run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"))
        #expect(run.stderr.contains(#"x\e]0;pwned\a"#), "\(run.stderr)")
    }

    @Test func showKindNarrowsAnAmbiguousName() throws {
        let ambiguous = try pokesearch(["show", "metronome", "--db", db])
        #expect(ambiguous.status == 1 && ambiguous.stderr.contains("move:metronome") && ambiguous.stderr.contains("item:metronome"))
        let move = try pokesearch(["show", "metronome", "-k", "move", "--db", db])
        #expect(move.status == 0 && move.stdout.contains("move:metronome"))
        let item = try pokesearch(["show", "metronome", "--kind", "item", "--json", "--db", db])
        #expect(item.status == 0 && item.stdout.contains(#""kind":"item""#))
    }

    @Test func spriteResolvesPokemonByTheirNamesOnly() throws {
        let run = try pokesearch(["sprite", "thunderbolt", "--db", db])
        #expect(run.status == 1 && run.stderr.contains("no Pokémon is named 'thunderbolt'"), "\(run.stderr)")
        // Offline (nothing listens at the API's address): the sprite's own words, not ingest's.
        let offline = try pokesearch(["sprite", "pikachu", "--api", "http://127.0.0.1:9/api/v2", "--db", db],
                                     environment: ["POKESEARCH_HTTP_ATTEMPTS": "1"])
        #expect(offline.status == 3 && offline.stderr.contains("cannot download the sprite of pikachu"), "\(offline.stderr)")
        #expect(!offline.stderr.contains("database"), "\(offline.stderr)")
    }

    @Test func favouritesSayWhatTheyAreAndTakeAliases() throws {
        let path = Fixture.copyOfDatabase("fav-aliases")
        #expect(try pokesearch(["fav", "add", "eevee", "--db", path]).stdout.hasPrefix("added Eevee"))
        let again = try pokesearch(["fav", "add", "eevee", "--db", path])
        #expect(again.status == 0 && again.stdout == "Eevee (pokemon:eevee) is already a favourite\n")
        let list = try pokesearch(["fav", "list", "--db", path]), plain = try pokesearch(["fav", "--db", path])
        #expect(list.status == 0 && list.stdout.contains("Eevee") && list.stdout == plain.stdout)
        let removed = try pokesearch(["fav", "rm", "eevee", "--db", path])
        #expect(removed.status == 0 && removed.stdout.hasPrefix("removed Eevee"))
    }

    /// RLIMIT_FSIZE with SIGXFSZ ignored fails writes with EFBIG, as a full disk does.
    @Test func favAddOnAFullDiskSaysWhatToDo() throws {
        let path = Fixture.copyOfDatabase("fav-full")
        // (Below the database's size: no write into it or its journal gets through.)
        let run = try pokesearch(["fav", "add", "eevee", "--db", path],
                                 launcher: ["/bin/sh", "-c", #"trap '' XFSZ; ulimit -f 1; exec "$0" "$@""#])
        #expect(run.status == 3 && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("free disk space") && !run.stderr.contains("INSERT"), "\(run.stderr)")
    }

    @Test func ingestCountsAreInWordsWithTheirPlurals() throws {
        let path = Fixture.temporaryDirectory("ingest-words") + "/db.sqlite"
        let run = try pokesearch(["ingest", "--db", path], environment: Fixture.smallCorpusEnvironment)
        #expect(run.status == 0)
        #expect(run.stdout.contains(" moves, ") && run.stdout.contains(" abilities, ") && run.stdout.contains(" Pokémon, "), "\(run.stdout)")
        #expect(!run.stdout.contains(" move,") && !run.stdout.contains(" ability,"))
    }
}

