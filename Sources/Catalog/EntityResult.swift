import Query

extension SearchEngine {
    /// Document `doc` as a search result (what `fav` and `random` list), found through the
    /// engine's own id filter so that it has every field a search gives.
    public func result(doc: Int, language: Int) throws -> SearchResult? {
        var options = SearchOptions()
        options.language = language
        options.kinds = [index.kind(doc)]
        options.limit = SearchOptions.maxLimit
        return try search("id:\(index.id(doc))", options: options).results.first { $0.doc == doc }
    }
}
