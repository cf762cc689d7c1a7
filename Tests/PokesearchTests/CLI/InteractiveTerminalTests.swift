import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
import Query
import Terminal
import Testing

@Suite("Interactive mode: on a terminal", .serialized)
struct InteractiveTerminalTests {
    @Test func typingPikaShowsPikachuFirst() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database])
        #expect(run.waitFor(text: "type to search"))
        #expect(run.press("pika") { $0.line(2).contains("Pikachu") && $0.line(1).contains("found") }, "\(run.screen.text)")
        #expect(run.screen.line(0) == "> pika" && run.screen.alternate)
        #expect(run.press("\u{03}") == 0)
        #expect(!run.screen.alternate && run.stdout.isEmpty, "Ctrl-C quits with nothing printed")
    }

    @Test func enterShowsThePageAndEscapeComesBackWithTheQuery() throws {
        let run = try TerminalRun(["interactive", "--db", Fixture.database])
        #expect(run.waitFor(text: "type to search"))
        #expect(run.press("char") { $0.line(2).contains("Charmander") })
        #expect(run.press("\u{1B}[B") { $0.line(3).hasPrefix("▌") && $0.line(3).contains("Charmeleon") })
        #expect(run.press("\r") { $0.line(0).contains("Charmeleon") && $0.text.contains("Flame Pokémon") }, "\(run.screen.text)")
        #expect(run.press("\u{1B}") { $0.line(0) == "> char" && $0.line(3).hasPrefix("▌") }, "\(run.screen.text)")
        #expect(run.press("\u{1B}") { $0.line(0) == ">" })
        #expect(run.press("\u{1B}") == 0, "Esc on an empty query quits")
    }

    @Test func ctrlFMarksAFavouriteThatFavListsAfter() throws {
        let database = Fixture.copyOfDatabase("interactive-fav")
        let run = try TerminalRun(["-i", "pikachu", "--db", database])
        #expect(run.waitFor { $0.line(2).contains("Pikachu") })
        #expect(run.press("\u{06}") { $0.text.contains("added Pikachu to favourites") })
        #expect(run.screen.line(2).contains("★"))
        #expect(run.press("\u{03}") == 0)
        let favourites = try pokesearch(["fav", "--db", database])
        #expect(favourites.status == 0 && favourites.lines.count == 1 && favourites.stdout.contains("Pikachu"), "\(favourites)")
    }

    @Test func ctrlOPrintsTheSlugOnStandardOutput() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database])
        #expect(run.waitFor(text: "type to search"))
        #expect(run.press("bulba") { $0.line(2).contains("Bulbasaur") })
        #expect(run.press("\u{0F}") == 0)
        #expect(run.stdout == "bulbasaur\n", "stdout is a pipe; the screen went to the terminal")
        #expect(!run.screen.alternate)
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let run = try TerminalRun(["-i", "type:water", "--db", Fixture.database], rows: 20, columns: 80)
        #expect(run.waitFor { $0.line(19).contains("esc quit") })
        run.resize(rows: 10, columns: 40)
        #expect(run.waitFor { screen in
            screen.line(9).hasPrefix("↵ page") && screen.line(0) == "> type:water" && !screen.line(8).isEmpty
        }, "\(run.screen.text)")
        #expect(run.screen.lines.allSatisfy { StyledText.width($0) <= 40 })
        #expect(run.press("\u{03}") == 0)
    }

    @Test func theTerminalsModeIsRestoredAfterSIGTERM() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database])
        let before = run.settingsAtStart
        #expect(run.waitFor(text: "type to search"))
        #expect(run.localFlags() & tcflag_t(ICANON | ECHO) == 0, "raw mode while it runs")
        #expect(try run.sttySettings() != before)
        kill(run.pid, SIGTERM)
        let status = try #require(run.waitForExit())
        #expect(status & 0x7F == SIGTERM, "ended by the signal, as its parent should see")
        #expect(try run.sttySettings() == before)
        #expect(!run.screen.alternate, "the main screen is back")
    }

    /// A crash (here a SIGSEGV sent to it) restores the terminal before the process ends by it.
    @Test func theTerminalsModeIsRestoredAfterACrash() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database], environment: ["SWIFT_BACKTRACE": "enable=no"])
        let before = run.settingsAtStart
        #expect(run.waitFor(text: "type to search"))
        kill(run.pid, SIGSEGV)
        let status = try #require(run.waitForExit())
        #expect(status & 0x7F == SIGSEGV)
        #expect(try run.sttySettings() == before && !run.screen.alternate)
    }

    @Test func stoppedAndContinuedItTakesTheTerminalBackAndRedraws() throws {
        let run = try TerminalRun(["-i", "pika", "--db", Fixture.database])
        let before = run.settingsAtStart
        #expect(run.waitFor { $0.line(2).contains("Pikachu") })
        kill(run.pid, SIGSTOP)
        var raw: Int32 = 0
        #expect(waitpid(run.pid, &raw, WUNTRACED) == run.pid && raw & 0xFF == 0x7F, "stopped")
        // What a shell does while a job is stopped: its own settings, its own screen.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = [before]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: run.slavePath))
        _ = try runDrainingOutput(process)
        kill(run.pid, SIGCONT)
        #expect(run.waitFor { _ in run.localFlags() & tcflag_t(ICANON) == 0 }, "raw mode again")
        let drawnBefore = run.written.count
        #expect(run.press("c") { $0.line(0) == "> pikac" })
        #expect(run.written.count > drawnBefore)
        #expect(run.press("\u{03}") == 0)
    }

    @Test func withoutATerminalItSaysSoAndExitsTwo() throws {
        let run = try pokesearch(["-i", "--db", Fixture.database], launcher: ["/usr/bin/setsid", "-w"])
        #expect(run.status == 2 && run.stderr.contains("needs a terminal") && run.stdout.isEmpty, "\(run)")
        let dumb = try TerminalRun(["-i", "--db", Fixture.database], environment: ["TERM": "dumb"])
        #expect(dumb.waitForExit() == 2 << 8)
    }

    /// Each key draws one frame, in one go, and only over what it changed: the work that
    /// makes the screen follow the keys, counted (how long a frame takes is the machine's, not
    /// the code's). Frames start by hiding the cursor and end by showing it; a full redraw
    /// (the first frame, a resize) clears the screen first.
    @Test func eachKeystrokeDrawsOneFrameWithoutClearingTheScreen() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database])
        #expect(run.waitFor(text: "type to search"))
        let frameStart = Array("\u{1B}[?25l".utf8), frameEnd = Array(ScreenPainter.frameEnd.utf8), clear = Array("\u{1B}[2J".utf8)
        #expect(run.written.ranges(of: clear).count == 1, "the first frame clears the screen")
        for key in Array("charizard") + Array(repeating: "\u{7F}", count: 9) {
            let drawn = run.written.count
            run.send(String(key))
            #expect(run.waitFor { _ in run.written.count > drawn && run.written.suffix(frameEnd.count).elementsEqual(frameEnd) })
            let frame = Array(run.written[drawn...])
            #expect(frame.ranges(of: frameStart).count == 1 && frame.ranges(of: frameEnd).count == 1, "one frame for '\(key)'")
            #expect(frame.ranges(of: clear).isEmpty, "'\(key)' redrew the whole screen")
        }
        #expect(run.screen.line(0) == ">", "\(run.screen.text)")
        #expect(run.press("\u{03}") == 0)
    }
}
