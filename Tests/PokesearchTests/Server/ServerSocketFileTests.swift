import Foundation
import Server
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The socket file: created 0600, never over a live server or a non-socket, stale ones
/// replaced, removed on SIGTERM.
@Suite("Server socket file")
struct ServerSocketFileTests {
    /// A stream socket bound to `path` (its file created), not yet listening.
    func boundSocket(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestFailure("cannot bind \(path): \(SocketError(errno))") }
        return fd
    }

    @Test func socketIsPrivateAndRemovedOnSIGTERMAfterAnsweringInFlight() throws {
        let server = try RunningServer()
        var status = stat()
        #expect(lstat(server.socketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        let client = try TestClient(path: server.socketPath)
        try client.send("SEARCH pikachu LIMIT(1)\nPING\n")
        usleep(10_000)
        let stopped = server.stop()
        #expect(try client.readLine()?.contains(#""slug":"pikachu""#) == true)
        #expect(try client.readLine() == #"{"ok":true}"#)
        #expect(try client.readLine() == nil)
        #expect(stopped.status == 0)
        #expect(access(server.socketPath, F_OK) != 0)
    }

    /// A client that never reads its answers does not keep the server from stopping: past
    /// the drain timeout (5 s) its connection is closed and the server exits.
    @Test func sigtermStopsTheServerWhileAClientDoesNotRead() throws {
        let server = try RunningServer()
        let silent = try TestClient(path: server.socketPath)
        #expect(silent.sendUntilTheServerStopsReading())
        let start = Date()
        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(Date().timeIntervalSince(start) < 15)
        #expect(access(server.socketPath, F_OK) != 0)
    }

    @Test func secondServerIsRefused() throws {
        let server = try RunningServer()
        let second = ServerFixture.run(["serve", "--db", ServerFixture.database, "--socket", server.socketPath])
        #expect(second.status == 3)
        #expect(second.stderr.contains("already listening on \(server.socketPath)"))
        #expect(try TestClient(path: server.socketPath).request("PING") == #"{"ok":true}"#)
    }

    @Test func staleSocketIsReplaced() throws {
        let directory = ServerFixture.temporaryDirectory()
        let path = directory + "/stale.sock"
        // A socket file nobody listens on, as a killed server leaves it.
        close(try boundSocket(at: path))
        #expect(access(path, F_OK) == 0)
        let server = try RunningServer(socketPath: path)
        #expect(try TestClient(path: path).request("PING") == #"{"ok":true}"#)
        #expect(server.stop().status == 0)
    }

    @Test(arguments: ["regular file", "directory"])
    func pathThatIsNotASocketIsLeftAlone(what: String) throws {
        let directory = ServerFixture.temporaryDirectory()
        let path = directory + "/not-a-socket"
        if what == "directory" {
            #expect(mkdir(path, 0o700) == 0)
        } else {
            try "precious".write(toFile: path, atomically: false, encoding: .utf8)
        }
        let result = ServerFixture.run(["serve", "--db", ServerFixture.database, "--socket", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("is not a socket"))
        var status = stat()
        #expect(lstat(path, &status) == 0)
        if what == "regular file" { #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious") }
    }

    @Test func socketPathFollowsTheContract() {
        #expect(SocketPath.resolve(override: "/x/s.sock", environment: ["POKESEARCH_SOCKET": "/y"]) == "/x/s.sock")
        #expect(SocketPath.resolve(override: nil, environment: ["POKESEARCH_SOCKET": "/y", "XDG_RUNTIME_DIR": "/run/user/1"]) == "/y")
        #expect(SocketPath.resolve(override: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/user/1/pokesearch.sock")
        #expect(SocketPath.resolve(override: nil, environment: [:]) == "/tmp/pokesearch-\(getuid()).sock")
    }

    @Test func socketActivationUsesFileDescriptorThree() throws {
        let directory = ServerFixture.temporaryDirectory()
        let path = directory + "/activated.sock"
        // What systemd does: bind and listen, then pass the socket as fd 3 with LISTEN_PID.
        let fd = try boundSocket(at: path)
        #expect(listen(fd, 16) == 0)
        let pid = try spawnServerActivated(by: fd, socketPath: "/nonexistent/unused.sock")
        close(fd)
        let client = try TestClient(path: path)
        #expect(try client.request("PING") == #"{"ok":true}"#)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status == 0)
        // systemd owns the socket file: the server leaves it.
        #expect(access(path, F_OK) == 0)
    }
}
