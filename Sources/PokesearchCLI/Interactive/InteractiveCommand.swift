import Catalog
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch -i` / `pokesearch interactive [QUERY]`: search as you type on the whole
/// terminal. The terminal is opened first (no terminal: exit 2 before anything loads),
/// then the catalog; each key is handled and the screen brought up to date in one write.
enum InteractiveCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let terminal = try InteractiveTerminal(environment: context.environment)
        InteractiveSignals.install()
        let catalog = try context.catalog()
        let session = try InteractiveSession(context: context, catalog: catalog, query: context.arguments.positional.joined(separator: " "))
        var size = terminal.size
        session.resize(rows: size.rows, columns: size.columns)
        var painter = ScreenPainter(rows: size.rows, columns: size.columns)
        var decoder = KeyDecoder()
        terminal.enter()
        defer { terminal.leave() }

        /// Takes the terminal back after the process was stopped (the shell may have reset it).
        func resume() {
            terminal.enter()
            size = terminal.size
            session.resize(rows: size.rows, columns: size.columns)
            painter.invalidate(rows: size.rows, columns: size.columns)
        }

        while true {
            terminal.write(painter.paint(session.frame()))
            var descriptors = [pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: InteractiveSignals.readEnd, events: Int16(POLLIN), revents: 0)]
            // A lone ESC waits a moment for the rest of a sequence (a cursor key) to follow.
            let ready = poll(&descriptors, 2, decoder.hasPending ? escapeWaitMilliseconds : -1)
            if ready < 0 { if errno == EINTR { continue }; return 3 }
            var keys: [Key] = []
            if ready == 0 { keys = decoder.flushPending() }
            for signal in descriptors[1].revents != 0 ? InteractiveSignals.take() : [] {
                switch signal {
                case SIGWINCH:
                    size = terminal.size
                    session.resize(rows: size.rows, columns: size.columns)
                    painter.invalidate(rows: size.rows, columns: size.columns)
                case SIGTSTP:
                    terminal.leave()
                    InteractiveSignals.stopSelf()
                    resume()
                case SIGCONT:
                    resume()
                default:
                    terminal.leave()
                    InteractiveSignals.die(by: signal)
                }
            }
            if descriptors[0].revents != 0 {
                let bytes = terminal.read()
                // The terminal hung up: nothing more will be typed.
                if bytes.isEmpty { return 0 }
                keys += decoder.feed(bytes)
            }
            for key in keys {
                switch session.handle(key) {
                case .stay: break
                case .redraw: painter.invalidate(rows: size.rows, columns: size.columns)
                case .suspend:
                    terminal.leave()
                    InteractiveSignals.stopSelf()
                    resume()
                case .quit(let picked):
                    terminal.leave()
                    if let picked { context.output.line(picked) }
                    return 0
                }
            }
        }
    }

    /// How long an ESC waits for the rest of an escape sequence before it is the Escape key
    /// (terminals send a sequence in one write; over a slow link its bytes may come apart).
    static let escapeWaitMilliseconds: Int32 = 25
}
