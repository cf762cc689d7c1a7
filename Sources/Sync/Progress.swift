import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Download progress on stderr: a redrawn bar on a terminal (done/total, requests per
/// second, ETA, retries), a plain line every few seconds otherwise, nothing when quiet.
public final class ProgressMeter: Sendable {
    public enum Style: Sendable { case bar, lines, silent }

    private struct State {
        var done = 0
        var total = 0
        var retries = 0
        var lastDrawn = 0.0
        var drewBar = false
    }

    private let style: Style
    private let label: String
    private let start = ProcessInfo.processInfo.systemUptime
    private let state = Locked(State())

    public init(style: Style, label: String) {
        self.style = style
        self.label = label
    }

    /// The style for stderr: a bar on a terminal, lines otherwise, silent with --quiet.
    public static func style(quiet: Bool) -> Style {
        quiet ? .silent : isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }

    func expect(_ count: Int) { state.withLock { $0.total += count } }

    /// One request done; `retries` is the total so far.
    func step(retries: Int) {
        guard style != .silent else { return }
        let now = ProcessInfo.processInfo.systemUptime
        let line: String? = state.withLock { state in
            state.done += 1
            state.retries = retries
            let interval = style == .bar ? 0.1 : 5
            guard now - state.lastDrawn >= interval || state.done == state.total else { return nil }
            state.lastDrawn = now
            state.drewBar = style == .bar
            return render(state, elapsed: now - start)
        }
        if let line { write(style == .bar ? "\r\u{1B}[K" + line : line + "\n") }
    }

    /// Clears the bar before other output.
    public func finish() {
        if state.withLock({ $0.drewBar }) { write("\r\u{1B}[K") }
    }

    private func render(_ state: State, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(state.done) / elapsed : 0
        let remaining = max(0, state.total - state.done)
        let eta = rate > 0 ? Self.duration(Double(remaining) / rate) : "?"
        let counts = "\(state.done)/\(state.total) \(label), \(Int(rate.rounded())) req/s, ETA \(eta), \(state.retries) retries"
        guard style == .bar else { return "pokesearch: \(counts)" }
        let width = 24
        let filled = state.total > 0 ? min(width, state.done * width / state.total) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + counts
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }

    private func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
