import Catalog
import Query

/// GET <slug|id|kind:slug|name> → `{"ok":true,"entity":{...}}`, the same object as
/// `pokesearch show --json`.
enum GetExecutor {
    static func run(key: String, loaded: LoadedIndex, into out: ByteBuffer) {
        switch loaded.resolver.resolve(key) {
        case .found(let doc, _):
            let detail: EntityDetail?
            do {
                detail = try loaded.details.detail(doc, index: loaded.engine.index, language: 0)
            } catch {
                Response.error(ProtocolError(.storageError, "cannot read the details of '\(key)' from the database: \(error)"), into: out)
                return
            }
            if let detail {
                Response.ok([("entity", detail.json)], into: out)
            } else {
                Response.error(ProtocolError(.notFound, "no details for '\(key)'"), into: out)
            }
        case .ambiguous(let docs):
            let index = loaded.engine.index
            let candidates = docs.map { "\(index.kind($0).rawValue):\(index.slug($0))" }.joined(separator: ", ")
            Response.error(ProtocolError(.ambiguous, "'\(key)' names several entities: \(candidates); GET one of them"), into: out)
        case .notFound:
            Response.error(ProtocolError(.notFound, "no entity '\(key)'; GET takes a slug (mr-mime), an id (25), kind:slug (move:thunderbolt) or a name"), into: out)
        }
    }
}
