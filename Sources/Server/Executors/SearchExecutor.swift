import Catalog
import Query

/// SEARCH <query> [options] → `{"ok":true,"total":N,"results":[...]}`, each result the
/// object `--json` prints.
enum SearchExecutor {
    static func run(query: String, options: SearchRequestOptions, engine: SearchEngine, into out: inout [UInt8]) {
        let response: SearchResponse
        do {
            response = try engine.search(query, options: options.engineOptions)
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: &out)
            return
        }
        out.append(contentsOf: #"{"ok":true,"total":"#.utf8)
        out.append(contentsOf: String(response.total).utf8)
        out.append(contentsOf: #","results":["#.utf8)
        for (i, result) in response.results.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: JSONText.result(result).utf8)
        }
        out.append(contentsOf: "]}\n".utf8)
    }
}
