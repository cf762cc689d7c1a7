import Catalog
import Corpus
import Query

/// COMPLETE <prefix> [options] → `{"ok":true,"suggestions":[{"text","kind","id","slug"},...]}`.
enum CompleteExecutor {
    static func run(prefix: String, limit: Int, language: Int, kinds: Set<Kind>, engine: SearchEngine, into out: ByteBuffer) {
        let suggestions: Suggestions?
        do {
            suggestions = limit == 0 ? nil : try engine.complete(prefix, limit: limit, language: language, kinds: kinds)
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: out)
            return
        }
        out.append(#"{"ok":true,"suggestions":["#)
        if let suggestions { JSONText.appendSuggestions(suggestions, into: out) }
        out.append("]}\n")
    }
}
