import Catalog

/// `pokesearch history [--clear]`: recent searches and completions, newest first.
enum HistoryCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        guard context.arguments.positional.isEmpty else {
            throw CLIError.usage("history takes no words, only --clear or --json; got '\(context.arguments.positional.joined(separator: " "))'")
        }
        let catalog = try context.catalog()
        if context.arguments.flags.contains("--clear") {
            guard catalog.isWritable else { throw CLIError.data("the database \(context.databasePath) is read-only; history cannot be cleared") }
            try catalog.write { try $0.clearHistory() }
            return 0
        }
        let queries = try catalog.store.history().dropFirst(context.arguments.offset).prefix(context.arguments.limit ?? Int.max)
        if queries.isEmpty {
            if !context.arguments.json { Output.error("no recent searches") }
            return 1
        }
        for query in queries {
            context.output.line(context.arguments.json ? JSONText.object([("query", JSONText.string(query))]) : query)
        }
        return 0
    }
}
