import Catalog
import Foundation
import Index
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// What every connection's thread shares: the index, the counters, the reloads, the
/// configuration, and the open connections (which the accepting thread wakes to drain).
final class ServingContext: Sendable {
    let configuration: ServerConfiguration
    let holder: IndexHolder
    let activity: ServerActivity
    let reloader: Reloader
    /// Open connections by serial, their descriptors: a descriptor leaves this table before it
    /// is closed, so that a shutdown through the table never reaches a reused number.
    private let open = Locked<[UInt64: Int32]>([:])

    init(configuration: ServerConfiguration, holder: IndexHolder, activity: ServerActivity, reloader: Reloader) {
        self.configuration = configuration
        self.holder = holder
        self.activity = activity
        self.reloader = reloader
    }

    func register(_ fd: Int32, serial: UInt64) {
        open.withLock { $0[serial] = fd }
        activity.connections.add(1, ordering: .relaxed)
        activity.acceptedConnections.add(1, ordering: .relaxed)
    }

    /// Closes a connection's descriptor once it is out of the table.
    func close(_ fd: Int32, serial: UInt64) {
        open.withLock { _ = $0.removeValue(forKey: serial) }
        Glibc.close(fd)
        activity.connections.subtract(1, ordering: .relaxed)
    }

    /// How many connections are in use: open, and their clients not hung up (a hung-up
    /// one's thread has yet to read the end of its input). Counted from the table, under its
    /// lock, so that a connection closing meanwhile is counted once or not at all.
    func connectionsInUse() -> Int {
        // Polled under the lock, so that no descriptor is closed (and its number reused) meanwhile.
        open.withLock { table in
            var descriptors = table.values.map { pollfd(fd: $0, events: Self.pollReadHangUp, revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return descriptors.count }
            return descriptors.count { $0.revents & (Self.pollReadHangUp | Int16(POLLHUP | POLLERR)) == 0 }
        }
    }

    /// POLLRDHUP (the peer shut its writing side or closed), which Glibc imports only with
    /// _GNU_SOURCE.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Shuts every open connection down `how` (`SHUT_RD`: its thread reads what was already
    /// sent, answers it and ends; `SHUT_RDWR`: it fails at its next write too).
    func shutDownAll(_ how: Int32) {
        open.withLock { table in
            for fd in table.values { _ = shutdown(fd, how) }
        }
    }
}

/// One client connection, served by a thread of its own that blocks in `read` and `send`.
/// A thread a connection answers a round trip with one wake-up and two system calls, as a
/// bare echo server does (an event loop was slower before any work: a wake-up
/// from `epoll_wait` and a `read` after it); a client that does not read its answers blocks
/// only its own thread.
final class Connection {
    let fd: Int32
    let serial: UInt64
    private let context: ServingContext
    private var framer = LineFramer()
    /// Response lines not yet written.
    private let output = ByteBuffer(capacity: 4096)
    /// When the last bytes came, and when the first byte of the line not yet whole came
    /// (nil: no line under way), for the idle and request timeouts.
    private var lastRead = monotonicSeconds()
    private var lineStarted: Double?
    /// The receive timeout set on the socket: the nearer of the two deadlines, so that a
    /// read wakes when one passes (changed only when a deadline comes nearer, and on a
    /// wake-up: not a system call a read).
    private var receiveTimeout: Double = 0

    /// Queued output beyond which it is written before more lines are answered: a client
    /// that pipelines many large answers holds about this much (plus one response) here.
    /// Well under the socket's send buffer (about 208 KB), so a write seldom waits for the
    /// client, and the buffer stays in cache: pipelined completions of one name ran faster
    /// than with 256 KB (`pokesearch-bench --socket`, alternated; docs/PERFORMANCE.md).
    static let outputHighWater = 64 * 1024
    /// A read takes up to this much: a pipelining client's requests by the hundred, and a
    /// small cost for each of a thousand connections.
    static let readBufferBytes = 16 * 1024
    /// Output capacity a connection keeps while it waits for requests (a larger buffer, grown
    /// for a big answer or a pipelined run, is given back first): a few pages for each of a
    /// thousand connections.
    static let keptOutputBytes = 16 * 1024

    init(fd: Int32, serial: UInt64, context: ServingContext) {
        self.fd = fd
        self.serial = serial
        self.context = context
    }

