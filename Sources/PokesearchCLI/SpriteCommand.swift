import Catalog
import Corpus
import Query
import Sync

/// `pokesearch sprite NAME [--force] [--api URL]`: downloads the Pokémon's front sprite
/// once into the cache directory and prints its path.
enum SpriteCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let name = context.arguments.positional.joined(separator: " ")
        guard !name.isEmpty else { throw CLIError.usage("sprite needs a Pokémon: `pokesearch sprite pikachu`") }
        let slug = try resolve(name, catalog: try context.catalog(), context: context)
        let api = context.arguments.values["--api"].flatMap { $0.isEmpty ? nil : $0 } ?? APISync.defaultBase
        let sprite = try Sprites.fetch(slug: slug, base: api, cacheDirectory: Paths.cache(environment: context.environment),
                                       force: context.arguments.flags.contains("--force"),
                                       settings: HTTPSettings(environment: context.environment))
        context.output.line(sprite.path)
        return 0
    }

    /// A Pokémon slug as given, else the top Pokémon the search engine finds for the name.
    static func resolve(_ name: String, catalog: Catalog, context: CommandContext) throws -> String {
        if catalog.index.doc(kind: .pokemon, slug: name.lowercased()) != nil { return name.lowercased() }
        var options = try context.searchOptions()
        options.kinds = [.pokemon]
        options.limit = 1
        options.offset = 0
        guard let top = try catalog.engine.search(name, options: options).results.first else {
            throw CLIError.notFound("no Pokémon matches '\(name)'")
        }
        return top.slug
    }
}
