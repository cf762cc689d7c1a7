import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Buffered standard output and error, with colour only on a terminal without NO_COLOR
/// (or as `--color` says).
final class Output {
    private var buffer: [UInt8] = []
    private(set) var useColor: Bool
    let isTerminal: Bool
    /// Kept for `takeText` instead of written out (the interactive mode draws on its own screen).
    let captures: Bool
    /// Why writing to stdout failed (a full disk, a closed pipe), once it has.
    private(set) var writeError: Int32?

    init(environment: [String: String], isTerminal: Bool = isatty(STDOUT_FILENO) == 1, captures: Bool = false) {
        self.isTerminal = isTerminal
        self.captures = captures
        useColor = isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// `--color`: always and never override the terminal and NO_COLOR (as the flag is
    /// explicit and NO_COLOR a default); auto keeps them.
    func choose(_ choice: ColorChoice) {
        switch choice {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: break
        }
    }

    /// Lines are being taken by `capture`, not written.
    private var capturing = false

    func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count > 1 << 16 && !capturing { flush() }
    }

    /// The lines `body` writes, taken instead of written (to lay them out beside something).
    func capture(_ body: () -> Void) -> [String] {
        flush()
        capturing = true
        body()
        capturing = false
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll(keepingCapacity: true)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Writes what is buffered. A failed write is remembered (the command then exits with an
    /// error, as coreutils do) and what remains is dropped.
    func flush() {
        guard !captures else { return }
        var written = 0
        while written < buffer.count && writeError == nil {
            let n = buffer[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                writeError = n < 0 ? errno : EIO
                break
            }
            written += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// What was written since the last call (captured output).
    func takeText() -> String {
        defer { buffer.removeAll(keepingCapacity: true) }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The error line for a failed write to stdout, or nil if every write succeeded.
    var writeFailure: String? {
        writeError.map { "cannot write the output: \(String(cString: strerror($0))); check where standard output goes (a full disk, a closed pipe)" }
    }

    func paint(_ text: String, _ code: String) -> String { useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }

    static func error(_ message: String) {
        let text = "pokesearch: \(visible(message))\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    /// `text` with its control characters (an escape sequence someone put in a query or a
    /// file name) written out as `\e`, `\a` or `\u{…}`, so that echoing it cannot drive the
    /// terminal.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { shown.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\u{1B}": shown += "\\e"
            case "\u{07}": shown += "\\a"
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default: shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
