import Foundation

/// One response kept in `http_cache`: the body and the validators to revalidate it with.
public struct CachedResponse: Sendable, Equatable {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    public var body: [UInt8]
    /// Seconds since 1970.
    public var fetchedAt: Double

    public init(url: String, etag: String?, lastModified: String?, body: [UInt8], fetchedAt: Double) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
        self.fetchedAt = fetchedAt
    }
}

extension Store {
    public func cachedResponse(url: String) throws -> CachedResponse? {
        let select = try database.prepare("SELECT etag, last_modified, body, fetched_at FROM http_cache WHERE url = ?")
        try select.bind([.text(url)])
        guard try select.step() else { return nil }
        return CachedResponse(url: url, etag: select.text(0), lastModified: select.text(1), body: select.blob(2),
                              fetchedAt: select.value(3).realValue ?? 0)
    }

    public func storeResponse(_ response: CachedResponse) throws {
        try database.run("""
            INSERT INTO http_cache (url, etag, last_modified, body, fetched_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                body = excluded.body, fetched_at = excluded.fetched_at
            """, .text(response.url), response.etag.map(SQLValue.text) ?? .null,
                 response.lastModified.map(SQLValue.text) ?? .null, .blob(response.body), .real(response.fetchedAt))
    }

    public func cachedResponseCount() throws -> Int {
        try database.rows("SELECT count(*) FROM http_cache").first?.first?.intValue ?? 0
    }

    /// Copies every cached response of `other` into this database, replacing older rows.
    public func copyHTTPCache(from other: Store) throws {
        let select = try other.database.prepare("SELECT url, etag, last_modified, body, fetched_at FROM http_cache")
        let insert = try database.prepare("INSERT OR REPLACE INTO http_cache (url, etag, last_modified, body, fetched_at) VALUES (?, ?, ?, ?, ?)")
        while try select.step() {
            try insert.run((0..<5).map { select.value($0) })
        }
    }
}

extension SQLValue {
    public var realValue: Double? {
        switch self {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        case .text(let v): return Double(v)
        default: return nil
        }
    }
}
