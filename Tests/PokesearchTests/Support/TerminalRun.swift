import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
import Query
import Terminal
import Testing

/// `pokesearch` run on a pseudo-terminal of the test's own (posix_openpt): its controlling
/// terminal, standard input and error; standard output a pipe. What it draws is read into a
/// `VirtualScreen`.
final class TerminalRun {
    let master: Int32
    /// The terminal's side the program has, held open here too (its settings are read here).
    let slave: Int32
    let slavePath: String
    /// The terminal's settings (as `stty -g` prints them) before the program started: read
    /// before it is spawned, since it may take the terminal into raw mode at once.
    let settingsAtStart: String
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
        settingsAtStart = try Self.sttySettings(of: slavePath)
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
    func sttySettings() throws -> String { try Self.sttySettings(of: slavePath) }

    private static func sttySettings(of terminalPath: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/stty")
        process.arguments = ["-g"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: terminalPath))
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
