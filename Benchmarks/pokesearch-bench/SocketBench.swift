import BenchmarkSupport
import Foundation
import Server
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch serve` against a bare C echo server, both pinned to one core, the client on
/// another: one request at a time (round trip) and pipelined (many requests per write).
struct SocketFigures {
    var roundTrip: Samples
    var echoRoundTrip: Samples
    var requestsPerSecond: Double
    var echoRequestsPerSecond: Double
    var serverResidentBytes: Double
    /// The server's VmRSS once its index is in (it has answered one PING), before the measured requests.
    var serverResidentAtStart: Double
    /// The server's index in transparent huge pages once it is in (AnonHugePages), and once
    /// a RELOAD (after the measured requests) has replaced it; its VmRSS then.
    var serverHugePagesAtStart: Double
    var serverHugePagesReloaded: Double
    var serverResidentReloaded: Double
    /// Pipelined PING: the server's own cost per request, with no engine work.
    var pingRequestsPerSecond: Double
    /// Pipelined COMPLETE of one fixed cheap prefix (`SocketBench.fixedPrefix`): the server's
    /// cost with a small, steady engine cost.
    var fixedRequestsPerSecond: Double
    var serverCPU: Int
}

enum SocketBench {
    /// The prefix of the fixed-query pipelined figure: a whole name with few matches.
    static let fixedPrefix = "pikachu"

    /// How long a pipelined run goes on.
    enum PipelinedLength {
        /// As many requests as a first short burst says fill this many seconds.
        case seconds(Double)
        /// This many requests.
        case requests(Int)

        var halved: PipelinedLength {
            switch self {
            case .seconds(let seconds): return .seconds(seconds / 2)
            case .requests(let count): return .requests(max(1, count / 2))
            }
        }
    }

    static func run(pokesearch: String, database: String, requests: [String], roundTrips: Int, pipelined: PipelinedLength,
                    directory: URL) throws -> SocketFigures {
        let echo = directory.appendingPathComponent("echo")
        try Processes.run(["cc", "-O2", "-o", echo.path, Options.benchmarksDirectory.appendingPathComponent("echo/echo.c").path])

        let cpus = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let serverCPU = cpus - 1
        let clientCPU = cpus > 1 ? 0 : serverCPU
        let echoSocket = directory.appendingPathComponent("echo.sock").path
        let serverSocket = directory.appendingPathComponent("pokesearch.sock").path
        let echoProcess = try Processes.start(["taskset", "-c", "\(serverCPU)", echo.path, echoSocket],
                                              log: directory.appendingPathComponent("echo.log"))
        defer { Processes.stop(echoProcess) }
        let server = try Processes.start(["taskset", "-c", "\(serverCPU)", pokesearch, "serve", "--socket", serverSocket, "--db", database],
                                         log: directory.appendingPathComponent("serve.log"))
        defer { Processes.stop(server) }
        try waitForListener(echoSocket, process: echoProcess, log: directory.appendingPathComponent("echo.log"))
        try waitForListener(serverSocket, process: server, log: directory.appendingPathComponent("serve.log"))
        // The socket listens before the index is loaded: a first answer means it is in.
        let first = try ClientConnection(serverSocket)
        try first.roundTrip(Array("PING\n".utf8))
        first.close()
        let pid = "\(server.processIdentifier)"
        let residentAtStart = residentBytes(of: pid) ?? .nan
        let hugePagesAtStart = residentBytes(of: pid, field: "AnonHugePages", file: "smaps_rollup") ?? .nan

        let previousCPUs = try pinProcess(to: "\(clientCPU)")
        defer { _ = try? pinProcess(to: previousCPUs) }
        let lines = requests.map { Array("COMPLETE \($0)\n".utf8) }

        // Round trips, server and echo interleaved request by request so both see the same
        // machine; the first 5% warm up.
        let serverConnection = try ClientConnection(serverSocket)
        let echoConnection = try ClientConnection(echoSocket)
        let warmUp = max(100, roundTrips / 20)
        var serverTimes: [Double] = [], echoTimes: [Double] = []
        for i in 0..<(roundTrips + warmUp) {
            let line = lines[i % lines.count]
            let served = try timed { try serverConnection.roundTrip(line) }
            let echoed = try timed { try echoConnection.roundTrip(line) }
            if i >= warmUp {
                serverTimes.append(served)
                echoTimes.append(echoed)
            }
        }
        serverConnection.close()
        echoConnection.close()

        let requestsPerSecond = try pipelinedRate(serverSocket, lines, pipelined)
        let echoRequestsPerSecond = try pipelinedRate(echoSocket, lines, pipelined)
        // One line repeated fills each write with 64 requests, as above.
        let pingRate = try pipelinedRate(serverSocket, Array(repeating: Array("PING\n".utf8), count: 64), pipelined.halved)
        let fixedRate = try pipelinedRate(serverSocket, Array(repeating: Array("COMPLETE \(fixedPrefix)\n".utf8), count: 64),
                                          pipelined.halved)
        let resident = residentBytes(of: pid) ?? .nan
        // RELOAD answers once the new index is in; the old one's pages go back when its last
        // query is done, which may be a moment later.
        let reloader = try ClientConnection(serverSocket)
        try reloader.roundTrip(Array("RELOAD\n".utf8))
        reloader.close()
        var hugePagesReloaded = Double.nan
        for _ in 0..<100 {
            hugePagesReloaded = residentBytes(of: pid, field: "AnonHugePages", file: "smaps_rollup") ?? .nan
            if !(hugePagesReloaded > 0) { break }
            usleep(100_000)
        }
        return SocketFigures(roundTrip: Samples(serverTimes), echoRoundTrip: Samples(echoTimes),
                             requestsPerSecond: requestsPerSecond, echoRequestsPerSecond: echoRequestsPerSecond,
                             serverResidentBytes: resident, serverResidentAtStart: residentAtStart,
                             serverHugePagesAtStart: hugePagesAtStart, serverHugePagesReloaded: hugePagesReloaded,
                             serverResidentReloaded: residentBytes(of: pid) ?? .nan, pingRequestsPerSecond: pingRate,
                             fixedRequestsPerSecond: fixedRate, serverCPU: serverCPU)
    }

    static func waitForListener(_ path: String, process: Process, log: URL) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if case .success(let fd) = UnixSocket.connect(path: path) {
                Glibc.close(fd)
                return
            }
            guard process.isRunning else { break }
            usleep(5_000)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw BenchmarkError.failed("no server answered on \(path): \(output.suffix(500))")
    }

    /// Requests per second with a writer thread sending 64 requests per write while this
    /// thread reads the answers, counting newlines: a short burst sizes a run of about
    /// `seconds`, which is then measured.
    static func pipelinedRate(_ path: String, _ lines: [[UInt8]], _ length: PipelinedLength) throws -> Double {
        switch length {
        case .requests(let count):
            return try pipelinedRate(path, lines, count: count)
        case .seconds(let seconds):
            let burst = 2_000
            let estimate = try pipelinedRate(path, lines, count: burst)
            return try pipelinedRate(path, lines, count: max(burst, min(5_000_000, Int(estimate * seconds))))
        }
    }

    static func pipelinedRate(_ path: String, _ lines: [[UInt8]], count: Int) throws -> Double {
        let connection = try ClientConnection(path)
        defer { connection.close() }
        let batch = 64
        let batches = stride(from: 0, to: lines.count, by: batch).map { lines[$0..<min(lines.count, $0 + batch)].flatMap { $0 } }
        let batchSizes = stride(from: 0, to: lines.count, by: batch).map { min(batch, lines.count - $0) }
        let fd = connection.fd
        let writerDone = DispatchSemaphore(value: 0)
        let start = nowNanoseconds()
        Thread.detachNewThread {
            var sent = 0
            var next = 0
            while sent < count {
                guard ClientConnection.sendAll(fd, batches[next]) else { break }
                sent += batchSizes[next]
                next = (next + 1) % batches.count
            }
            writerDone.signal()
        }
        // The writer may overshoot `count` by less than a batch; those answers go unread.
        let answered = try connection.readLines(atLeast: count)
        let elapsed = Double(nowNanoseconds() - start) / 1e9
        writerDone.wait()
        return Double(answered) / elapsed
    }
}

/// A blocking client connection.
final class ClientConnection {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(_ path: String) throws {
        switch UnixSocket.connect(path: path) {
        case .success(let fd): self.fd = fd
        case .failure(let error): throw BenchmarkError.failed("cannot connect to \(path): \(error)")
        }
    }

    func close() { Glibc.close(fd) }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends one request line and reads until its answer's newline.
    func roundTrip(_ line: [UInt8]) throws {
        guard Self.sendAll(fd, line) else { throw BenchmarkError.failed("the server closed the connection") }
        _ = try readLines(atLeast: 1)
    }

    /// Reads until `count` newlines arrived; returns how many did.
    func readLines(atLeast count: Int) throws -> Int {
        var lines = 0
        while lines < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw BenchmarkError.failed("the server closed the connection after \(lines) answers") }
            buffer.withUnsafeBytes { bytes in
                for index in 0..<got where bytes[index] == 0x0A { lines += 1 }
            }
        }
        return lines
    }
}
