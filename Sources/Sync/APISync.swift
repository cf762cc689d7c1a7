import Corpus
import Foundation
import Store
import Locking

/// A sync from PokeAPI's REST API: pages through the list endpoints, fetches every
/// resource the corpus needs (through the sync cache: conditional requests, resume), and
/// maps them to corpus tables for `Ingest.run`.
///
///     let sync = try APISync(base: url, databasePath: path, settings: HTTPSettings(), progress: meter)
///     let tables = try sync.crawl()
///     try Ingest.run(tables: tables, …, carry: sync.carryCache)
///     sync.finish()
public final class APISync: Sendable {
    public static let defaultBase = "https://pokeapi.co/api/v2"
    static let pageSize = 100

    /// List endpoints of the small vocabularies, and their corpus group.
    static let vocabularyEndpoints = [
        ("pokemon-color", "color"), ("pokemon-habitat", "habitat"), ("pokemon-shape", "shape"),
        ("item-category", "item-category"), ("item-pocket", "item-pocket"), ("move-damage-class", "damage-class"),
        ("generation", "generation"),
    ]
    static let entityEndpoints = ["pokemon", "pokemon-species", "move", "item", "ability", "type", "evolution-chain"]

    /// What the sync did, for the closing line.
    public struct Counts: Sendable {
        public var downloaded = 0
        public var notModified = 0
        public var resumed = 0
        public var bytes = 0
    }

    public let base: String
    private let pool: HTTPPool
    private let cache: SyncCache
    private let progress: ProgressMeter
    private let tally = Locked(Counts())

    public init(base: String, databasePath: String, settings: HTTPSettings, progress: ProgressMeter) throws {
        try SyncError.checkURL(base)
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        pool = HTTPPool(settings: settings)
        cache = try SyncCache(databasePath: databasePath)
        self.progress = progress
    }

    public var counts: Counts { tally.withLock { $0 } }
    public var retries: Int { pool.retries.load(ordering: .relaxed) }

    public func crawl() throws -> CorpusTables {
        defer { progress.finish() }
        let endpoints = Self.entityEndpoints + Self.vocabularyEndpoints.map(\.0)
        let lists = try listAll(endpoints)
        func urls(_ endpoint: String) -> [String] { (lists[endpoint] ?? []).map(\.url) }
        progress.expect(lists.filter { $0.key != "pokemon-shape" }.values.reduce(0) { $0 + $1.count })

        var data = APIData()
        data.pokemon = try fetch(urls("pokemon"), as: APIPokemon.self)
        var formURLs: [String] = []
        var seen = Set<String>()
        for form in data.pokemon.flatMap(\.forms) where seen.insert(form.url).inserted { formURLs.append(form.url) }
        progress.expect(formURLs.count)
        data.forms = try fetch(formURLs, as: APIForm.self)
        data.species = try fetch(urls("pokemon-species"), as: APISpecies.self)
        data.moves = try fetch(urls("move"), as: APIMove.self)
        data.items = try fetch(urls("item"), as: APIItem.self)
        data.abilities = try fetch(urls("ability"), as: APIAbility.self)
        data.types = try fetch(urls("type"), as: APIType.self)
        data.chains = try fetch(urls("evolution-chain"), as: APIEvolutionChain.self)
        for (endpoint, group) in Self.vocabularyEndpoints {
            data.vocabulary[group] = lists[endpoint]
            // Shapes are kept by slug only; the converter reads no shape names either.
            if endpoint != "pokemon-shape" { data.vocabularyDetails[group] = try fetch(urls(endpoint), as: APIVocabulary.self) }
        }
        return APIMapper.tables(data)
    }

    /// Every entry of each list endpoint, page by page (`?offset=&limit=`): first pages
    /// together, then the rest of the pages their counts call for.
    func listAll(_ endpoints: [String]) throws -> [String: [APIRef]] {
        func page(_ endpoint: String, _ offset: Int) -> String { "\(base)/\(endpoint)/?offset=\(offset)&limit=\(Self.pageSize)" }
        progress.expect(endpoints.count)
        let first = try fetch(endpoints.map { page($0, 0) }, as: APIPage.self)
        var rest: [(endpoint: String, url: String)] = []
        for (endpoint, firstPage) in zip(endpoints, first) where firstPage.count > Self.pageSize {
            for offset in stride(from: Self.pageSize, to: firstPage.count, by: Self.pageSize) { rest.append((endpoint, page(endpoint, offset))) }
        }
        progress.expect(rest.count)
        let more = try fetch(rest.map(\.url), as: APIPage.self)
        var lists = Dictionary(uniqueKeysWithValues: zip(endpoints, first.map(\.results)))
        for (entry, page) in zip(rest, more) { lists[entry.endpoint, default: []] += page.results }
        return lists
    }

    /// Fetches and decodes resources, up to the pool's limit in flight.
    func fetch<Resource: Codable & Sendable>(_ urls: [String], as type: Resource.Type) throws -> [Resource] {
        try pool.map(urls) { url, connection in
            let value = try self.resource(url, as: type, connection: connection)
            self.progress.step(retries: self.pool.retries.load(ordering: .relaxed))
            return value
        }
    }

    /// One resource: this sync's copy if it has one (resume), else a conditional GET that
    /// reuses the cached body on 304. The trimmed body is cached as soon as it arrives.
    private func resource<Resource: Codable & Sendable>(_ url: String, as type: Resource.Type, connection: CurlConnection) throws -> Resource {
        let (current, cached) = try cache.lookup(url)
        if let current, let value = try? Resource.decode(current, url: url) {
            tally.withLock { $0.resumed += 1 }
            return value
        }
        let response = try pool.get(url, validators: cached.map { Validators(etag: $0.etag, lastModified: $0.lastModified) },
                                    connection: connection)
        let body: [UInt8]
        let value: Resource
        if response.status == 304 {
            guard let cached else { throw SyncError.badBody(url: url, reason: "HTTP 304 Not Modified for a request that was not conditional") }
            value = try Resource.decode(cached.body, url: url)
            body = cached.body
            tally.withLock { $0.notModified += 1 }
        } else {
            value = try Resource.decode(response.body, url: url)
            body = try value.encoded()
            tally.withLock { $0.downloaded += 1; $0.bytes += response.body.count }
        }
        try cache.store(CachedResponse(url: url, etag: response.etag ?? cached?.etag, lastModified: response.lastModified ?? cached?.lastModified,
                                       body: body, fetchedAt: Date().timeIntervalSince1970))
        return value
    }

    /// Copies the responses of this sync into the new database (give it to `Ingest.run`).
    public func carryCache(into database: Store) throws { try cache.carry(into: database) }

    /// After a successful ingest: the side file of the sync is no longer needed.
    public func finish() { cache.remove() }
}
