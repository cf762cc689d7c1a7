import Catalog
import Query

/// GET <slug|id|kind:slug|name> → `{"ok":true,"entity":{...}}`, the same object as
/// `pokesearch show --json`; for a bare id other kinds also have, `"also"` lists those
/// entities (`GET 10009`: Wash Rotom, also Unown J, `form:10009`).
enum GetExecutor {
    static func run(key: String, loaded: LoadedIndex, into out: ByteBuffer) {
        switch loaded.resolver.resolve(key) {
        case .found(let doc, let others):
            let detail: EntityDetail?
            do {
                detail = try loaded.details.detail(doc, index: loaded.engine.index, language: 0)
            } catch {
                Response.error(ProtocolError(.storageError, "cannot read the details of '\(key)' from the database: \(error)"), into: out)
                return
            }
            if let detail {
                let also = others.map { JSONText.ref(EntityRef($0, in: loaded.engine.index, language: 0)) }
                Response.ok([("entity", detail.json)] + (also.isEmpty ? [] : [("also", JSONText.array(also))]), into: out)
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
