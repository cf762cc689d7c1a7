import Catalog
import Corpus
import Query

/// COMPLETE <prefix> [options] → `{"ok":true,"suggestions":[{"text","kind","id","slug"},...]}`.
enum CompleteExecutor {
    static func run(prefix: String, limit: Int, language: Int, kinds: Set<Kind>, engine: SearchEngine, into out: ByteBuffer) {
        let suggestions: [Suggestion]
        do {
            suggestions = limit == 0 ? [] : try engine.complete(prefix, limit: limit, language: language, kinds: kinds)
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: out)
            return
        }
        out.append(#"{"ok":true,"suggestions":["#)
        for (i, suggestion) in suggestions.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendSuggestion(suggestion, into: out)
        }
        out.append("]}\n")
    }
}
