import Catalog
import Corpus
import Query

/// `pokesearch random [QUERY...] [--kind K]`: one entity drawn uniformly among a query's
/// matches (or among every entity of the chosen kinds), shown as its Pokédex page on a
/// terminal and as a search result otherwise (a script reads one line, or with --json one
/// object).
enum RandomCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        let index = catalog.index
        let query = context.arguments.positional.joined(separator: " ")
        let doc: Int?
        if query.allSatisfy(\.isWhitespace) {
            let kinds = Set(context.arguments.kinds)
            doc = (0..<index.docCount).filter { kinds.isEmpty || kinds.contains(index.kind($0)) }.randomElement()
        } else {
            var options = try context.searchOptions()
            options.database = try catalog.databaseFilters()
            options.limit = 1
            if query.contains("is:fav") { options.favourites = catalog.favouriteDocs() }
            // The number of matches first, then the one at a random place among them (the
            // same ranking each time, so every match is as likely).
            let total = try catalog.engine.search(query, options: options).total
            options.offset = total > 0 ? Int.random(in: 0..<min(total, SearchOptions.maxOffset + 1)) : 0
            doc = total > 0 ? try catalog.engine.search(query, options: options).results.first?.doc : nil
        }
        guard let doc else {
            Output.error(query.isEmpty ? "nothing to pick from" : "nothing found for '\(query)'")
            return 1
        }
        if context.output.isTerminal && !context.arguments.json {
            try ShowCommand.printPage(doc, catalog: catalog, language: language, context: context)
        } else {
            ResultPrinter.print(ResultPage([catalog.engine.result(doc: doc, language: language)], total: 1), context: context)
        }
        return 0
    }
}
