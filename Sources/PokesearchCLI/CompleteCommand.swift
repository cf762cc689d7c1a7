import Catalog
import Corpus
import Foundation
import Query
import Server

/// `pokesearch complete PREFIX`: suggestions for the text being typed, one per line
/// (or JSON Lines with --json, or slugs with --slugs for shell completion). Asks a
/// running server first.
enum CompleteCommand {
    /// One suggestion as printed: its JSON object, its text and its slug.
    struct Line {
        var json: String
        var text: String
        var slug: String
        var kind: Kind
    }

    static func run(_ context: CommandContext) throws -> Int32 {
        let text = context.arguments.positional.joined(separator: " ")
        guard !text.isEmpty else {
            throw CLIError.usage("complete needs the text being typed, e.g. `pokesearch complete pika`")
        }
        let limit = context.arguments.limit ?? 8
        let language = try context.arguments.languageIndex(environment: context.environment)
        let kinds = Set(context.arguments.kinds)
        let lines: [Line]
        if let served = try askServer(text, limit: limit, language: language, kinds: kinds, context) {
            lines = served
        } else {
            // (No suggestions for a limit of 0, as the server's COMPLETE answers.)
            let suggestions = limit == 0 ? [] : Array(try context.catalog().engine.complete(text, limit: limit, language: language, kinds: kinds))
            lines = suggestions.map { Line(json: JSONText.suggestion($0), text: $0.text, slug: $0.slug, kind: $0.kind) }
        }
        // A slug two kinds share (move:metronome, item:metronome) is offered as kind:slug,
        // which `show` takes without asking which one.
        var slugCounts: [String: Int] = [:]
        for line in lines { slugCounts[line.slug, default: 0] += 1 }
        for line in lines {
            let slug = slugCounts[line.slug, default: 0] > 1 ? "\(line.kind.rawValue):\(line.slug)" : line.slug
            context.output.line(context.arguments.json ? line.json : context.arguments.flags.contains("--slugs") ? slug : line.text)
        }
        // Completions are what the shell asks for at each TAB: never history.
        return lines.isEmpty ? 1 : 0
    }

    static func askServer(_ text: String, limit: Int, language: Int, kinds: Set<Kind>, _ context: CommandContext) throws -> [Line]? {
        guard let answer = try ServerClient.ask(.complete(prefix: text, limit: limit, language: language, kinds: kinds),
                                                elementsKey: "suggestions", context: context) else { return nil }
        var lines: [Line] = []
        for element in answer.elements {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(element.utf8))) as? [String: Any],
                  let text = object["text"] as? String, let slug = object["slug"] as? String,
                  let kind = (object["kind"] as? String).flatMap(Kind.init(rawValue:)) else { return nil }
            lines.append(Line(json: element, text: text, slug: slug, kind: kind))
        }
        return lines
    }
}
