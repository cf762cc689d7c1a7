import Corpus
import Index
import Locking

/// The hits of words naming a type ("fire", "feuer", "normal"), kept once matched, for the
/// engine's life. Such a word is in most searches of several words (a type and a name's
/// start: "normal minc"), and matching it reads thousands of postings (its field keys in
/// each language, the names holding it further in) for the same hits every time; read on
/// candidates instead, it is read on every document a typo of the other words brings. Like a
/// search engine's cache of frequent filters: the words are a closed set (the types' slugs
/// and names in every language), a few kilobytes each per display language.
final class TypeWordHits: Sendable {
    /// The keys of the words whose hits are kept (folded), sorted: a word's number (what
    /// `kept` files its entries by) is its place here. A term's key is found in the trie anyway,
    /// so telling whether it is such a word costs a search of these, not a hash of its text.
    let keys: [Int32]
    struct Entry: Sendable {
        /// Each document hit, once (`HitMap.packed`).
        let hits: [UInt64]
        /// What matching the word charged the query's budget (charged again when read).
        let postings: Int
    }
    /// Entries by word number << 8 | display language.
    private let kept = Locked<[Int: Entry]>([:])

    init(index: IndexSnapshot) {
        // As `MatchContext.typeNamed` reads a word: a type's slug, or a whole name of a type.
        var keys = Set(index.foldedTypeSlugs.compactMap { index.keyIndex(Array($0.utf8)).map(Int32.init) })
        let tops = index.tops
        for doc in 0..<index.docCount where index.docKind[doc] == UInt8(Kind.type.rank) {
            for i in Int(tops.docKeyStart[doc])..<Int(tops.docKeyStart[doc + 1]) where Posting.isWholeName(tops.docPostings[i]) {
                keys.insert(Int32(tops.docPostings[i] >> 8))
            }
        }
        self.keys = keys.sorted()
    }

    /// The number of the word whose key is `key`, if its hits are kept.
    @inline(__always) func number(ofKey key: Int) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if Int(keys[middle]) < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && Int(keys[low]) == key ? low : nil
    }

    func entry(_ number: Int, display: Int) -> Entry? {
        kept.withLock { $0[number << 8 | display] }
    }

    /// Keeps a word's hits (`matched`) for a display language.
    func keep(_ number: Int, display: Int, _ matched: HitMap, postings: Int) {
        let entry = Entry(hits: matched.packed, postings: postings)
        kept.withLock { $0[number << 8 | display] = entry }
    }
}
