import Catalog

/// RELOAD → rebuilds the index from the database on a thread of its own, swaps it in, then
/// answers `{"ok":true,"entities":N,"index_build_ms":T}` (or `reload_failed`, keeping the
/// old index). Requests on other connections go on meanwhile on the old index.
enum ReloadExecutor {
    static func answer(_ outcome: Result<LoadedIndex, ReloadFailure>, into out: ByteBuffer) {
        switch outcome {
        case .success(let loaded):
            let entities = loaded.counts.reduce(0) { $0 + $1.count }
            Response.ok([("entities", String(entities)),
                         ("index_build_ms", JSONText.number((loaded.loadMilliseconds * 10).rounded() / 10))], into: out)
        case .failure(let failure):
            Response.error(ProtocolError(.reloadFailed, "cannot rebuild the index, still serving the previous one: \(failure.message)"), into: out)
        }
    }
}

/// Why a rebuild failed, as the message sent to clients.
struct ReloadFailure: Error {
    let message: String
}
