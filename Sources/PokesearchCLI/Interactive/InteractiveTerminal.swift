import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal (`/dev/tty`, so standard output may be a pipe for the chosen
/// slug), put in raw mode on the alternate screen while the interactive mode runs, and put
/// back as it was on every way out: a return, a quitting signal, a suspension.
final class InteractiveTerminal {
    let fd: Int32
    /// The terminal's settings before raw mode, put back by `leave`.
    private let original: termios
    private(set) var isActive = false

    /// Opens the controlling terminal, or says why the interactive mode cannot run.
    init(environment: [String: String]) throws {
        if environment["TERM"] == "dumb" {
            throw CLIError.usage("interactive mode needs a terminal that can move its cursor (TERM is dumb); search with `pokesearch QUERY` instead")
        }
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw CLIError.usage("interactive mode needs a terminal (/dev/tty: \(String(cString: strerror(errno)))); search with `pokesearch QUERY` instead")
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CLIError.usage("interactive mode needs a terminal (/dev/tty: \(reason)); search with `pokesearch QUERY` instead")
        }
        self.fd = fd
        original = settings
    }

    deinit {
        leave()
        close(fd)
    }

    /// Raw mode (each key as it is typed, no echo, Ctrl-C and Ctrl-Z as keys, no flow
    /// control), the alternate screen, and the application keypad off (cursor keys as CSI).
    func enter() {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag = (raw.c_cflag & ~tcflag_t(CSIZE | PARENB)) | tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // TCSANOW: keys typed while the index was loading stay to be read.
        _ = tcsetattr(fd, TCSANOW, &raw)
        CrashRestore.arm(fd: fd, original: original)
        isActive = true
        write(Array("\u{1B}[?1049h\u{1B}[?1l\u{1B}[0m".utf8))
    }

    /// The main screen back, the cursor shown, and the settings as they were.
    func leave() {
        guard isActive else { return }
        isActive = false
        write(Array(Self.leaveSequence.utf8))
        var settings = original
        _ = tcsetattr(fd, TCSANOW, &settings)
        CrashRestore.disarm()
    }

    /// Back to the main screen, plain text, the cursor shown.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// The terminal's size now (the environment's COLUMNS and LINES are the shell's, stale
    /// after a resize: not read).
    var size: (rows: Int, columns: Int) {
        (TerminalSize.rows(environment: [:], fd: fd), TerminalSize.columns(environment: [:], fd: fd))
    }

    /// Writes all of `bytes` (one frame: one call, unless the terminal takes it in parts).
    func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return }
            written += n
        }
    }

    /// Bytes typed, once some are there: an empty array when the terminal is gone.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Array(buffer[..<n]) : []
        }
    }
}

/// Signals, turned into bytes on a pipe that the interactive loop polls beside the terminal:
/// a handler may do next to nothing safely, and the loop restores the terminal, redraws or
/// suspends at a point where its state is whole.
enum InteractiveSignals {
    /// Quitting signals: the terminal is restored, then the signal is raised again with its
    /// default action (the parent sees the process end by it).
    static let quitting: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    static let handled: [Int32] = quitting + [SIGWINCH, SIGTSTP, SIGCONT]

    /// The pipe's read end, for `poll`.
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers (once; both ends of the pipe non-blocking: a full pipe drops a
    /// signal rather than block the handler).
    static func install() {
        guard readEnd < 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for signal in handled { handle(signal) }
    }

    /// The signals that arrived since the last call, in order.
    static func take() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return signals }
            signals += buffer[..<n].map { Int32($0) }
        }
    }

    /// Ends the process by `signal` with its default action (after the terminal is restored).
    static func die(by signal: Int32) -> Never {
        _ = Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        _ = sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        // A signal whose default is not to end the process (none of the quitting ones).
        exit(128 + signal)
    }

    /// Stops the process as Ctrl-Z would (the shell takes the terminal back) until SIGCONT.
    static func stopSelf() {
        _ = Glibc.signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Continued: the handler again, for the next Ctrl-Z from outside.
        handle(SIGTSTP)
    }

    /// The handler: the signal's number, written to the pipe.
    private static func handle(_ signal: Int32) {
        _ = Glibc.signal(signal) { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = Glibc.write(InteractiveSignals.writeEnd, &byte, 1)
            errno = saved
        }
    }
}

/// A crash (a runtime trap, a bad access, an abort) while the terminal is in raw mode: the
/// handler puts the terminal back as it was, then hands the signal to the handler that was
/// there before (the runtime's backtracer, or the default action), which ends the process.
/// Only async-signal-safe calls in the handler: `write`, `tcsetattr`, `sigaction`, `raise`.
enum CrashRestore {
    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]
    /// The terminal to restore, or -1 while it is not in raw mode.
    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// The actions before ours, by signal number (Linux numbers signals below 65).
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) private static let leaveSequence: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array(InteractiveTerminal.leaveSequence.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()
    nonisolated(unsafe) private static var installed = false

    /// From now on a crash restores `fd` to `original`.
    static func arm(fd: Int32, original: termios) {
        _ = leaveSequence
        settings.pointee = original
        Self.fd = fd
        guard !installed else { return }
        installed = true
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if CrashRestore.fd >= 0 {
                    _ = write(CrashRestore.fd, CrashRestore.leaveSequence.baseAddress, CrashRestore.leaveSequence.count)
                    _ = tcsetattr(CrashRestore.fd, TCSANOW, CrashRestore.settings)
                }
                _ = sigaction(number, CrashRestore.previous + Int(number), nil)
                // Delivered when this handler returns (the signal is blocked until then); a
                // fault would also come again from the instruction that made it.
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// The terminal is restored: a crash now has nothing to put back.
    static func disarm() { fd = -1 }
}
