import Catalog

/// One client connection's state, owned by the event loop thread.
final class Connection {
    let fd: Int32
    /// Tells this connection from a later one that gets the same fd number.
    let serial: UInt64
    var framer = LineFramer()
    /// Bytes read but not yet cut into lines because processing is paused (output full,
    /// waiting for a reload, QUIT). While there are any, nothing more is read.
    var unframed: [UInt8] = []
    /// Response lines not yet written; the bytes from `written` on are still to send.
    let output = ByteBuffer(capacity: 4096)
    var written = 0
    var lastActivity: Double
    /// The client sent EOF (or the server is stopping): answer what was read, then close.
    var inputClosed = false
    /// QUIT answered: close once the output is written.
    var quitting = false
    /// A RELOAD on this connection waits for its rebuild; later lines wait behind it.
    var awaitingReload = false
    /// In the epoll set, waiting for `registeredEvents`.
    var isRegistered = false
    var registeredEvents: UInt32 = 0

    init(fd: Int32, serial: UInt64, now: Double) {
        self.fd = fd
        self.serial = serial
        lastActivity = now
    }

    var pendingOutput: Int { output.count - written }

    /// Output beyond which a connection stops reading requests: a client that does not
    /// read its answers holds at most this much (plus one response) in the server.
    static let outputHighWater = 256 * 1024

    /// Lines are processed only while answers can be queued and nothing waits before them.
    var isPaused: Bool { awaitingReload || quitting || pendingOutput >= Self.outputHighWater }

    /// Nothing left to do: everything read has been answered and written.
    var isFinished: Bool {
        (quitting || (inputClosed && unframed.isEmpty)) && pendingOutput == 0 && !awaitingReload
    }
}
