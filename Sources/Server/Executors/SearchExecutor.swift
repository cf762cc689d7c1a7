import Catalog
import Corpus
import Query

/// SEARCH <query> [options] → `{"ok":true,"total":N,"results":[...]}`, each result the
/// object `--json` prints; sorted by a value, also `"sort_values":[...]` (one a result,
/// null where it has none); in a language other than English, `"type_names":{slug: name}`
/// for the results' types. `is:fav` reads the favourites from the database.
enum SearchExecutor {
    static func run(query: String, options: SearchRequestOptions, loaded: LoadedIndex, into out: ByteBuffer) {
        let engine = loaded.engine
        var engineOptions = options.engineOptions
        let response: SearchResponse
        if QueryParser.filtersFavourites(query) {
            do {
                engineOptions.favourites = try loaded.details.favouriteDocs(index: engine.index)
            } catch {
                Response.error(ProtocolError(.storageError, "cannot read the favourites from the database: \(error)"), into: out)
                return
            }
        }
        do {
            // `text:` and the move filters: from the connection GET reads details through.
            engineOptions.database = loaded.details
            response = try engine.search(query, options: engineOptions)
            if response.total == 0, let impossible = engine.impossibleFilter(query) { throw impossible }
        } catch {
            Response.error(ProtocolError(.badQuery, "\(error)"), into: out)
            return
        }
        out.append(#"{"ok":true,"total":"#)
        JSONText.appendInt(response.total, into: out)
        out.append(#","results":["#)
        JSONText.appendResults(response.results, into: out)
        out.append("]")
        if let values = engine.sortValues(of: response.results, sort: options.sort) {
            out.append(#","sort_values":["#)
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if let value { JSONText.appendInt(value, into: out) } else { out.append("null") }
            }
            out.append("]")
        }
        if options.language != 0 {
            let names = engine.typeNames(response.results.lazy.flatMap(\.types), language: options.language).sorted { $0.key < $1.key }
            out.appendUTF8(#","type_names":"# + JSONText.object(names.map { ($0.key, JSONText.string($0.value)) }))
        }
        out.append("}\n")
    }
}
