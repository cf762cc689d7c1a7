import Catalog
import Corpus

/// `pokesearch random [--kind K]`: one entity drawn uniformly among the chosen kinds (or
/// all), printed as a search result.
enum RandomCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        guard context.arguments.positional.isEmpty else {
            throw CLIError.usage("random takes no words, only --kind K; got '\(context.arguments.positional.joined(separator: " "))'")
        }
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        let index = catalog.index
        let kinds = Set(context.arguments.kinds)
        let docs = (0..<index.docCount).filter { kinds.isEmpty || kinds.contains(index.kind($0)) }
        guard let doc = docs.randomElement() else {
            Output.error("nothing to pick from")
            return 1
        }
        ResultPrinter.print(ResultPage(rows: [ResultRow(catalog.engine.result(doc: doc, language: language))], total: 1), context: context)
        return 0
    }
}
