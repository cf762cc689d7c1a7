import Corpus
import Folding
import Index

extension SearchEngine {
    /// The page `options` ask for of ranked documents: by relevance, or sorted by a field.
    func window(_ ranked: consuming [(key: UInt64, doc: Int)], _ options: SearchOptions) -> ArraySlice<(key: UInt64, doc: Int)> {
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        if options.sort == .relevance {
            return topK(ranked, offset + limit).dropFirst(offset)
        }
        return sortByField(ranked, options).dropFirst(offset).prefix(limit)
    }

    /// The `count` smallest entries in order, without sorting everything (a few: sorted in
    /// place, no copy).
    func topK(_ entries: consuming [(key: UInt64, doc: Int)], _ count: Int) -> ArraySlice<(key: UInt64, doc: Int)> {
        guard count > 0 else { return [] }
        if entries.count <= count * 4 {
            entries.sort { $0.key < $1.key }
            return entries.prefix(count)
        }
        var top: [(key: UInt64, doc: Int)] = []
        top.reserveCapacity(count + 1)
        for entry in entries {
            if top.count == count, entry.key >= top[count - 1].key { continue }
            var i = top.count
            while i > 0 && top[i - 1].key > entry.key { i -= 1 }
            top.insert(entry, at: i)
            if top.count > count { top.removeLast() }
        }
        return top[...]
    }

    /// Sorted by a field; documents without that field last; ties keep relevance order.
    func sortByField(_ entries: [(key: UInt64, doc: Int)], _ options: SearchOptions) -> [(key: UInt64, doc: Int)] {
        let descending = options.descending
        switch options.sort {
        case .name:
            var keyed = entries.map { (name: Array(Folding.fold(index.displayName($0.doc, language: options.language)).utf8), entry: $0) }
            keyed.sort { a, b in
                if a.name != b.name { return descending ? b.name.lexicographicallyPrecedes(a.name) : a.name.lexicographicallyPrecedes(b.name) }
                return a.entry.key < b.entry.key
            }
            return keyed.map(\.entry)
        case .id:
            return entries.sorted { a, b in
                let x = index.docID[a.doc], y = index.docID[b.doc]
                if x != y { return descending ? x > y : x < y }
                return a.key < b.key
            }
        default:
            let column = options.sort.column!
            return entries.sorted { a, b in
                let x = index.number(column, a.doc), y = index.number(column, b.doc)
                let missingX = x == NumericColumn.missing, missingY = y == NumericColumn.missing
                if missingX != missingY { return missingY }
                if x != y { return descending ? x > y : x < y }
                return a.key < b.key
            }
        }
    }
}
