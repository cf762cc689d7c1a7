import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
import Query
import Terminal
import Testing

// MARK: The parts, without a terminal

@Suite("Interactive mode: keys, query line, screen")
struct InteractivePartsTests {
    @Test func keysDecodeFromTheTerminalsBytes() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("pika".utf8)) == [.text("pika")])
        #expect(decoder.feed([0x7F, 0x17, 0x15, 0x06, 0x0F, 0x03, 0x09, 0x0D]) ==
                [.backspace, .control("w"), .control("u"), .control("f"), .control("o"), .control("c"), .tab, .enter])
        #expect(decoder.feed(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[Z".utf8)) ==
                [.up, .down, .right, .left, .home, .end, .pageUp, .pageDown, .home, .end, .delete, .backTab])
        // A modifier does not change which key it is (Ctrl-Right is still Right here).
        #expect(decoder.feed(Array("\u{1B}[1;5C".utf8)) == [.right])
        #expect(decoder.feed(Array("\u{1B}b".utf8)) == [.alt("b")])
    }

    @Test func aLoneEscapeWaitsForWhatFollowsAndCharactersMayArriveInPieces() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty && decoder.hasPending)
        #expect(decoder.feed(Array("[B".utf8)) == [.down] && !decoder.hasPending, "the rest of a cursor key came later")
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flushPending() == [.escape] && !decoder.hasPending, "nothing followed: the Escape key")
        let kana = Array("ピカ".utf8)
        #expect(decoder.feed(kana.prefix(2)).isEmpty, "half a character")
        #expect(decoder.feed(kana.dropFirst(2)) == [.text("ピカ")])
        #expect(decoder.feed([0xFF, 0x41]) == [.text("A")], "a byte that starts nothing is skipped")
    }

    @Test func theQueryLineEditsAsReadlineDoes() {
        var line = QueryLine("fire dragon")
        line.deleteWordBackward()
        #expect(line.text == "fire " && line.cursor == 5)
        line.insert("ピカ")
        line.moveLeft()
        line.moveLeft()
        line.insert("x")
        #expect(line.text == "fire xピカ" && line.cursor == 6)
        line.moveHome()
        line.deleteForward()
        #expect(line.text == "ire xピカ" && line.cursor == 0)
        line.moveEnd()
        line.deleteBackward()
        #expect(line.text == "ire xピ")
        line.moveWordLeft()
        #expect(line.cursor == 4)
        line.deleteToStart()
        #expect(line.text == "xピ" && line.cursor == 0)
        line.moveRight()
        line.deleteToEnd()
        #expect(line.text == "x" && line.cursor == 1)
    }

    @Test func aFrameWritesOnlyTheRowsThatChanged() {
        var painter = ScreenPainter(rows: 4, columns: 10)
        let first = String(decoding: painter.paint(Frame(rows: ["> pi", "a", "b"], cursor: (0, 4))), as: UTF8.self)
        #expect(first.contains("\u{1B}[2J") && first.contains("a") && first.hasSuffix("\u{1B}[1;5H\u{1B}[?25h"))
        #expect(painter.paint(Frame(rows: ["> pi", "a", "b"], cursor: (0, 4))).isEmpty, "nothing changed: nothing written")
        let second = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "c"], cursor: (0, 5))), as: UTF8.self)
        #expect(second.contains("\u{1B}[1;1H> pik") && second.contains("\u{1B}[3;1Hc") && !second.contains("\u{1B}[2;1H"))
        #expect(!second.contains("\u{1B}[2J"))
        // A row as wide as the screen is not erased after (that would take its last column).
        let full = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "0123456789xyz"], cursor: (0, 5))), as: UTF8.self)
        #expect(full.contains("0123456789\u{1B}[0m") && !full.contains("0123456789\u{1B}[0m\u{1B}[K") && !full.contains("x"))
        painter.invalidate(rows: 2, columns: 10)
        let resized = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "c"], cursor: (0, 5))), as: UTF8.self)
        #expect(resized.contains("\u{1B}[2J") && !resized.contains("\u{1B}[3;1H"), "two rows now")
    }

    @Test func styledTextIsMeasuredAndCutByWhatShows() {
        let red = "\u{1B}[31mリザード\u{1B}[0m x"
        #expect(StyledText.width(red) == 10)
        #expect(StyledText.fit(red, to: 10) == red)
        #expect(StyledText.fit(red, to: 5) == "\u{1B}[31mリザ\u{1B}[0m", "a wide character does not straddle the edge; the colour is reset")
        #expect(StyledText.fit("a\tb\u{07}c", to: 10) == "a bc", "a tab is a space, a bell nothing")
        #expect(StyledText.width("\u{1B}]8;;https://pokeapi.co\u{1B}\\link\u{1B}]8;;\u{07}") == 4)
    }

    @Test func theMatchedPartOfANameIsLit() {
        func lit(_ query: String, _ name: String) -> String {
            let flags = MatchHighlighter(query: query).matched(in: name)
            return String(zip(name, flags).map { $1 ? $0 : "." })
        }
        #expect(lit("pika", "Pikachu") == "Pika...")
        #expect(lit("chu", "Pikachu") == "....chu")
        #expect(lit("mrmime", "Mr. Mime") == "Mr. Mime")
        #expect(lit("pokeball", "Poké Ball") == "Poké Ball")
        #expect(lit("ball type:water", "Dive Ball") == ".....Ball", "filters light nothing")
        #expect(lit("-ball fire", "Fire Stone") == "Fire......")
        #expect(lit("*meleon", "Charmeleon") == "....meleon")
        #expect(lit("zzz", "Pikachu") == ".......")
        // A word's start is preferred to an earlier place inside a word.
        #expect(lit("ma", "Mega Mawile") == ".....Ma....")
    }
}

