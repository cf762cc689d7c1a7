import Corpus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `ingest --csv URL`: PokeAPI's CSV tables (those the converter reads) over HTTP.
public enum CSVDownload {
    /// Downloads `<base>/<table>.csv` for every table the converter reads into a new
    /// temporary directory, which the caller converts and then removes.
    public static func download(base: String, settings: HTTPSettings, progress: ProgressMeter) throws -> URL {
        try SyncError.checkURL(base)
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pokesearch-csv-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = HTTPPool(settings: settings)
        progress.expect(Converter.csvFiles.count)
        defer { progress.finish() }
        do {
            _ = try pool.map(Converter.csvFiles) { table, connection in
                let url = "\(root)/\(table).csv"
                let response = try pool.get(url, validators: nil, connection: connection, limit: ResponseLimit.csvTable)
                guard !response.body.isEmpty else { throw SyncError.badBody(url: url, reason: "empty response, expected a CSV table") }
                try Data(response.body).write(to: directory.appendingPathComponent("\(table).csv"))
                progress.step(retries: pool.retries.load(ordering: .relaxed))
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return directory
    }
}

/// `pokesearch sprite`: a Pokémon's front sprite, downloaded once into the cache directory.
public enum Sprites {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private struct SpriteLinks: Codable, Sendable {
        struct Sprites: Codable, Sendable { var front_default: String? }
        var sprites: Sprites
    }

    /// Where the sprite of `slug` is kept: `<cache>/sprites/<slug>.png`.
    public static func path(slug: String, cacheDirectory: String) -> String { "\(cacheDirectory)/sprites/\(slug).png" }

    /// PokeAPI slugs are lowercase letters, digits and hyphens, so they are file names that
    /// stay in their directory.
    static func isSafeSlug(_ slug: String) -> Bool {
        !slug.isEmpty && slug.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The cached sprite's path, downloading it first when missing (or when `force`): the
    /// Pokémon's JSON (`<base>/pokemon/<slug>/`, for a cosmetic form `pokemon-form`) names
    /// the image; it must be a PNG, and is written aside then renamed into place.
    public static func fetch(slug: String, base: String, cacheDirectory: String, force: Bool,
                             settings: HTTPSettings) throws -> (path: String, downloaded: Bool) {
        // The slug names a file: one that could leave the sprites directory is refused
        // (a slug comes from the database, which a sync filled from a server's answers).
        guard isSafeSlug(slug) else {
            throw SyncError.cannotWrite(path: "\(cacheDirectory)/sprites", reason: "'\(slug)' is not a PokeAPI slug (a-z, 0-9 and -)")
        }
        let target = path(slug: slug, cacheDirectory: cacheDirectory)
        if !force, FileManager.default.fileExists(atPath: target) { return (target, false) }
        try SyncError.checkURL(base)
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let pool = HTTPPool(settings: settings)
        let connection = CurlConnection(settings: settings)
        var links: SpriteLinks
        var jsonURL = "\(root)/pokemon/\(slug)/"
        do {
            links = try SpriteLinks.decode(try pool.get(jsonURL, validators: nil, connection: connection).body, url: jsonURL)
        } catch SyncError.http(_, 404, _) {
            jsonURL = "\(root)/pokemon-form/\(slug)/"
            links = try SpriteLinks.decode(try pool.get(jsonURL, validators: nil, connection: connection).body, url: jsonURL)
        }
        guard let imageURL = links.sprites.front_default, !imageURL.isEmpty else {
            throw SyncError.badBody(url: jsonURL, reason: "\(slug) has no front sprite (sprites.front_default is null)")
        }
        try SyncError.checkURL(imageURL)
        let image = try pool.get(imageURL, validators: nil, connection: connection, limit: ResponseLimit.sprite).body
        guard image.starts(with: pngSignature) else {
            throw SyncError.badBody(url: imageURL, reason: "not a PNG image (\(image.count) bytes without the PNG signature)")
        }
        let directory = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = "\(directory)/.\(slug).png.\(getpid())"
            try Data(image).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw SyncError.cannotWrite(path: target, reason: reason)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.cannotWrite(path: directory, reason: error.localizedDescription)
        }
        return (target, true)
    }
}
