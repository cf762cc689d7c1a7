import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
import Query
import Terminal
import Testing

/// The interactive mode's session, over the test database, without a terminal.
@Suite("Interactive mode: session")
struct InteractiveSessionTests {
    func session(_ query: String = "", arguments extra: [String] = [], environment extraEnvironment: [String: String] = [:],
                 rows: Int = 20, columns: Int = 80) throws -> InteractiveSession {
        let arguments = try Arguments.parse(["--db", Fixture.database] + extra)
        let environment = ["TERM": "xterm-256color", "POKESEARCH_NO_HISTORY": "1"].merging(extraEnvironment) { $1 }
        let context = CommandContext(arguments: arguments, environment: environment,
                                     output: Output(environment: environment, isTerminal: false, captures: true))
        let session = try InteractiveSession(context: context, catalog: try context.catalog(), query: query)
        session.resize(rows: rows, columns: columns)
        return session
    }

    func type(_ text: String, into session: InteractiveSession) {
        for character in text { _ = session.handle(.text(String(character))) }
    }

    @Test func everyKeystrokeSearchesAgain() throws {
        let session = try session()
        #expect(session.results.isEmpty && session.total == 0)
        type("pik", into: session)
        #expect(session.results.first?.slug == "pikachu")
        _ = session.handle(.control("w"))
        #expect(session.query.text.isEmpty && session.results.isEmpty)
        type("char", into: session)
        #expect(session.results.prefix(3).map(\.slug) == ["charmander", "charmeleon", "charizard"])
        #expect(session.total > session.results.count && session.results.count == session.listRows)
    }

    @Test func movingPastTheScreenPagesThroughAllResults() throws {
        let session = try session("type:water", rows: 8)
        let rows = session.listRows
        let all = try Fixture.engine.search("type:water", options: { var o = SearchOptions(); o.limit = rows * 3; return o }())
        for _ in 0..<rows { _ = session.handle(.down) }
        #expect(session.selected == rows && session.top == 1)
        #expect(session.results.first?.doc == Array(all.results)[1].doc)
        _ = session.handle(.pageDown)
        #expect(session.selected == 2 * rows && session.results.last?.doc == Array(all.results)[2 * rows].doc)
        _ = session.handle(.pageUp)
        _ = session.handle(.pageUp)
        _ = session.handle(.up)
        #expect(session.selected == 0 && session.top == 0)
    }

    @Test func tabCyclesTheKindAndCtrlOPicksTheSlug() throws {
        let session = try session("thunder")
        #expect(session.kind == nil)
        _ = session.handle(.tab)
        #expect(session.kind == Kind.allCases[0] && session.results.allSatisfy { $0.kind == Kind.allCases[0] })
        for _ in Kind.allCases { _ = session.handle(.tab) }
        #expect(session.kind == nil, "all kinds again after the last")
        _ = session.handle(.backTab)
        #expect(session.kind == Kind.allCases.last)
        let pikachu = try self.session("pikachu")
        #expect(pikachu.handle(.control("o")) == .quit(picked: "pikachu"))
        // A slug two kinds share is given with its kind, which `show` takes.
        let metronome = try self.session("metronome", arguments: ["--kind", "item"])
        #expect(metronome.handle(.control("o")) == .quit(picked: "item:metronome"))
    }

    @Test func escapeClearsTheQueryThenQuits() throws {
        let session = try session("pika")
        #expect(session.handle(.escape) == .stay && session.query.text.isEmpty)
        #expect(session.handle(.escape) == .quit(picked: nil))
        #expect(try self.session("pika").handle(.control("c")) == .quit(picked: nil))
    }

