import Catalog
import Corpus
import Foundation
import Query

/// `pokesearch complete PREFIX`: suggestions for the text being typed, one per line
/// (or JSON Lines with --json).
enum CompleteCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let text = context.arguments.positional.joined(separator: " ")
        let limit = context.arguments.limit ?? 8
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        let suggestions = try catalog.engine.complete(text, limit: limit, language: language, kinds: Set(context.arguments.kinds))
        if !suggestions.isEmpty { context.recordHistory(text.trimmingCharacters(in: .whitespaces)) }
        for s in suggestions {
            context.output.line(context.arguments.json ? JSONText.suggestion(s) : s.text)
        }
        return suggestions.isEmpty ? 1 : 0
    }
}
