import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The width output is laid out for: `COLUMNS` when set to a positive number (so tests and
/// scripts can fix it), else the terminal's own on standard output or `/dev/tty`'s side
/// (`fd`), else 80.
public enum TerminalSize {
    public static let fallbackColumns = 80

    public static func columns(environment: [String: String], fd: Int32 = STDOUT_FILENO) -> Int {
        if let text = environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        let measured = pokesearch_terminal_columns(fd)
        return measured > 0 ? Int(measured) : fallbackColumns
    }

    /// Rows of the terminal on `fd` (`LINES` when set), else 24.
    public static func rows(environment: [String: String], fd: Int32 = STDOUT_FILENO) -> Int {
        if let text = environment["LINES"], let value = Int(text), value > 0 { return value }
        let measured = pokesearch_terminal_rows(fd)
        return measured > 0 ? Int(measured) : 24
    }
}
