import Foundation
import Glibc
import Locking
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 (ephemeral port) for the sync tests: keep-alive,
/// ETag / Last-Modified with 304s, and injected failures. Routes map a path (query string
/// removed) to a handler; every request is logged.
final class TestHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json; charset=utf-8"
        var headers: [(String, String)] = []
        var cacheable = true
    }

    enum Fault: Sendable {
        case status(Int)
        case tooManyRequests(retryAfter: Int)
        /// Reads the request and never answers.
        case stall
        /// Declares the whole body's length, sends half of it and closes the connection.
        case truncate
        /// A 200 whose body is not JSON.
        case garbage
    }

    struct LoggedRequest: Sendable {
        var path: String
        var query: String
        var conditional: Bool
        var status: Int
        var bodyBytes: Int
        var userAgent: String
    }

    private struct State {
        var routes: [String: @Sendable (_ query: String) -> Response] = [:]
        var faults: [(matches: @Sendable (String) -> Bool, fault: Fault, remaining: Int)] = []
        var log: [LoggedRequest] = []
    }

    let port: Int
    private let listener: Int32
    private let state = Locked(State())
    private let stopped = Atomic<Bool>(false)
    static let lastModified = "Wed, 01 Jan 2025 00:00:00 GMT"

    var origin: String { "http://127.0.0.1:\(port)" }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    func route(_ path: String, _ handler: @escaping @Sendable (_ query: String) -> Response) {
        state.withLock { $0.routes[path] = handler }
    }

    func route(_ path: String, json: [UInt8]) {
        route(path) { _ in Response(status: 200, body: json) }
    }

    /// Injects `fault` for the next `times` requests whose path matches.
    func inject(_ fault: Fault, times: Int = .max, where matches: @escaping @Sendable (String) -> Bool) {
        state.withLock { $0.faults.append((matches, fault, times)) }
    }

    func clearFaults() { state.withLock { $0.faults.removeAll() } }
    var log: [LoggedRequest] { state.withLock { $0.log } }
    func clearLog() { state.withLock { $0.log.removeAll() } }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while !stopped.load(ordering: .relaxed) {
            guard let end = headerEnd(buffer) else {
                let n = recv(client, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
                continue
            }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            let lines = head.components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count == 3 else { return }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let target = String(parts[1])
            let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
            let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
            guard respond(client, path: path, query: query, headers: headers) else { return }
        }
    }

    private func headerEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Answers one request; false when the connection must close.
    private func respond(_ client: Int32, path: String, query: String, headers: [String: String]) -> Bool {
        let conditional = headers["if-none-match"] != nil || headers["if-modified-since"] != nil
        let (handler, fault): ((@Sendable (String) -> Response)?, Fault?) = state.withLock { state in
            var fault: Fault? = nil
            if let index = state.faults.firstIndex(where: { $0.remaining > 0 && $0.matches(path) }) {
                fault = state.faults[index].fault
                state.faults[index].remaining -= 1
            }
            return (state.routes[path] ?? state.routes[path.hasSuffix("/") ? String(path.dropLast()) : path + "/"], fault)
        }
        var response = handler?(query) ?? Response(status: 404, body: Array("Not Found".utf8), contentType: "text/plain", cacheable: false)
        var truncate = false
        switch fault {
        case .status(let status)?:
            response = Response(status: status, body: Array("Error".utf8), contentType: "text/plain", cacheable: false)
        case .tooManyRequests(let seconds)?:
            response = Response(status: 429, body: Array("Slow down".utf8), contentType: "text/plain",
                                headers: [("Retry-After", String(seconds))], cacheable: false)
        case .stall?:
            record(path, query, conditional, 0, 0, headers)
            let end = Date().addingTimeInterval(30)
            while !stopped.load(ordering: .relaxed), Date() < end { Thread.sleep(forTimeInterval: 0.05) }
            return false
        case .truncate?:
            truncate = true
        case .garbage?:
            response = Response(status: 200, body: Array("<html><body>Service Unavailable</body></html>".utf8), contentType: "text/html")
        case nil:
            break
        }
        var extra = response.headers
        if response.status == 200 && response.cacheable {
            let etag = "\"\(Self.hash(response.body))\""
            extra += [("ETag", etag), ("Last-Modified", Self.lastModified)]
            if headers["if-none-match"] == etag || (headers["if-none-match"] == nil && headers["if-modified-since"] == Self.lastModified) {
                response = Response(status: 304, body: [], headers: [("ETag", etag)])
                extra = response.headers
            }
        }
        let reason = [200: "OK", 304: "Not Modified", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
                      503: "Service Unavailable"][response.status] ?? "Status"
        var head = "HTTP/1.1 \(response.status) \(reason)\r\nContent-Length: \(response.body.count)\r\n"
        if response.status != 304 { head += "Content-Type: \(response.contentType)\r\n" }
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let body = truncate ? Array(response.body.prefix(response.body.count / 2)) : response.body
        record(path, query, conditional, response.status, body.count, headers)
        guard send(client, Array(head.utf8) + body) else { return false }
        return !truncate
    }

    private func record(_ path: String, _ query: String, _ conditional: Bool, _ status: Int, _ bytes: Int, _ headers: [String: String]) {
        let entry = LoggedRequest(path: path, query: query, conditional: conditional, status: status, bodyBytes: bytes,
                                  userAgent: headers["user-agent"] ?? "")
        state.withLock { $0.log.append(entry) }
    }

    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
