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
    /// Seconds a request line may take to arrive whole, from its first byte: a client
    /// sending a byte now and then is closed after this, however short its silences.
    public var requestTimeout: Double = 10
    public var maxConnections = 1024
    /// Seconds to finish answering requests in flight after SIGINT/SIGTERM; with the
    /// connections' last moment after it, the server is gone within a second.
    public var drainTimeout: Double = 0.5

    public init(socketPath: String, databasePath: String) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }
}

/// The line-protocol server: the thread that calls `serve` accepts clients and takes the
/// signals (SIGINT, SIGTERM, SIGHUP, through a signalfd) in an epoll loop; every client gets
/// a thread of its own (`Connection`) that answers its requests from the current index
/// snapshot; rebuilds run on threads of their own (`Reloader`).
public final class LineServer {
    let configuration: ServerConfiguration
    private let listener: Listener
    private let epollFD: Int32
    private let signalFD: Int32
    /// Held open so that a process out of descriptors can still accept a client to refuse it.
    private var spareFD: Int32
    private let log: @Sendable (String) -> Void
    private let activity: ServerActivity
    private var context: ServingContext!
    private var nextSerial: UInt64 = 0
    /// Clients accepted in one turn of the loop, so that signals are read between turns
    /// however deep the backlog.
    private static let acceptsPerTurn = 64

    /// Takes the signals, and the socket (from systemd, else a new one at the configured
    /// path). Call before loading the index, so that a second server is refused at once.
    public init(configuration: ServerConfiguration, environment: [String: String],
                log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        self.configuration = configuration
        self.log = log
        activity = ServerActivity(startedAt: monotonicSeconds())
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        // Blocked in this thread before any other starts, so every thread inherits it and
        // the signals arrive only through the signalfd.
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signalFD = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard signalFD >= 0, epollFD >= 0 else {
            throw ServerError("cannot set up the event loop: \(SocketError(errno))")
        }
        if let activated = try Listener.activated(environment: environment) {
            listener = activated
        } else {
            listener = try Listener.bind(path: configuration.socketPath)
        }
    }

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
        // And the heap's top handed back past glibc's default again: the first index may
        // have been loaded into a stretch kept whole for huge pages (PokesearchCLI's
        // IndexMemory).
        mallopt(M_TRIM_THRESHOLD, 128 * 1024)
        let holder = IndexHolder(loaded)
        context = ServingContext(configuration: configuration, holder: holder, activity: activity,
                                 reloader: Reloader(holder: holder, databasePath: configuration.databasePath,
                                                    activity: activity, log: log))
        watch(listener.fd)
        watch(signalFD)
        var events = [epoll_event](repeating: epoll_event(), count: 8)
        var drainDeadline: Double?
        while true {
            let count = epoll_wait(epollFD, &events, Int32(events.count), drainDeadline == nil ? -1 : 10)
            if count < 0 && errno != EINTR {
                log("epoll_wait failed: \(SocketError(errno)); stopping")
                break
            }
            let ready = events.prefix(Int(max(0, count)))
            // Signals first: a turn that also has clients to accept reads them before.
            if ready.contains(where: { $0.data.fd == signalFD }), handleSignals(), drainDeadline == nil {
                drainDeadline = monotonicSeconds() + configuration.drainTimeout
                beginDrain()
            }
            if drainDeadline == nil && ready.contains(where: { $0.data.fd == listener.fd }) { acceptClients() }
            if let deadline = drainDeadline,
               activity.connections.load(ordering: .relaxed) == 0 || monotonicSeconds() >= deadline { break }
        }
        if drainDeadline == nil { listener.close() }
        // Past the drain timeout: connections still open (a client not reading its answers)
        // fail at their next write, and their threads end.
        context.shutDownAll(Int32(SHUT_RDWR))
        let deadline = monotonicSeconds() + 0.3
        while activity.connections.load(ordering: .relaxed) > 0 && monotonicSeconds() < deadline { usleep(1_000) }
    }

    // MARK: - Connections

    /// The stack of a connection's thread: the engine's deepest calls need far less; the
    /// pages are reserved, not resident, until used.
    private static let threadStackBytes = 1 << 20

    private func acceptClients() {
        // The connections in use, asked of the kernel once between admissions at most (a poll
        // over every connection: not a cost to pay for each client refused). An admission asks
        // again: the client just admitted may have hung up already and be reconnecting.
        var inUse: Int?
        for _ in 0..<Self.acceptsPerTurn {
            let fd = pokesearch_accept4(listener.fd, Int32(SOCK_CLOEXEC.rawValue))
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
            guard hasRoomForAConnection(inUse: &inUse) else {
                _ = refusalAtTheLimit.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                continue
            }
            admit(fd)
            inUse = nil
        }
    }

    private func admit(_ fd: Int32) {
        nextSerial += 1
        context.register(fd, serial: nextSerial)
        if !startThread(for: Connection(fd: fd, serial: nextSerial, context: context)) {
            refuse(fd, "the server cannot start a thread for another connection; try again later", closing: false)
            context.close(fd, serial: nextSerial)
        }
    }

    /// Whether another connection fits under the limit. A client that hung up still counts
    /// until its thread has read the end of its input: at the limit, the connections whose
    /// clients have hung up are counted out, so that a client reconnecting at once is not
    /// refused (asked of the kernel, without waiting: this thread takes the signals).
    private func hasRoomForAConnection(inUse: inout Int?) -> Bool {
        guard activity.connections.load(ordering: .relaxed) >= configuration.maxConnections else { return true }
        let used = inUse ?? context.connectionsInUse()
        inUse = used
        return used < configuration.maxConnections
    }

    /// The line a client over the limit gets, made once: at the limit with clients
    /// reconnecting in a loop, refusing is most of what this thread does.
    private lazy var refusalAtTheLimit: [UInt8] = Array(Response.line(ProtocolError(.tooManyConnections,
        "the server has \(configuration.maxConnections) connections open, its limit; try again later")).utf8)

    /// Starts a detached thread serving `connection`.
    private func startThread(for connection: Connection) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, Self.threadStackBytes)
        let retained = Unmanaged.passRetained(connection).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { argument in
            Unmanaged<Connection>.fromOpaque(argument!).takeRetainedValue().serve()
            return nil
        }, retained)
        guard status == 0 else {
            Unmanaged<Connection>.fromOpaque(retained).release()
            return false
        }
        return true
    }

    private func refuse(_ fd: Int32, _ message: String, closing: Bool = true) {
        let line = Response.line(ProtocolError(.tooManyConnections, message))
        _ = line.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if closing { close(fd) }
    }

    private func watch(_ fd: Int32) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
    }

    // MARK: - Signals

    /// Reads the pending signals: SIGHUP starts a reload; returns true for SIGINT or SIGTERM.
    private func handleSignals() -> Bool {
        var stop = false
        var info = signalfd_siginfo()
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            switch Int32(info.ssi_signo) {
            case SIGHUP:
                log("SIGHUP: reloading the index")
                context.reloader.request()
            default:
                stop = true
            }
        }
        return stop
    }

    /// Stops listening (removing the socket file at once, so new clients fail fast and a
    /// new server may start) and shuts every connection's reading side: its thread reads
    /// what the client has already sent, answers it and ends.
    private func beginDrain() {
        log("stopping: answering requests in flight")
        epoll_ctl(epollFD, EPOLL_CTL_DEL, listener.fd, nil)
        listener.close()
        context.shutDownAll(Int32(SHUT_RD))
    }
}
