import Foundation
import Server
#if canImport(Glibc)
import Glibc
#endif

/// Asks a running `pokesearch serve` instead of loading the index, when one answers on
/// the socket, runs as the same user and serves the same database. Every failure (no
/// server, another user's or another database's, a timeout, an answer it cannot read)
/// returns nil and the command runs locally.
struct ServerClient {
    /// The decoded response line and its elements' raw JSON texts (for --json, which
    /// prints exactly the objects the server sent).
    struct Answer {
        let fields: [String: Any]
        let elements: [String]
    }

    /// How long a running server may take to answer before the command answers itself.
    static let timeoutSeconds = 2

    /// Sends `request` and returns its answer; `elementsKey` names the array whose objects
    /// are returned raw. A query error from the server is thrown as the local engine would.
    static func ask(_ request: Request, elementsKey: String, context: CommandContext) throws -> Answer? {
        guard !context.arguments.flags.contains("--no-server"), let line = request.line else { return nil }
        let socketPath = SocketPath.resolve(override: context.arguments.values["--socket"], environment: context.environment)
        guard case .success(let fd) = UnixSocket.connect(path: socketPath) else { return nil }
        defer { close(fd) }
        // Only a server of our own user is asked: another user's process listening at the
        // path (say under a world-writable /tmp) would see the queries and choose the answers.
        guard UnixSocket.peerUser(fd) == getuid() else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // STATS first: it names the database the server answers from (a server for another
        // database is not asked; a round trip costs microseconds).
        var reader = LineReader(fd: fd)
        guard send(fd, "STATS\n"), let statsLine = reader.next(), let stats = decode(statsLine),
              let database = stats["database"] as? String,
              canonicalPath(database) == canonicalPath(context.databasePath),
              send(fd, line + "\n"), let answerLine = reader.next(), let fields = decode(answerLine) else { return nil }
        if fields["ok"] as? Bool != true {
            let error = fields["error"] as? [String: Any]
            if error?["code"] as? String == "bad_query", let message = error?["message"] as? String {
                throw CLIError.usage("bad query: \(message)")
            }
            return nil
        }
        guard let elements = arrayElements(answerLine, key: elementsKey) else { return nil }
        return Answer(fields: fields, elements: elements)
    }

    private static func send(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    private static func decode(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    private static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The raw JSON text of each element of the array at `"key":[` in a response line.
    static func arrayElements(_ line: String, key: String) -> [String]? {
        let utf8 = Array(line.utf8)
        let marker = Array("\"\(key)\":[".utf8)
        guard let start = utf8.indices.first(where: { utf8[$0...].starts(with: marker) }) else { return nil }
        var elements: [String] = []
        var depth = 0, inString = false, escaped = false
        var elementStart = start + marker.count
        for i in (start + marker.count)..<utf8.count {
            let byte = utf8[i]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: "]") where depth > 0: depth -= 1
            case UInt8(ascii: ",") where depth == 0, UInt8(ascii: "]"):
                if i > elementStart { elements.append(String(decoding: utf8[elementStart..<i], as: UTF8.self)) }
                if byte == UInt8(ascii: "]") { return elements }
                elementStart = i + 1
            default: break
            }
        }
        return nil
    }
}

/// Response lines from a socket, read in large chunks.
private struct LineReader {
    let fd: Int32
    private var received: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next line, or nil when the connection ends or times out first.
    mutating func next() -> String? {
        var searched = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = received[searched...].firstIndex(of: 10) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                return line
            }
            searched = received.count
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            received.append(contentsOf: chunk[..<n])
        }
    }
}
