import Foundation
import Server
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built binary, the shared test database and a running server, for the socket tests.
enum ServerFixture {
    static let repository = Fixture.root
    static let binary = Fixture.binary.path

    /// The database of the server tests: the tests' shared one. Tests that change the
    /// database make their own copy.
    static var database: String { Fixture.database }

    /// A new directory of its own for one test.
    static func temporaryDirectory() -> String { Fixture.temporaryDirectory("server") }

    struct RunResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary to completion.
    static func run(_ arguments: [String], environment: [String: String] = [:]) -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["POKESEARCH_NO_HISTORY"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let (status, stdout, stderr) = try! runDrainingOutput(process)
        return RunResult(status: status, stdout: stdout, stderr: stderr)
    }
}

/// A `pokesearch serve` process on its own socket.
final class RunningServer {
    let process = Process()
    let socketPath: String
    let directory: String
    private let errorPipe = Pipe()

    /// `user`: run the server as that user (through setpriv; the tests must run as root).
    init(database: String = ServerFixture.database, extraArguments: [String] = [], socketPath: String? = nil,
         user: uid_t? = nil) throws {
        directory = ServerFixture.temporaryDirectory()
        self.socketPath = socketPath ?? directory + "/s.sock"
        let arguments = ["serve", "--db", database, "--socket", self.socketPath] + extraArguments
        if let user {
            process.executableURL = URL(fileURLWithPath: RunningServer.setpriv)
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", ServerFixture.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: ServerFixture.binary)
            process.arguments = arguments
        }
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let client = try? TestClient(path: self.socketPath) {
                let answer = try client.request("PING")
                if answer == #"{"ok":true}"# { return }
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        stop()
        throw TestFailure("the server did not start on \(self.socketPath)")
    }

    /// SIGTERM, then waits; returns the exit status and the standard error.
    @discardableResult
    func stop() -> (status: Int32, stderr: String) {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let stderr = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    deinit { if process.isRunning { stop() } }

    /// How many of the server's descriptors are open on the shared test database.
    func openDatabaseFiles() throws -> Int {
        let database = URL(fileURLWithPath: ServerFixture.database).resolvingSymlinksInPath().path
        let directory = "/proc/\(process.processIdentifier)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) == database
        }.count
    }

    static let setpriv = "/usr/bin/setpriv"
    /// Whether a test can start a server as another user.
    static let canRunAsAnotherUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A real AF_UNIX client with a receive timeout, so a missing answer fails a test instead
/// of hanging it.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String, timeoutSeconds: Int = 30) throws {
        switch UnixSocket.connect(path: path) {
        case .success(let fd): self.fd = fd
        case .failure(let error): throw TestFailure("cannot connect to \(path): \(error)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Hangs up: the server sees the end of this connection at once. Closing the descriptor
    /// alone may not end it yet: a process another test is starting holds a copy of every
    /// descriptor of this one until it executes its program (`Process` forks).
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed: \(SocketError(errno))") }
            offset += sent
        }
    }

    /// Sends requests with large answers without reading any, until the server stops
    /// reading them (its writes to this client wait): the kernel's buffers both ways fill up
    /// and a non-blocking send fails with EAGAIN. Returns whether that happened within a minute.
    func sendUntilTheServerStopsReading() -> Bool {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let request = Array(String(repeating: "SEARCH a LIMIT(1000)\n", count: 100).utf8)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EAGAIN { return true }
        }
        return false
    }

    /// The next response line, or nil at end of stream.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestFailure("no answer: \(SocketError(errno))") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    func request(_ line: String) throws -> String {
        try send(line + "\n")
        guard let answer = try readLine() else { throw TestFailure("connection closed instead of answering \(line)") }
        return answer
    }

    func requestJSON(_ line: String) throws -> [String: Any] { try decode(try request(line)) }
}

/// What `read` gives once it gives `expected`, or its last reading after `seconds`: for a
/// server figure that settles a moment after the event (a closed connection's thread
/// reading its end, the last answers on a replaced index finishing).
func settled<T: Equatable>(at expected: T, within seconds: Double, _ read: () throws -> T) rethrows -> T {
    let deadline = Date().addingTimeInterval(seconds)
    var value = try read()
    while value != expected && Date() < deadline {
        usleep(20_000)
        value = try read()
    }
    return value
}

func decode(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(line)")
    }
    return object
}

/// The error code of a response line, nil for a success.
func errorCode(_ line: String) throws -> String? {
    let object = try decode(line)
    if object["ok"] as? Bool == true { return nil }
    return (object["error"] as? [String: Any])?["code"] as? String
}
