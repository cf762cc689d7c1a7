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
    /// The words whose hits are kept (folded), numbered for the keys of `kept`.
    let words: [String: Int]
    /// A bit for each of the words' shapes (length, first and last bytes: `shape`): most
    /// terms are told apart from every type word without hashing them.
    private let shapes: [UInt64]
    struct Entry: Sendable {
        /// Each document hit: document << 32 | hit.
        let hits: [UInt64]
        /// What matching the word charged the query's budget (charged again when read).
        let postings: Int
    }
    /// Entries by word number << 8 | display language.
    private let kept = Locked<[Int: Entry]>([:])

    init(index: IndexSnapshot) {
        // As `MatchContext.typeNamed` reads a word: a type's slug, or a whole name of a type.
        var words = Set(index.foldedTypeSlugs)
        let tops = index.tops
        for doc in 0..<index.docCount where index.docKind[doc] == UInt8(Kind.type.rank) {
            for i in Int(tops.docKeyStart[doc])..<Int(tops.docKeyStart[doc + 1]) where Posting.isWholeName(tops.docPostings[i]) {
                words.insert(index.keyString(Int(tops.docPostings[i] >> 8)))
            }
        }
        self.words = Dictionary(uniqueKeysWithValues: words.sorted().enumerated().map { ($1, $0) })
        var shapes = [UInt64](repeating: 0, count: Self.shapeBits / 64)
        for word in words { shapes[Self.shape(word) >> 6] |= 1 << UInt64(Self.shape(word) & 63) }
        self.shapes = shapes
    }

    static let shapeBits = 1024

    @inline(__always) static func shape(_ word: String) -> Int {
        // (A native string's bytes in place: its view's `last` walks back through the view.)
        let ends = word.utf8.withContiguousStorageIfAvailable { bytes in (bytes.count, bytes.first ?? 0, bytes.last ?? 0) }
            ?? (word.utf8.count, word.utf8.first ?? 0, word.utf8.reversed().first ?? 0)
        return (ends.0 &* 97 &+ Int(ends.1) &* 31 &+ Int(ends.2)) & (shapeBits - 1)
    }

    /// Whether `word` is one whose hits are kept.
    @inline(__always) func holds(_ word: String) -> Bool {
        let shape = Self.shape(word)
        return shapes[shape >> 6] & 1 << UInt64(shape & 63) != 0 && words[word] != nil
    }

    func entry(_ word: String, display: Int) -> Entry? {
        guard let number = words[word] else { return nil }
        return kept.withLock { $0[number << 8 | display] }
    }

    /// Keeps a word's hits (`matched`) for a display language.
    func keep(_ word: String, display: Int, _ matched: HitMap, postings: Int) {
        guard let number = words[word] else { return }
        var hits: [UInt64] = []
        hits.reserveCapacity(matched.count)
        for doc in matched.docs { hits.append(UInt64(UInt32(doc)) << 32 | UInt64(matched.best[Int(doc)])) }
        let entry = Entry(hits: hits, postings: postings)
        kept.withLock { $0[number << 8 | display] = entry }
    }
}
