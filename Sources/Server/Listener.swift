#if canImport(Glibc)
import Glibc
#endif

/// A failure that stops the server from starting: one line naming the problem and the fix.
public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Where the server listens: `--socket PATH`, else `$POKESEARCH_SOCKET`, else
/// `$XDG_RUNTIME_DIR/pokesearch.sock`, else `/tmp/pokesearch-$UID.sock`.
public enum SocketPath {
    public static func resolve(override: String?, environment: [String: String]) -> String {
        if let override, !override.isEmpty { return override }
        if let path = environment["POKESEARCH_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/pokesearch.sock" }
        return "/tmp/pokesearch-\(getuid()).sock"
    }
}

/// The server's listening socket, and the socket file it owns.
struct Listener {
    let fd: Int32
    let path: String
    /// The socket file this server created (device, inode), removed at exit if it is still
    /// there; nil when systemd created the socket.
    let ownedFile: (dev_t, ino_t)?

    /// Binds a new socket at `path`, mode 0600. Refuses a path where a server answers or
    /// that is not a socket; replaces a stale socket (nobody listening).
    static func bind(path: String) throws(ServerError) -> Listener {
        guard path.utf8.count <= UnixSocket.maxPathBytes else {
            throw ServerError("socket path \(path) is longer than \(UnixSocket.maxPathBytes) bytes; choose a shorter one with --socket")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw ServerError("\(path) exists and is not a socket; not touching it: remove it yourself or choose another path with --socket")
            }
            guard status.st_uid == geteuid() else {
                // (Without XDG_RUNTIME_DIR, /tmp/pokesearch-$UID.sock: anyone may put a socket there.)
                throw ServerError("\(path) is a socket that belongs to \(userName(status.st_uid)), not to you; not touching it: set XDG_RUNTIME_DIR or choose another path with --socket")
            }
            switch UnixSocket.connect(path: path) {
            case .success(let fd):
                Glibc.close(fd)
                throw ServerError("a server is already listening on \(path); stop it first or choose another path with --socket")
            case .failure(let error) where error.code == ECONNREFUSED:
                unlink(path) // stale: left by a server that died
            case .failure(let error):
                throw ServerError("cannot check the existing socket \(path): \(error)")
            }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError("cannot create a socket: \(SocketError(errno))") }
        // The umask makes the file 0600 from its creation: no moment where others may connect.
        let previousMask = umask(0o177)
        let bound = UnixSocket.withAddress(path) { Glibc.bind(fd, $0, $1) == 0 ? 0 : errno } ?? ENAMETOOLONG
        umask(previousMask)
        guard bound == 0 else {
            Glibc.close(fd)
            throw ServerError("cannot listen on \(path): \(SocketError(bound))")
        }
        // A short queue: a client beyond it waits in `connect` for its turn instead of behind
        // thousands of others, each of which would be accepted (and, at the limit, refused)
        // before it.
        guard listen(fd, 256) == 0 else {
            let error = SocketError(errno)
            Glibc.close(fd)
            unlink(path)
            throw ServerError("cannot listen on \(path): \(error)")
        }
        lstat(path, &status)
        return Listener(fd: fd, path: path, ownedFile: (status.st_dev, status.st_ino))
    }

    /// The socket systemd passed (LISTEN_FDS=1 for this process: fd 3), if any.
    static func activated(environment: [String: String]) throws(ServerError) -> Listener? {
        guard let pid = environment["LISTEN_PID"], Int32(pid) == getpid(), let count = environment["LISTEN_FDS"] else { return nil }
        guard count == "1" else {
            throw ServerError("socket activation passed \(count) sockets; pokesearch.socket must have exactly one ListenStream")
        }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1 else {
            throw ServerError("socket activation: fd 3 is not a listening socket")
        }
        var domain: Int32 = 0, type: Int32 = 0
        length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length)
        length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length)
        guard domain == AF_UNIX, type == Int32(SOCK_STREAM.rawValue) else {
            let kind = domain == AF_INET ? "an IPv4" : domain == AF_INET6 ? "an IPv6" : domain == AF_UNIX ? "a Unix" : "a domain \(domain)"
            let style = type == Int32(SOCK_STREAM.rawValue) ? "stream" : type == Int32(SOCK_DGRAM.rawValue) ? "datagram" : "type \(type)"
            throw ServerError("socket activation: fd 3 is \(kind) \(style) socket; pokesearch serves only a Unix stream socket (ListenStream=/path/to/pokesearch.sock in pokesearch.socket)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var address = sockaddr_un()
        var addressLength = socklen_t(MemoryLayout<sockaddr_un>.size)
        let path = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
        } == 0 ? withUnsafeBytes(of: address.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } : ""
        return Listener(fd: fd, path: path.isEmpty ? "(socket activation)" : path, ownedFile: nil)
    }

    /// Stops listening and removes the socket file if it is still the one this server made.
    func close() {
        _ = Glibc.close(fd)
        guard let (device, inode) = ownedFile else { return }
        var status = stat()
        if lstat(path, &status) == 0, status.st_dev == device, status.st_ino == inode {
            unlink(path)
        }
    }
}

/// A user's name and id as `ls -l` would tell them ("alice (uid 1001)"), or the id alone.
func userName(_ user: uid_t) -> String {
    guard let entry = getpwuid(user), let name = entry.pointee.pw_name else { return "uid \(user)" }
    return "user \(String(cString: name)) (uid \(user))"
}
