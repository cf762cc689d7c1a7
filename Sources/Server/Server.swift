import CLinux
import Foundation
import Index
import Query
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// How `pokesearch serve` runs.
public struct ServerConfiguration: Sendable {
    /// The socket to create (unused under socket activation).
    public var socketPath: String
    public var databasePath: String
    /// Seconds a connection may stay silent before it is closed.
    public var idleTimeout: Double = 300
    public var maxConnections = 1024
    /// Seconds to finish answering requests in flight after SIGINT/SIGTERM.
    public var drainTimeout: Double = 5

    public init(socketPath: String, databasePath: String) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }
}

/// The line-protocol server: one thread runs an epoll loop over the listening socket, the
/// clients, a signalfd (SIGINT, SIGTERM, SIGHUP) and an eventfd that reload threads
/// signal. Requests are answered on the loop thread from the current index snapshot;
/// answers are queued per connection and written in batches, one write per read.
public final class LineServer {
    let configuration: ServerConfiguration
    private let listener: Listener
    private var listening = true
    private let epollFD: Int32
    private let signalFD: Int32
    private let reloadFD: Int32
    /// Held open so that a process out of descriptors can still accept a client to refuse it.
    private var spareFD: Int32
    private let log: @Sendable (String) -> Void

    private var holder: IndexHolder!
    private var connections: [Connection?] = []
    private var nextSerial: UInt64 = 0
    private var counters: ServerCounters
    private let readBuffer: UnsafeMutableRawBufferPointer

    private var draining = false
    private var drainDeadline = 0.0
    /// When the loop last woke: a connection's activity is stamped with it (one clock read
    /// a wake-up, not one per read and per write; idle timeouts count whole seconds).
    private var wokeAt = 0.0

    private let reloadMailbox = ReloadMailbox()
    private var reloadRunning = false
    private var reloadQueued = false
    private var reloadWaiters: [(fd: Int32, serial: UInt64)] = []
    private var queuedReloadWaiters: [(fd: Int32, serial: UInt64)] = []