    /// Answers the connection's requests until it hangs up, QUITs, stays silent longer than
    /// the idle timeout or cannot be written to, then closes it.
    func serve() {
        let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferBytes, alignment: 16)
        defer {
            readBuffer.deallocate()
            context.close(fd, serial: serial)
        }
        // A read waiting longer than the idle timeout is an idle client (or, with a line
        // under way, one past the request timeout); a send waiting as long, one that does
        // not read its answers.
        setTimeout(SO_RCVTIMEO, seconds: context.configuration.idleTimeout)
        setTimeout(SO_SNDTIMEO, seconds: context.configuration.idleTimeout)
        receiveTimeout = context.configuration.idleTimeout
        while true {
            let count = readRequests(into: readBuffer)
            if count > 0 {
                lastRead = monotonicSeconds()
                guard answer(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])), lineArrivesInTime() else { return }
            } else if count == 0 {
                return // the client is done, or the server stops; an unfinished line is not a request
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard keepWaiting() else { return }
            } else {
                return
            }
        }
    }

    /// Starts or ends the request timeout's count after a read: it runs from the first
    /// byte of a line until the line is whole. Returns false (having said so) when the line
    /// under way has taken longer than the request timeout, however steadily its bytes
    /// came; otherwise the next read waits no longer than what is left of it.
    private func lineArrivesInTime() -> Bool {
        guard framer.hasLineUnderWay else {
            lineStarted = nil
            return true
        }
        let started = lineStarted ?? lastRead
        lineStarted = started
        let remaining = context.configuration.requestTimeout - (lastRead - started)
        guard remaining > 0 else {
            sayRequestTimeout()
            return false
        }
        if receiveTimeout > remaining {
            receiveTimeout = remaining
            setTimeout(SO_RCVTIMEO, seconds: remaining)
        }
        return true
    }

    private func sayRequestTimeout() {
        let timeout = context.configuration.requestTimeout
        say(ProtocolError(.requestTimeout, "closing: a request line did not arrive whole within \(Self.seconds(timeout)) s"))
    }

    /// A read timed out: says why and returns false when a deadline has passed, else sets
    /// the timeout to the nearer deadline and returns true.
    private func keepWaiting() -> Bool {
        let now = monotonicSeconds()
        let configuration = context.configuration
        var remaining = configuration.idleTimeout - (now - lastRead)
        if let lineStarted {
            let lineRemaining = configuration.requestTimeout - (now - lineStarted)
            if lineRemaining <= 0 {
                sayRequestTimeout()
                return false
            }
            remaining = min(remaining, lineRemaining)
        }
        guard remaining > 0 else {
            say(ProtocolError(.idleTimeout, "closing after \(Self.seconds(configuration.idleTimeout)) s without a request"))
            return false
        }
        // Rounding up to the socket's clock: a wake-up just short of the deadline would
        // find it not yet passed and wait again.
        receiveTimeout = remaining + 0.001
        setTimeout(SO_RCVTIMEO, seconds: receiveTimeout)
        return true
    }

    /// Reads what the client has sent, waiting for it when there is none. Output room grown
    /// beyond `keptOutputBytes` is kept while requests are waiting (a pipelining client's:
    /// growing it again for every read cost page faults and copies, a noticeable part of a
    /// pipelined answer) and given back before the thread waits, so that a waiting connection holds
    /// little: with grown room, a read that does not wait is tried first.
    private func readRequests(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if output.capacity > Self.keptOutputBytes {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            guard count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return count }
            output.removeAll(keepingCapacity: Self.keptOutputBytes)
        }
        return read(fd, buffer.baseAddress, buffer.count)
    }

    /// Answers the complete lines in `bytes` and writes the answers. Returns false when the
    /// connection is to close (QUIT, or a write failed); what QUIT left unanswered is
    /// dropped, as the contract says.
    private func answer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var position = 0
        while true {
            let stop = answerLines(bytes, from: &position)
            guard flush() else { return false }
            switch stop {
            case .outputFull: continue
            case .endOfInput: return true
            case .quit: return false
            }
        }
    }

    private enum Stop { case outputFull, endOfInput, quit }

    /// Answers complete lines from `position` into the output until the lines or the room in
    /// the output run out, or QUIT. Holds an index only while answering: a write that waits
    /// for a slow reader must not keep a replaced index in memory.
    private func answerLines(_ bytes: UnsafeRawBufferPointer, from position: inout Int) -> Stop {
        // A RELOAD among the lines moves the lines after it to the new index.
        var loaded = context.holder.loaded
        while output.count < Self.outputHighWater {
            guard let request = framer.next(bytes, position: &position, RequestParser.parse(frame:)) else { return .endOfInput }
            context.activity.requests.add(1, ordering: .relaxed)
            switch execute(request, loaded: loaded) {
            case .next: break
            case .reloaded: loaded = context.holder.loaded
            case .quit: return .quit
            }
        }
        return .outputFull
    }

    private enum Outcome { case next, reloaded, quit }

    private func execute(_ request: Result<Request, ProtocolError>, loaded: LoadedIndex) -> Outcome {
        switch request {
        case .failure(let error):
            Response.error(error, into: output)
        case .success(.ping):
            PingExecutor.run(into: output)
        case .success(.search(let query, let options)):
            SearchExecutor.run(query: query, options: options, loaded: loaded, into: output)
        case .success(.complete(let prefix, let limit, let language, let kinds)):
            CompleteExecutor.run(prefix: prefix, limit: limit, language: language, kinds: kinds, engine: loaded.engine, into: output)
        case .success(.get(let key)):
            GetExecutor.run(key: key, loaded: loaded, into: output)
        case .success(.stats):
            StatsExecutor.run(loaded: loaded, counters: context.activity.counters, now: monotonicSeconds(),
                              databasePath: context.configuration.databasePath, into: output)
        case .success(.reload):
            ReloadExecutor.answer(context.reloader.reloadAndWait(), into: output)
            return .reloaded
        case .success(.quit):
            QuitExecutor.run(into: output)
            return .quit
        }
        return .next
    }

    /// Writes the queued output, blocking (up to the idle timeout at a time) while the
    /// client's buffers are full. Returns false when the client cannot be written to.
    private func flush() -> Bool {
        var written = 0
        defer { output.removeAll() } // (its room is given back before a wait: readRequests)
        while written < output.count {
            let sent = output.withUnsafeBytes {
                send(fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                written += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                return false // the client hung up, or read nothing for the idle timeout
            }
        }
        return true
    }

    private func say(_ error: ProtocolError) {
        let line = Response.line(error)
        _ = line.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    private static func seconds(_ timeout: Double) -> String {
        timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
    }

    private func setTimeout(_ option: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
