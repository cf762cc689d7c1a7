import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// AF_UNIX stream sockets by path: what the server binds, and what clients (the CLI, the
/// tests) connect to.
public enum UnixSocket {
    /// The longest path `sockaddr_un` holds.
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with the socket address of `path`, or returns nil when the path is too long.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// The user the process at the other end of a connected socket runs as (SO_PEERCRED,
    /// recorded by the kernel when it connected or listened), or nil when it cannot be read.
    public static func peerUser(_ fd: Int32) -> uid_t? {
        var user: UInt32 = 0
        return pokesearch_peer_uid(fd, &user) == 0 ? uid_t(user) : nil
    }

    /// A new stream socket connected to `path`, or the errno of the failure
    /// (ENAMETOOLONG for a path `sockaddr_un` cannot hold).
    public static func connect(path: String) -> Result<Int32, SocketError> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(SocketError(errno)) }
        let status = withAddress(path) { address, length in
            var result: Int32
            repeat { result = Glibc.connect(fd, address, length) } while result < 0 && errno == EINTR
            return result < 0 ? errno : 0
        } ?? ENAMETOOLONG
        guard status == 0 else {
            close(fd)
            return .failure(SocketError(status))
        }
        return .success(fd)
    }
}

/// An errno from a socket call.
public struct SocketError: Error, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}