    /// Takes the signals, and the socket (from systemd, else a new one at the configured
    /// path). Call before loading the index, so that a second server is refused at once.
    public init(configuration: ServerConfiguration, environment: [String: String],
                log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        self.configuration = configuration
        self.log = log
        counters = ServerCounters(startedAt: monotonicSeconds())
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        // Blocked in this thread before any other starts, so every thread inherits it and
        // the signals arrive only through the signalfd.
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signalFD = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        reloadFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard signalFD >= 0, reloadFD >= 0, epollFD >= 0 else {
            throw ServerError("cannot set up the event loop: \(SocketError(errno))")
        }
        if let activated = try Listener.activated(environment: environment) {
            listener = activated
        } else {
            listener = try Listener.bind(path: configuration.socketPath)
        }
        // Allocated last: a failed init runs no deinit, and would leak it (ASan found that).
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    public var socketPath: String { listener.path }

    /// Gives up before serving (the index could not be loaded): removes the socket file.
    public func abandon() {
        listener.close()
    }

    /// Serves `loaded` until SIGINT or SIGTERM, then finishes the requests in flight,
    /// removes the socket and returns. Takes `loaded` over (pass it with `consume`): a caller
    /// still holding it would keep the first index in memory after a RELOAD replaces it.
    public func serve(_ loaded: consuming LoadedIndex) {
        // Arrays of 256 KiB and more (an index's, a rebuild's scratch) get pages of their
        // own, handed back when freed. glibc would otherwise raise this threshold as such
        // arrays are freed and put the next index among a rebuild's small leftovers in a
        // thread's arena, where every RELOAD left RSS a few MB higher.
        mallopt(M_MMAP_THRESHOLD, 256 * 1024)
        holder = IndexHolder(loaded)
        watch(listener.fd, events: EPOLLIN.rawValue)
        watch(signalFD, events: EPOLLIN.rawValue)
        watch(reloadFD, events: EPOLLIN.rawValue)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var nextSweep = monotonicSeconds() + 1
        while true {
            let count = epoll_wait(epollFD, &events, Int32(events.count), draining ? 50 : 1000)
            if count < 0 {
                if errno == EINTR { continue }
                log("epoll_wait failed: \(SocketError(errno)); stopping")
                break
            }
            wokeAt = monotonicSeconds()
            for i in 0..<Int(count) {
                let fd = events[i].data.fd
                let flags = events[i].events
                if fd == listener.fd {
                    if listening { acceptClients() }
                } else if fd == signalFD {
                    handleSignals()
                } else if fd == reloadFD {
                    finishReload()
                } else if let connection = connection(fd) {
                    handle(connection, events: flags)
                }
            }
            let now = wokeAt
            if now >= nextSweep {
                closeIdleConnections(now: now)
                nextSweep = now + 1
            }
            if draining && (counters.connections == 0 || now >= drainDeadline) { break }
        }
        for case let connection? in connections { drop(connection) }
        if listening { listener.close() }
    }

    // MARK: - Connections

    private func connection(_ fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    private func acceptClients() {
        while true {
            let fd = pokesearch_accept4(listener.fd, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE:
                    // Out of descriptors: free the spare one to take the client off the
                    // queue and tell it, instead of leaving it (and the loop) spinning.
                    close(spareFD)
                    let refused = pokesearch_accept4(listener.fd, Int32(SOCK_CLOEXEC.rawValue))
                    if refused >= 0 { refuse(refused, "the server has run out of file descriptors; try again later") }
                    spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    return
                default: return
                }
            }
            guard counters.connections < configuration.maxConnections else {
                refuse(fd, "the server has \(configuration.maxConnections) connections open, its limit; try again later")
                continue
            }
            nextSerial += 1
            let connection = Connection(fd: fd, serial: nextSerial, now: monotonicSeconds())
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count))
            }
            connections[Int(fd)] = connection
            counters.connections += 1
            counters.acceptedConnections += 1
            updateInterest(connection)
        }
    }

    private func refuse(_ fd: Int32, _ message: String) {
        let line = Response.line(ProtocolError(.tooManyConnections, message))
        _ = line.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }

    private func handle(_ connection: Connection, events: UInt32) {
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
            // The client is gone both ways: nothing it sent can be answered any more.
            drop(connection)
            return
        }
        if events & EPOLLIN.rawValue != 0 && !connection.isPaused {
            readRequests(connection)
            guard isOpen(connection) else { return }
        }
        progress(connection)
    }

    private func isOpen(_ connection: Connection) -> Bool { self.connection(connection.fd) === connection }

    /// Reads once (level-triggered epoll calls again while more is waiting, so that one
    /// busy client cannot starve the others) and answers the complete lines read.
    private func readRequests(_ connection: Connection) {
        let count = read(connection.fd, readBuffer.baseAddress, readBuffer.count)
        if count > 0 {
            connection.lastActivity = wokeAt
            process(connection, UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
        } else if count == 0 {
            connection.inputClosed = true
            connection.framer.reset() // an unfinished last line is not a request
        } else if errno != EAGAIN && errno != EINTR {
            drop(connection)
        }
    }

    private func process(_ connection: Connection, _ bytes: UnsafeRawBufferPointer) {
        var position = 0
        // The index of this pass (a reload swapping in a new one meanwhile is seen by the next).
        let loaded = holder.loaded
        while !connection.isPaused, let request = connection.framer.next(bytes, position: &position, RequestParser.parse(frame:)) {
            execute(request, on: connection, loaded: loaded)
        }
        if position < bytes.count {
            connection.unframed.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...]))
        }
    }

    /// Writes what is queued, goes on with paused input when it can, closes a finished
    /// connection, and registers the events it now waits for.
    private func progress(_ connection: Connection) {
        guard flush(connection) else { return }
        // Until the input read earlier is all answered or the output is full again: a pass
        // can pause with lines left, and when the flush then empties the output no event
        // would come to resume them (a pipelining client would wait forever).
        while !connection.unframed.isEmpty && !connection.isPaused {
            let pending = connection.unframed
            connection.unframed = []
            pending.withUnsafeBytes { process(connection, $0) }
            guard flush(connection) else { return }
        }
        if connection.isFinished {
            drop(connection)
            return
        }
        updateInterest(connection)
    }

    /// Sends queued output without blocking. Returns false when the connection was dropped.
    private func flush(_ connection: Connection) -> Bool {
        while connection.written < connection.output.count {
            let start = connection.written
            let sent = connection.output.withUnsafeBytes {
                send(connection.fd, $0.baseAddress! + start, $0.count - start, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                connection.written += sent
                connection.lastActivity = wokeAt
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                drop(connection) // the client hung up without reading its answers
                return false
            }
        }
        if connection.written == connection.output.count {
            connection.output.removeAll(keepingCapacity: 64 * 1024)
            connection.written = 0
        } else if connection.written >= 64 * 1024 {
            connection.output.removeFirst(connection.written)
            connection.written = 0
        }
        return true
    }

    private func updateInterest(_ connection: Connection) {
        var wanted: UInt32 = 0
        if !connection.inputClosed && !connection.isPaused && connection.unframed.isEmpty { wanted |= EPOLLIN.rawValue }
        if connection.pendingOutput > 0 { wanted |= EPOLLOUT.rawValue }
        guard wanted != connection.registeredEvents || !connection.isRegistered else { return }
        var event = epoll_event()
        event.events = wanted
        event.data.fd = connection.fd
        epoll_ctl(epollFD, connection.isRegistered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, connection.fd, &event)
        connection.isRegistered = true
        connection.registeredEvents = wanted
    }

    private func drop(_ connection: Connection) {
        guard isOpen(connection) else { return }
        connections[Int(connection.fd)] = nil
        close(connection.fd) // also removes it from the epoll set
        counters.connections -= 1
    }

    private func watch(_ fd: Int32, events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
    }

    private func closeIdleConnections(now: Double) {
        for case let connection? in connections
        where !connection.awaitingReload && now - connection.lastActivity > configuration.idleTimeout {
            let line = Response.line(ProtocolError(.idleTimeout, "closing after \(Int(configuration.idleTimeout)) s without a request"))
            if connection.pendingOutput == 0 {
                _ = line.utf8CString.withUnsafeBufferPointer {
                    send(connection.fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
            }
            drop(connection)
        }
    }

    // MARK: - Requests

    private func execute(_ request: Result<Request, ProtocolError>, on connection: Connection, loaded: LoadedIndex) {
        counters.requests += 1
        let out = connection.output
        switch request {
        case .failure(let error):
            Response.error(error, into: out)
        case .success(.ping):
            PingExecutor.run(into: out)
        case .success(.search(let query, let options)):
            SearchExecutor.run(query: query, options: options, engine: loaded.engine, into: out)
        case .success(.complete(let prefix, let limit, let language, let kinds)):
            CompleteExecutor.run(prefix: prefix, limit: limit, language: language, kinds: kinds, engine: loaded.engine, into: out)
        case .success(.get(let key)):
            GetExecutor.run(key: key, loaded: loaded, into: out)
        case .success(.stats):
            StatsExecutor.run(loaded: loaded, counters: counters, now: monotonicSeconds(),
                              databasePath: configuration.databasePath, into: out)
        case .success(.reload):
            connection.awaitingReload = true
            requestReload(for: connection)
        case .success(.quit):
            QuitExecutor.run(into: out)
            connection.quitting = true
        }
    }

    // MARK: - Reload

    /// Rebuilds the index on its own thread; `connection` (nil for SIGHUP) is answered when
    /// it is swapped in. A reload asked for while one runs starts after it, so that it sees
    /// the database as it is now.
    private func requestReload(for connection: Connection?) {
        let waiter = connection.map { (fd: $0.fd, serial: $0.serial) }
        if reloadRunning {
            reloadQueued = true
            if let waiter { queuedReloadWaiters.append(waiter) }
        } else {
            if let waiter { reloadWaiters.append(waiter) }
            startRebuild()
        }
    }

    private func startRebuild() {
        reloadRunning = true
        let holder = self.holder!
        let databasePath = configuration.databasePath
        let reloadFD = self.reloadFD
        let mailbox = reloadMailbox
        Thread.detachNewThread {
            let result: Result<LoadedIndex, ReloadFailure>
            do {
                let loaded = try LoadedIndex.reload(databasePath: databasePath)
                holder.replace(with: loaded)
                // The rebuild's scratch space is freed (and the previous index, unless the
                // loop still holds it; see finishReload): hand those pages back, or every
                // reload leaves RSS higher.
                malloc_trim(0)
                result = .success(loaded)
            } catch {
                result = .failure(ReloadFailure(message: "\(error)"))
            }
            mailbox.outcome.withLock { $0 = result }
            eventfd_write(reloadFD, 1)
        }
    }

    private func finishReload() {
        var value: eventfd_t = 0
        eventfd_read(reloadFD, &value)
        guard let outcome = reloadMailbox.outcome.withLock({ result in defer { result = nil }; return result }) else { return }
        reloadRunning = false
        switch outcome {
        case .success(let loaded):
            // A pass of this loop that was answering from the previous index when the swap
            // came freed it afterwards, in this thread's arena: hand those pages back too.
            malloc_trim(0)
            counters.reloads += 1
            log("reloaded the index: \(loaded.counts.reduce(0) { $0 + $1.count }) entities in \(Int(loaded.loadMilliseconds)) ms")
        case .failure(let failure):
            log("reload failed, still serving the previous index: \(failure.message)")
        }
        let answered = reloadWaiters
        reloadWaiters = queuedReloadWaiters
        queuedReloadWaiters = []
        if reloadQueued {
            reloadQueued = false
            startRebuild()
        }
        for waiter in answered {
            guard let connection = connection(waiter.fd), connection.serial == waiter.serial else { continue }
            ReloadExecutor.answer(outcome, into: connection.output)
            connection.awaitingReload = false
            progress(connection)
        }
    }

    // MARK: - Signals

    private func handleSignals() {
        var info = signalfd_siginfo()
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            switch Int32(info.ssi_signo) {
            case SIGHUP:
                log("SIGHUP: reloading the index")
                requestReload(for: nil)
            default:
                beginDrain()
            }
        }
    }

    /// Stops listening (removing the socket file at once, so new clients fail fast and a
    /// new server may start), answers what every client has already sent, and lets the
    /// loop end when everything is written or the drain timeout passes.
    private func beginDrain() {
        guard !draining else { return }
        draining = true
        drainDeadline = monotonicSeconds() + configuration.drainTimeout
        log("stopping: answering requests in flight")
        epoll_ctl(epollFD, EPOLL_CTL_DEL, listener.fd, nil)
        listener.close()
        listening = false
        for case let connection? in connections {
            if !connection.isPaused && !connection.inputClosed {
                readRequests(connection)
                guard isOpen(connection) else { continue }
            }
            connection.inputClosed = true
            connection.framer.reset()
            progress(connection)
        }
    }
}

/// Where a reload thread leaves its outcome for the event loop.
private final class ReloadMailbox: Sendable {
    let outcome = Locked<Result<LoadedIndex, ReloadFailure>?>(nil)
}
