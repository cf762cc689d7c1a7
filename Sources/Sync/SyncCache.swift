import Foundation
import Store
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP cache of a sync. Responses of the sync in progress go to a side file next to
/// the database (`<database>.sync`), written as they arrive: the current database stays
/// untouched until the new one is swapped in, and a sync that was interrupted finds them
/// there and resumes without asking again. The responses of earlier syncs, in the current
/// database's `http_cache`, give the validators for conditional requests.
final class SyncCache: Sendable {
    private struct Stores {
        var inProgress: Store
        var previous: Store?
    }

    /// Responses of an unfinished sync older than this are revalidated, not reused as they are.
    static let resumeWindow: Double = 24 * 3600

    let path: String
    private let stores: Locked<Stores>

    init(databasePath: String) throws {
        path = databasePath + ".sync"
        let inProgress = try Self.openSideFile(path)
        let previous = FileManager.default.fileExists(atPath: databasePath) ? try? Store.openForReading(path: databasePath) : nil
        stores = Locked(Stores(inProgress: inProgress, previous: previous))
    }

    private static func openSideFile(_ path: String) throws -> Store {
        let store: Store
        if FileManager.default.fileExists(atPath: path), let existing = try? Store(path: path) {
            store = existing
        } else {
            // Missing or unreadable (a cache: losing it costs only downloads).
            unlink(path)
            unlink(path + "-journal")
            store = try Store.create(at: path)
        }
        // A cache: durability is not worth an fsync per response.
        try store.database.execute("PRAGMA synchronous = OFF")
        return store
    }

    /// A response this sync already has, or the cached one to revalidate.
    func lookup(_ url: String) throws -> (current: [UInt8]?, revalidate: CachedResponse?) {
        try stores.withLock { stores in
            let now = Date().timeIntervalSince1970
            let pending = try stores.inProgress.cachedResponse(url: url)
            if let pending, pending.fetchedAt > now - Self.resumeWindow { return (pending.body, nil) }
            return (nil, try pending ?? stores.previous?.cachedResponse(url: url))
        }
    }

    func store(_ response: CachedResponse) throws {
        try stores.withLock { try $0.inProgress.storeResponse(response) }
    }

    /// Copies this sync's responses into the new database (inside the ingest's transaction).
    func carry(into database: Store) throws {
        try database.copyHTTPCache(from: try Store(path: path, readOnly: true))
    }

    /// Deletes the side file once the new database holds its responses.
    func remove() {
        unlink(path)
        unlink(path + "-journal")
    }
}
