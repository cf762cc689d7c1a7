import Catalog
import Corpus

/// `pokesearch fav [add|remove NAME]`: favourites, kept in the database across re-ingests.
/// With no words it lists them like search results.
enum FavCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        var words = context.arguments.positional
        let action = words.isEmpty ? "list" : words.removeFirst()
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        switch action {
        case "list" where words.isEmpty:
            return try list(context, catalog: catalog, language: language)
        case "add", "remove", "rm":
            guard catalog.isWritable else {
                throw CLIError.data("the database \(context.databasePath) is read-only; favourites cannot change")
            }
            let (doc, _) = try EntityLookup.resolve(words.joined(separator: " "), catalog: catalog, language: language, kinds: [], command: "fav \(action)")
            let kind = catalog.index.kind(doc), slug = catalog.index.slug(doc)
            let name = "\(catalog.index.displayName(doc, language: language)) (\(kind.rawValue):\(slug))"
            if action == "add" {
                let added = try context.writing(catalog) { try $0.addFavourite(kind: kind, slug: slug) }
                context.output.line(added ? "added \(name) to favourites" : "\(name) is already a favourite")
                return 0
            }
            let removed = try context.writing(catalog) { try $0.removeFavourite(kind: kind, slug: slug) }
            guard removed else { throw CLIError.notFound("\(name) is not a favourite; `pokesearch fav` lists them") }
            context.output.line("removed \(name) from favourites")
            return 0
        default:
            throw CLIError.usage("fav takes `add NAME`, `remove NAME` (or `rm NAME`), `list` or nothing (to list them), not '\(context.arguments.positional.joined(separator: " "))'")
        }
    }

    static func list(_ context: CommandContext, catalog: Catalog, language: Int) throws -> Int32 {
        let favourites = try catalog.store.favourites()
        var results = favourites.compactMap { favourite in
            catalog.index.doc(kind: favourite.kind, slug: favourite.slug).map { catalog.engine.result(doc: $0, language: language) }
        }
        results = Array(results.dropFirst(context.arguments.offset).prefix(context.arguments.limit ?? results.count))
        if favourites.isEmpty {
            Output.error("no favourites yet; add one with `pokesearch fav add NAME`")
            return 1
        }
        ResultPrinter.print(ResultPage(results, total: favourites.count), context: context)
        return results.isEmpty ? 1 : 0
    }
}
