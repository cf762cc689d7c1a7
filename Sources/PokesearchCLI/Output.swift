import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Buffered standard output and error, with colour only on a terminal without NO_COLOR.
final class Output {
    private var buffer: [UInt8] = []
    let useColor: Bool
    let isTerminal: Bool
    /// Kept for `takeText` instead of written out (the interactive mode draws on its own screen).
    let captures: Bool

    init(environment: [String: String], isTerminal: Bool = isatty(STDOUT_FILENO) == 1, captures: Bool = false) {
        self.isTerminal = isTerminal
        self.captures = captures
        useColor = isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count > 1 << 16 { flush() }
    }

    func flush() {
        guard !captures else { return }
        var written = 0
        while written < buffer.count {
            let n = buffer[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                break // stdout closed (e.g. piped into head): nothing more to say
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

    func paint(_ text: String, _ code: String) -> String { useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }

    static func error(_ message: String) {
        let text = "pokesearch: \(message)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
