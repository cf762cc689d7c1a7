import Foundation
import Store
#if canImport(Glibc)
import Glibc
#endif

/// What sits at a database path, found out before anything opens it: opening a FIFO
/// blocks, and only a regular file that is a SQLite database is pokesearch's to replace.
public enum DatabaseFile {
    public enum State: Equatable {
        /// Nothing there yet.
        case missing
        /// A zero-byte regular file (what `touch` makes): no data to keep, so it is treated
        /// as no database and replaced, its mode kept.
        case empty
        /// A readable regular file that starts as a SQLite database does.
        case database
    }

    /// The path with every symbolic link of its last component followed, so that a
    /// database reached through a link is written where the link points (the link stays).
    public static func resolve(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// What is at `path` (already resolved); anything that is not a database of ours throws
    /// the error that says what is there.
    public static func inspect(_ path: String) throws -> State {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw StoreError.notADatabase(path: path, what: "a directory")
        case S_IFCHR, S_IFBLK: throw StoreError.notADatabase(path: path, what: "a device")
        case S_IFIFO: throw StoreError.notADatabase(path: path, what: "a named pipe (FIFO)")
        case S_IFSOCK: throw StoreError.notADatabase(path: path, what: "a socket")
        default: throw StoreError.notADatabase(path: path, what: "a symbolic link loop")
        }
        // O_NONBLOCK: should the path become a FIFO in between, opening it does not wait.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StoreError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: sqliteMagic.count)
        let count = read(fd, &header, header.count)
        if count < 0 { throw StoreError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        if count == 0 { return .empty }
        guard count == header.count, header == sqliteMagic else {
            throw StoreError.notADatabase(path: path, what: "a file of \(info.st_size) bytes that is not a SQLite database")
        }
        return .database
    }

    /// The first 16 bytes of every SQLite database file.
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// The files SQLite keeps beside a database while writing it: a database must never be
    /// moved without them, or a hot journal would be rolled into whatever comes next.
    static let companionSuffixes = ["-journal", "-wal", "-shm"]

    /// Moves a damaged database aside with its journal (never deleting either).
    static func setAside(_ path: String) -> String {
        let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970))"
        for suffix in companionSuffixes where access(path + suffix, F_OK) == 0 {
            rename(path + suffix, aside + suffix)
        }
        rename(path, aside)
        return aside
    }

    /// The mode (and, for root, the owner) of the file at `path`, to give its replacement.
    static func attributes(of path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    static func apply(_ info: stat, to path: String) {
        chmod(path, info.st_mode & 0o7777)
        if geteuid() == 0 { chown(path, info.st_uid, info.st_gid) }
    }
}
