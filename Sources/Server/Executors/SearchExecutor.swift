import Catalog
import Query

/// SEARCH <query> [options] → `{"ok":true,"total":N,"results":[...]}`, each result the
/// object `--json` prints.
enum SearchExecutor {
    static func run(query: String, options: SearchRequestOptions, engine: SearchEngine, database: (any DatabaseFilters)? = nil,
                    into out: ByteBuffer) {
        let response: SearchResponse
        do {
            var engineOptions = options.engineOptions
            // `text:` and the move filters: from the connection GET reads details through.
            engineOptions.database = database
            response = try engine.search(query, options: engineOptions)
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