    /// Opening a page from a query is a search the person ran: it is recorded (unless
    /// POKESEARCH_NO_HISTORY says not to).
    @Test func openingAPageRecordsTheQuery() throws {
        let database = Fixture.copyOfDatabase("interactive-history")
        let arguments = try Arguments.parse(["--db", database])
        let context = CommandContext(arguments: arguments, environment: ["TERM": "xterm"],
                                     output: Output(environment: [:], isTerminal: false, captures: true))
        let session = try InteractiveSession(context: context, catalog: try context.catalog(), query: "bulbasaur")
        #expect(try context.catalog().store.history().isEmpty)
        _ = session.handle(.enter)
        #expect(try context.catalog().store.history() == ["bulbasaur"])
    }

    @Test func enterOpensShowsPageAndEscapeComesBack() throws {
        let session = try session("char")
        _ = session.handle(.down)
        _ = session.handle(.enter)
        let page = try #require(session.page)
        // `show`'s page (its title, the genus it shows), whatever its layout.
        #expect(page.lines.first?.contains("Charmeleon") == true && page.lines.contains { $0.contains("Flame Pokémon") })
        #expect(session.frame().rows.first?.contains("Charmeleon") == true)
        _ = session.handle(.pageDown)
        #expect(session.page?.top ?? 0 > 0)
        _ = session.handle(.text("q"))
        #expect(session.page == nil && session.query.text == "char" && session.selected == 1)
    }

    /// The list and a page, drawn on a screen that notes any character written past its
    /// right edge, in languages with wide characters and on narrow screens.
    @Test(arguments: [(20, 80, "en"), (20, 40, "ja"), (5, 25, "ko"), (2, 12, "zh-hans")])
    func noCharacterGoesPastTheScreensEdge(rows: Int, columns: Int, language: String) throws {
        let session = try session("pika", arguments: ["--lang", language], rows: rows, columns: columns)
        var painter = ScreenPainter(rows: rows, columns: columns)
        var screen = VirtualScreen(rows: rows, columns: columns)
        screen.feed(painter.paint(session.frame()))
        #expect(screen.line(min(2, rows - 1)).contains(rows > 2 ? "#\(try #require(session.results.first).id)" : "found"))
        _ = session.handle(.enter)
        screen.feed(painter.paint(session.frame()))
        #expect(session.page != nil && !screen.line(0).isEmpty)
        #expect(!screen.overflowed, "\(screen.text)")
    }

    @Test func theCursorStaysOnScreenInALongQuery() throws {
        let session = try session(String(repeating: "ピカチュウ ", count: 10), columns: 30)
        let frame = session.frame()
        let cursor = try #require(frame.cursor)
        #expect(cursor.column < 30 && cursor.row == 0)
        #expect(StyledText.width(frame.rows[0]) <= 30)
    }

    /// Colour by the CLI's rules, for the terminal it draws on (standard output, here not a
    /// terminal, does not matter): the type's colour and the lit match; none with NO_COLOR.
    @Test func colourFollowsNoColor() throws {
        let coloured = try session("pika").frame().rows
        #expect(coloured[2].contains("\u{1B}[1;4mPika\u{1B}[0m") && coloured[2].contains("\u{1B}[38;5;220melectric"), "\(coloured[2])")
        let plain = try session("pika", environment: ["NO_COLOR": "1"])
        _ = plain.handle(.enter)
        #expect(!plain.frame().rows.joined().contains("\u{1B}"))
        _ = plain.handle(.escape)
        #expect(!plain.frame().rows.joined().contains("\u{1B}") && plain.frame().rows[2].contains("Pikachu"))
    }

    @Test func theKindOptionIsTheFirstFilter() throws {
        let session = try session("thunder", arguments: ["--kind", "move"])
        #expect(session.kind == .move && !session.results.isEmpty && session.results.allSatisfy { $0.kind == .move })
        #expect(session.frame().rows[1].contains("kind: move"))
    }

    @Test func aBadQuerySaysWhatIsWrong() throws {
        let session = try session("hp>abc")
        #expect(session.results.isEmpty && session.frame().rows[1].contains("hp"))
    }
}