// MARK: The session, over the test database

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

// MARK: The binary, through a pseudo-terminal

/// `pokesearch` run on a pseudo-terminal of the test's own (posix_openpt): its controlling
/// terminal, standard input and error; standard output a pipe. What it draws is read into a
/// `VirtualScreen`.
final class TerminalRun {
    let master: Int32
    /// The terminal's side the program has, held open here too (its settings are read here).
    let slave: Int32
    let slavePath: String
    let pid: pid_t
    private let stdoutRead: Int32
    private(set) var screen: VirtualScreen
    private(set) var status: Int32?
    /// Everything the program wrote on the terminal.
    private(set) var written: [UInt8] = []
    private var stdoutBytes: [UInt8] = []

    init(_ arguments: [String], rows: Int = 20, columns: Int = 80, environment: [String: String] = [:]) throws {
        master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
        try #require(master >= 0 && PseudoTerminal.grant(master) == 0 && PseudoTerminal.unlock(master) == 0)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        slavePath = String(cString: try #require(PseudoTerminal.name(master)))
        slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        screen = VirtualScreen(rows: rows, columns: columns)
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stdoutRead = ends[0]
        _ = fcntl(stdoutRead, F_SETFL, fcntl(stdoutRead, F_GETFL) | O_NONBLOCK)

        var env = ["PATH": "/usr/bin:/bin", "HOME": Fixture.temporaryDirectory("home"), "TERM": "xterm-256color",
                   "POKESEARCH_NO_HISTORY": "1", "POKESEARCH_SOCKET": "/nonexistent/pokesearch-test.sock"]
            .merging(Fixture.sanitizerEnvironment) { new, _ in new }
        for (k, v) in environment { env[k] = v }
        let words = [Fixture.binary.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // In a new session, the first terminal opened becomes the controlling one.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc's 0x80, which Swift's Glibc module does not export), and
        // every signal unblocked with its default action, whatever the test runner set.
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Fixture.binary.path, &actions, &attributes, argv, envp)
        close(ends[1])
        try #require(spawned == 0)
        self.pid = pid
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
        close(master)
        close(slave)
        close(stdoutRead)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Types `keys`, then waits for the program to end: its wait status.
    func press(_ keys: String) -> Int32? {
        send(keys)
        return waitForExit()
    }

    /// Types `keys`, then reads the screen until `condition` holds of it (true) or 20 s pass.
    func press(_ keys: String, until condition: (VirtualScreen) -> Bool) -> Bool {
        send(keys)
        return waitFor(condition)
    }

    /// Reads what the program draws until `condition` holds of the screen (true) or 20 s pass.
    @discardableResult
    func waitFor(_ condition: (VirtualScreen) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition(screen) {
            guard Date() < deadline else { return false }
            pump(milliseconds: 50)
        }
        return true
    }

    func waitFor(text: String) -> Bool { waitFor { $0.text.contains(text) } }

    /// Reads what arrives within `milliseconds`.
    func pump(milliseconds: Int32) {
        var descriptors = [pollfd(fd: master, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stdoutRead, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        if descriptors[0].revents & Int16(POLLIN) != 0 {
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n > 0 {
                written += buffer[..<n]
                screen.feed(buffer[..<n])
            }
        }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            let n = buffer.withUnsafeMutableBytes { read(stdoutRead, $0.baseAddress, $0.count) }
            if n > 0 { stdoutBytes += buffer[..<n] }
        }
    }

    /// Waits for the program to end (reading what it draws meanwhile): its wait status.
    func waitForExit() -> Int32? {
        let deadline = Date().addingTimeInterval(20)
        while status == nil && Date() < deadline {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw } else { pump(milliseconds: 20) }
        }
        pump(milliseconds: 0)
        return status
    }

    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }

    /// The terminal's settings as `stty -g` prints them.
    func sttySettings() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = ["-g"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: slavePath))
        return try runDrainingOutput(process).stdout
    }

    func resize(rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        screen.resize(rows: rows, columns: columns)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    func localFlags() -> tcflag_t {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings.c_lflag
    }
}

