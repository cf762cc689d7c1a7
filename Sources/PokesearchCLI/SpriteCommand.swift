import Catalog
import Corpus
import Foundation
import Query
import Sprite
import Sync
import Terminal

/// `pokesearch sprite NAME [--force] [--api URL]`: downloads the Pokémon's front sprite
/// once into the cache directory and prints its path.
enum SpriteCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let name = context.arguments.positional.joined(separator: " ")
        guard !name.isEmpty else { throw CLIError.usage("sprite needs a Pokémon: `pokesearch sprite pikachu`") }
        let catalog = try context.catalog()
        let language = try context.arguments.languageIndex(environment: context.environment)
        // By a name, slug or id of a Pokémon or form only: a move's or a genus's words
        // ("thunderbolt") name no sprite.
        let (doc, _) = try EntityLookup.resolve(name, catalog: catalog, language: language, kinds: [.pokemon, .form], command: "sprite")
        let slug = catalog.index.slug(doc)
        let api = context.arguments.values["--api"].flatMap { $0.isEmpty ? nil : $0 } ?? APISync.defaultBase
        let sprite: (path: String, downloaded: Bool)
        do {
            sprite = try Sprites.fetch(slug: slug, base: api, cacheDirectory: Paths.cache(environment: context.environment),
                                       force: context.arguments.flags.contains("--force"),
                                       settings: HTTPSettings(environment: context.environment))
        } catch let error as SyncError {
            throw CLIError.data(message(error, slug: slug))
        }
        guard context.arguments.flags.contains("--show") else {
            context.output.line(sprite.path)
            return 0
        }
        // Asked for, it is drawn even into a pipe (`| less -R`).
        do {
            let lines = try SpriteDrawing.alone(png: Array(try Data(contentsOf: URL(fileURLWithPath: sprite.path))),
                                                using: GraphicsProtocol.detect(environment: context.environment),
                                                columns: TerminalSize.columns(environment: context.environment))
            for line in lines { context.output.line(line) }
        } catch {
            throw CLIError.data("cannot draw the sprite \(sprite.path): \(error); `pokesearch sprite \(slug) --force` downloads it again")
        }
        return 0
    }

    /// A failed download in the sprite's words (SyncError's speak of an ingest's database).
    static func message(_ error: SyncError, slug: String) -> String {
        let what = "cannot download the sprite of \(slug)"
        switch error {
        case .http(let url, 404, _):
            return "\(what): \(url) answered HTTP 404 (not found); check --api"
        case .http(let url, let status, _):
            return "\(what): \(url) answered HTTP \(status); try again later"
        case .transport(let url, let message, _):
            return "\(what): \(message) (\(url)); check the network connection (or --api) and try again"
        case .badBody(let url, let reason):
            return "\(what): \(reason) (\(url))"
        case .badURL, .cannotWrite, .tooLarge:
            return "\(what): \(error.description)"
        }
    }
}
