import Catalog
import Query

/// SEARCH <query> [options] → `{"ok":true,"total":N,"results":[...]}`, each result the
/// object `--json` prints.
enum SearchExecutor {
    static func run(query: String, options: SearchRequestOptions, engine: SearchEngine, into out: ByteBuffer) {
        let response: SearchResponse
        do {
            response = try engine.search(query, options: options.engineOptions)
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: out)
            return
        }
        out.append(#"{"ok":true,"total":"#)
        JSONText.appendInt(response.total, into: out)
        out.append(#","results":["#)
        JSONText.appendResults(response.results, into: out)
        out.append("]}\n")
    }
}
