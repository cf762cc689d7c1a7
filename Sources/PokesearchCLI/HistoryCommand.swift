import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch history [--clear]`: recent searches and `show`s, newest first, with when
/// each was last run.
enum HistoryCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        guard context.arguments.positional.isEmpty else {
            throw CLIError.usage("history takes no words, only --clear or --json; got '\(context.arguments.positional.joined(separator: " "))'")
        }
        let catalog = try context.catalog()
        if context.arguments.flags.contains("--clear") {
            guard catalog.isWritable else { throw CLIError.data("the database \(context.databasePath) is read-only; history cannot be cleared") }
            try context.writing(catalog) { try $0.clearHistory() }
            return 0
        }
        let entries = try catalog.store.historyEntries().dropFirst(context.arguments.offset).prefix(context.arguments.limit ?? Int.max)
        if entries.isEmpty {
            if !context.arguments.json { Output.error("no recent searches") }
            return 1
        }
        for entry in entries {
            if context.arguments.json {
                context.output.line(JSONText.object([("query", JSONText.string(entry.query)),
                                                     ("time", JSONText.string(timestamp(entry.searchedAt, utc: true)))]))
            } else {
                context.output.line(context.output.dim(timestamp(entry.searchedAt, utc: false)) + "  " + Output.visible(entry.query))
            }
        }
        return 0
    }

    /// `2026-12-05 18:59` in local time, or `2026-12-05T18:59:57Z` (ISO 8601, UTC) for JSON.
    static func timestamp(_ seconds: Double, utc: Bool) -> String {
        var time = time_t(seconds)
        var parts = tm()
        if utc { gmtime_r(&time, &parts) } else { localtime_r(&time, &parts) }
        var text = [CChar](repeating: 0, count: 32)
        let length = strftime(&text, text.count, utc ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M", &parts)
        return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
