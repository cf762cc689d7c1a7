import Catalog
import Query

/// GET <slug|id|kind:slug> → `{"ok":true,"entity":{...}}`.
enum GetExecutor {
    static func run(key: String, engine: SearchEngine, into out: inout [UInt8]) {
        guard let doc = EntityJSON.resolve(key, in: engine.index) else {
            Response.error(ProtocolError(.notFound, "no entity '\(key)'; GET takes a slug (mr-mime), an id (25) or kind:slug (move:thunderbolt)"), into: &out)
            return
        }
        Response.ok([("entity", EntityJSON.object(engine.index, doc: doc))], into: &out)
    }
}
