import Catalog
import Corpus
import Query

/// COMPLETE <prefix> [options] → `{"ok":true,"suggestions":[{"text","kind","id","slug"},...]}`.
enum CompleteExecutor {
    static func run(prefix: String, limit: Int, language: Int, kinds: Set<Kind>, engine: SearchEngine, into out: inout [UInt8]) {
        let suggestions: [Suggestion]
        do {
            suggestions = limit == 0 ? [] : try engine.complete(prefix, limit: limit, language: language, kinds: kinds)
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: &out)
            return
        }
        out.append(contentsOf: #"{"ok":true,"suggestions":["#.utf8)
        for (i, suggestion) in suggestions.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: JSONText.suggestion(suggestion).utf8)
        }
        out.append(contentsOf: "]}\n".utf8)
    }
}
