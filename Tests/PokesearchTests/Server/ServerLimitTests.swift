import Foundation
import Index
import Locking
import Server
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server at its limits, with real socket clients: refusals come at once whatever
/// the backlog, SIGTERM is honoured whatever the clients do, a line that takes too long to
/// arrive is cut off, and only a Unix stream socket is served.
@Suite struct ServerLimitTests {
    /// Clients that connect and hang up in a loop, as fast as they can, on two threads.
    final class Churn: @unchecked Sendable {
        private let running = Locked(true)
        private let finished = DispatchGroup()

        init(path: String) {
            for _ in 0..<2 {
                finished.enter()
                Thread {
                    while self.running.withLock({ $0 }) {
                        if case .success(let fd) = UnixSocket.connect(path: path) { close(fd) }
                    }
                    self.finished.leave()
                }.start()
            }
        }

        func stop() {
            running.withLock { $0 = false }
            finished.wait()
        }
    }

    /// At the limit, with churning clients filling the backlog, a new client still hears
    /// `too_many_connections` at once, and SIGTERM still ends the server promptly.
    @Test func atTheLimitRefusalsAndSIGTERMComeAtOnce() throws {
        let server = try RunningServer(extraArguments: ["--max-connections", "4"])
        let held = try (0..<4).map { _ in try TestClient(path: server.socketPath) }
        for client in held { #expect(try client.request("PING") == #"{"ok":true}"#) }
        let churn = Churn(path: server.socketPath)
        usleep(500_000)
        for _ in 0..<3 {
            let started = monotonicSeconds()
            let refused = try TestClient(path: server.socketPath)
            #expect(try errorCode(try #require(try refused.readLine())) == "too_many_connections")
            // Loose (a debug build on a shared machine): the fault was seconds.
            #expect(monotonicSeconds() - started < 0.5)
        }
        let stopping = monotonicSeconds()
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(monotonicSeconds() - stopping < 1.5)
        churn.stop()
        #expect(server.process.terminationStatus == 0)
    }

    /// A client that keeps sending a byte now and then, never a whole line, is closed after
    /// the request timeout (its silences are all shorter than the idle timeout); one that
    /// sends whole lines as slowly is not. The dripping stops short of the timeout: a byte
    /// arriving as the server closes, unread, makes the close a reset that loses the answer
    /// (seen under the thread sanitizer, whose server is slow).
    @Test func aLineThatDoesNotArriveWholeInTimeIsCutOff() throws {
        let server = try RunningServer(extraArguments: ["--request-timeout", "0.5"])
        let dripping = try TestClient(path: server.socketPath)
        let steady = try TestClient(path: server.socketPath)
        var answer: String?
        let started = monotonicSeconds()
        for byte in Array("SEARCH pikachu and more and more".utf8) where monotonicSeconds() - started < 0.3 {
            // (A send fails once the server has answered and closed: the answer waits unread.)
            guard (try? dripping.send([byte])) != nil else { break }
            #expect(try steady.request("PING") == #"{"ok":true}"#)
            usleep(100_000)
            var pending = pollfd(fd: dripping.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, 0) > 0 {
                answer = try dripping.readLine()
                break
            }
        }
        if answer == nil { answer = try dripping.readLine() }
        #expect(try errorCode(try #require(answer)) == "request_timeout")
        #expect(try dripping.readLine() == nil)
        #expect(try steady.request("PING") == #"{"ok":true}"#)
    }

    /// GET refuses a NUL (any control character) as SEARCH does, rather than dropping it.
    @Test func getRefusesAControlCharacterAsSearchDoes() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        #expect(try errorCode(try client.request("GET pika\0chu")) == "bad_request")
        #expect(try errorCode(try client.request("SEARCH pika\0chu")) == "bad_query")
        #expect(try client.request("GET pika\u{1B}chu").contains("control character"))
        #expect(try client.request("GET pikachu").contains(#""slug":"pikachu""#))
    }

    /// Socket activation with anything but a Unix stream socket (a TCP one here) is refused
    /// with one line saying what it got, before serving anything.
    @Test func socketActivationRefusesATCPSocket() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(fd, 16) == 0)
        let directory = ServerFixture.temporaryDirectory()
        let pid = try spawnServerActivated(by: fd, socketPath: directory + "/unused.sock", stderr: directory + "/stderr")
        close(fd)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let stderr = try String(contentsOfFile: directory + "/stderr", encoding: .utf8)
        #expect(status >> 8 == 3, "\(status): \(stderr)")
        #expect(stderr.contains("IPv4 stream socket") && stderr.contains("only a Unix stream socket"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    }

    /// Another user's socket at the path (what `/tmp/pokesearch-$UID.sock` may hold when
    /// XDG_RUNTIME_DIR is unset): the refusal names its owner.
    @Test(.enabled(if: getuid() == 0, "giving a socket to another user needs root"))
    func anotherUsersSocketIsRefusedNamingItsOwner() throws {
        let path = ServerFixture.temporaryDirectory() + "/theirs.sock"
        let fd = try ServerSocketFileTests().boundSocket(at: path)
        defer { close(fd) }
        #expect(listen(fd, 4) == 0 && chown(path, 65534, 65534) == 0)
        let result = ServerFixture.run(["serve", "--db", ServerFixture.database, "--socket", path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("belongs to user nobody (uid 65534)") || result.stderr.contains("belongs to uid 65534"), "\(result.stderr)")
        #expect(access(path, F_OK) == 0)
    }
}

/// Starts `pokesearch serve` as systemd does under socket activation: `fd` as its fd 3,
/// LISTEN_PID its own pid, LISTEN_FDS=1 (stderr to a file when given); its pid.
func spawnServerActivated(by fd: Int32, socketPath: String, stderr: String? = nil) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fd, 3)
    if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    let script = "LISTEN_PID=$$ LISTEN_FDS=1 exec \(ServerFixture.binary) serve --db \(ServerFixture.database) --socket \(socketPath)"
    let words: [String] = ["/bin/sh", "-c", script]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environment) == 0 else { throw TestFailure("cannot start the server") }
    return pid
}