/// glibc's pseudo-terminal calls (posix_openpt, grantpt, unlockpt, ptsname), which Swift's
/// Glibc module leaves out (C declares them for X/Open only): looked up by name and called
/// through their C types.
enum PseudoTerminal {
    static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let name = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    private static func function<T>(_ name: String, as type: T.Type) -> T {
        // A nil handle is RTLD_DEFAULT: the process's own libraries, libc among them.
        guard let symbol = dlsym(nil, name) else { fatalError("libc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
}

/// A terminal's screen as the escape sequences the interactive mode writes leave it: cursor
/// positioning, erasing, the alternate screen; colours are read and dropped.
struct VirtualScreen {
    private(set) var rows: Int
    private(set) var columns: Int
    /// Each cell's character ("" for the second column of a wide one).
    private var cells: [[String]]
    private var row = 0, column = 0
    private(set) var alternate = false
    /// Whether a character was ever written past the right edge (where a terminal would
    /// wrap it onto the next row).
    private(set) var overflowed = false
    private var pending: [UInt8] = []

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    mutating func resize(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        row = min(row, rows - 1)
        column = min(column, columns)
    }

    func line(_ index: Int) -> String {
        guard cells.indices.contains(index) else { return "" }
        var text = cells[index].joined()
        while text.last == " " { text.removeLast() }
        return text
    }

    var lines: [String] { (0..<rows).map(line) }
    var text: String { lines.joined(separator: "\n") }

    mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending += bytes
        var position = 0
        while position < pending.count {
            guard let used = step(pending[position...]) else { break }
            position += used
        }
        pending.removeFirst(position)
    }

    /// Handles the sequence or character at the start of `bytes`: the bytes it took, or nil
    /// when it is not all there yet.
    private mutating func step(_ bytes: ArraySlice<UInt8>) -> Int? {
        let start = bytes.startIndex
        switch bytes[start] {
        case 0x1B:
            guard bytes.count > 1 else { return nil }
            guard bytes[start + 1] == UInt8(ascii: "[") else { return 2 }
            var end = start + 2
            while end < bytes.endIndex, (0x20...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.endIndex else { return nil }
            control(final: bytes[end], parameters: String(decoding: bytes[(start + 2)..<end], as: UTF8.self))
            return end - start + 1
        case 0x0D: column = 0; return 1
        case 0x0A: row = min(rows - 1, row + 1); return 1
        case 0..<0x20: return 1
        default:
            let first = bytes[start]
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let character = String(decoding: bytes[start..<start + length], as: UTF8.self)
            let width = DisplayWidth.of(character)
            if width == 0 { return length }
            guard column + width <= columns else { overflowed = true; return length }
            cells[row][column] = character
            if width == 2 { cells[row][column + 1] = "" }
            // Past the last column is where the next character would wrap.
            column += width
            return length
        }
    }

    private mutating func control(final: UInt8, parameters: String) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch final {
        case UInt8(ascii: "H"):
            row = max(1, min(rows, numbers.first ?? 1)) - 1
            column = max(1, min(columns, numbers.count > 1 ? numbers[1] : 1)) - 1
        case UInt8(ascii: "K"):
            for c in column..<columns { cells[row][c] = " " }
        case UInt8(ascii: "J") where parameters == "2":
            cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        case UInt8(ascii: "h") where parameters == "?1049": alternate = true
        case UInt8(ascii: "l") where parameters == "?1049": alternate = false
        default: break
        }
    }
}

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
        let before = try run.sttySettings()
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
        let before = try run.sttySettings()
        #expect(run.waitFor(text: "type to search"))
        kill(run.pid, SIGSEGV)
        let status = try #require(run.waitForExit())
        #expect(status & 0x7F == SIGSEGV)
        #expect(try run.sttySettings() == before && !run.screen.alternate)
    }

    @Test func stoppedAndContinuedItTakesTheTerminalBackAndRedraws() throws {
        let run = try TerminalRun(["-i", "pika", "--db", Fixture.database])
        let before = try run.sttySettings()
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

    /// Key to the frame's last byte, through the pseudo-terminal: each frame ends by showing
    /// the cursor. A generous bound (a debug build on a shared machine); BENCHMARKS-style
    /// figures come from the release build (the report's measurement).
    @Test func aKeystrokesFrameFollowsPromptly() throws {
        let run = try TerminalRun(["-i", "--db", Fixture.database])
        #expect(run.waitFor(text: "type to search"))
        var latencies: [Double] = []
        for key in Array("charizard") + Array(repeating: "\u{7F}", count: 9) {
            let drawn = run.written.count
            let start = DispatchTime.now().uptimeNanoseconds
            run.send(String(key))
            let ended = run.waitFor { _ in run.written.count > drawn && run.written.suffix(6).elementsEqual(Array("\u{1B}[?25h".utf8)) }
            #expect(ended)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let median = latencies.sorted()[latencies.count / 2]
        print("interactive key-to-frame latency through a pty: median \(median) ms over \(latencies.count) keys")
        #expect(median < 250)
        #expect(run.press("\u{03}") == 0)
    }
}
