import Corpus
import Folding
import Index

extension MatchContext {
    /// Records the postings of a range of keys starting with a text of `length` bytes (the
    /// key of that length, sorting first, is equal to it; a whole word matches only that
    /// key; nil: none is, as for a typo's range, and no key's length is read). The hot loop
    /// of every query: a posting's low byte (language, role, transliterated) is the low byte
    /// of its hit, so a hit is a few shifts away. `scope`: only documents it holds are
    /// recorded (a typo's range, for a query whose other terms allow a few documents); where
    /// the range has many postings for each of those, their own postings are read instead
    /// (the forward index): a short typo's ranges ("maro" an edit from every key starting
    /// "mar") hold thousands, of which a query of a type and an ability allows a few dozen.
    func recordRange(_ range: Range<Int>, length: Int?, wholeWord: Bool, phrase: Bool, fields: FieldMatching, restriction: Int?,
                     queryTransliterated: Bool, typos: Int, within scope: HitMap? = nil, into hits: HitMap) {
        let display = UInt32(displayLanguage)
        let restricted = restriction.map(UInt32.init) ?? .max
        let transliterated: UInt32 = queryTransliterated ? 1 : 0
        // Records one posting (or a document's entry of it: the same low byte) of a key.
        @inline(__always) func consider(_ raw: UInt32, doc: Int, exact: Bool, skipsFields: Bool) {
            let role = (raw >> 1) & 7
            let language = (raw >> 4) & 15
            if role == KeyRole.field.rawValue {
                if skipsFields { return }
            } else if restricted != .max && language != restricted {
                return
            }
            if phrase && role != KeyRole.whole.rawValue { return }
            let marked = raw | transliterated
            hits.record(doc, Hit(raw: Hit.raw(posting: marked, exact: exact, display: display, typos: UInt32(typos))))
        }
        // (One loop, made twice by inlining: the unscoped one, every query's, tests nothing more.)
        @inline(__always) func record(scoped: Bool) {
            guard !range.isEmpty else { return }
            index.postings.withUnsafeBufferPointer { postings in
                index.postingStart.withUnsafeBufferPointer { starts in
                    @inline(__always) func recordPostings(_ postingRange: Range<Int>, exact: Bool) {
                        let skipsFields = Self.skipsFields(fields, exact: exact)
                        for p in postingRange {
                            let raw = postings[p]
                            if scoped && !scope.unsafelyUnwrapped.contains(Int(raw >> 8)) { continue }
                            consider(raw, doc: Int(raw >> 8), exact: exact, skipsFields: skipsFields)
                        }
                    }
                    // Only the first key can equal the text (it sorts first in its range): the
                    // others' postings, side by side, are read in one loop, not key by key (a
                    // short typo's ranges hold thousands of keys of a few postings each).
                    var rest = range.lowerBound
                    if let length, index.keys.length(rest) == length {
                        recordPostings(Int(starts[rest])..<Int(starts[rest + 1]), exact: true)
                        rest += 1
                    }
                    // A whole word matches the equal key alone.
                    guard !wholeWord else { return }
                    recordPostings(Int(starts[rest])..<Int(starts[range.upperBound]), exact: false)
                }
            }
        }
        guard let scope else { return record(scoped: false) }
        guard readsOnDocuments(range, within: scope) else { return record(scoped: true) }
        for doc in scope.docs {
            index.tops.forEachEntry(of: Int(doc), in: range) { key, entry in
                let exact = length.map { index.keys.length(key) == $0 } ?? false
                if wholeWord && !exact { return false }
                consider(entry & 0xFF, doc: Int(doc), exact: exact, skipsFields: Self.skipsFields(fields, exact: exact))
                return true
            }
        }
    }

    /// Whether `recordRange` reads a range on the scope's documents' own postings: where it has
    /// more than `postingsPerScopedDocument` postings for each of them.
    func readsOnDocuments(_ range: Range<Int>, within scope: HitMap?) -> Bool {
        guard let scope else { return false }
        let postings = Int(index.postingStart[range.upperBound] - index.postingStart[range.lowerBound])
        return postings > Self.postingsPerScopedDocument * scope.count
    }

    /// A scoped range is read on its documents' own postings (`recordRange`) when it has more
    /// than this many postings for each of them: a document's postings are found by a binary
    /// search, a range's posting by one read.
    static let postingsPerScopedDocument = 16

    /// A word term that surely has hits of its own (so no typo or transliteration fallback
    /// applies to it), with the keys it matches by prefix (by equality for a whole word) and
    /// their posting count: such a term can be matched on candidate documents alone.
    func deferrable(_ term: Term, _ located: TermNode) -> (keys: Range<Int>, postings: Int)? {
        guard term.shape == .word || term.shape == .wholeWord, term.language == nil, languageRestriction == nil,
              let node = located.node else { return nil }
        // A type word's kept hits cost less than reading it on candidates.
        if let typeWords, keptWord(term, located, typeWords) != nil { return nil }
        // A listed word is matched in full at the cost of its list.
        if namesListed(term, located) != nil { return nil }
        let keys: Range<Int>
        if term.shape == .wholeWord {
            guard let key = index.keyEqualToPrefix(of: node, length: located.length) else { return nil }
            keys = key..<key + 1
        } else {
            keys = index.nodeKeys(node)
        }
        let postings = Int(index.postingStart[keys.upperBound] - index.postingStart[keys.lowerBound])
        // The range must hold a name (the lists leave fields out).
        if fields(term) != .prefix && index.tops.names(node).isEmpty { return nil }
        return (keys, postings)
    }

    /// A deferrable word term's best hit on one document, read from the document's own
    /// postings: what `matchText` records for that document (prefix or exact on `keys`,
    /// with `substrings` names containing it further in), or nil.
    func wordHit(_ term: Term, bytes: UnsafeBufferPointer<UInt8>, keys: Range<Int>, substrings: Bool, doc: Int) -> UInt32? {
        let tops = index.tops
        let display = UInt32(displayLanguage)
        var best = Self.rangeHit(index, doc: doc, keys: keys, length: bytes.count, wholeWord: term.shape == .wholeWord,
                                 wholeNamesOnly: false, fields: fields(term), display: display)
        let end = Int(tops.docKeyStart[doc + 1])
        // A hit further in is inside a word, at best in the display language. (A completion
        // takes none: `matchText` leaves later words' starts to their own keys.)
        let bestInside = HitRank.of(miss: 0, whole: false, position: Position.substring.rawValue)
        guard substrings, !completion, best >> 8 >= bestInside else { return best == .max ? nil : best }
        let latinTerm = !bytes.contains { $0 >= 0x80 }
        // A name in another language holds the word only as weakly as a typo: where the best
        // hit has none (a foreign name's prefix), only the display language's names can do
        // better, and the others are not searched.
        let displayOnly = best != .max && HitRank.typos(best >> 8) == 0
        @inline(__always) func searched(_ entry: UInt32) -> Bool {
            Posting.holdsInside(entry, latinTerm: latinTerm) && !(displayOnly && Posting.languageMiss(entry, display: display) != 0)
        }
        // (As `matchText`: a term equal to a slug or synonym, nothing inside foreign names' words.)
        func namesAnEntity() -> Bool { index.isNeutralName(text: keys, length: bytes.count) }
        let start = Int(tops.docKeyStart[doc])
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: end - start) { names in
            // The names to search, their keys asked for at once before any is searched (each is
            // a miss of its own when the caches are cold: "rock meg" searches a candidate's names
            // in ten languages).
            var count = 0
            for i in start..<end {
                let entry = tops.docPostings[i]
                guard searched(entry), !keys.contains(Int(entry >> 8)) else { continue }
                index.prefetchKey(Int(entry >> 8))
                names[count] = entry
                count += 1
            }
            // Names containing the word inside a word (keys in `keys` start with it, and a later
            // word starting with it is a key of its own there, as `matchText` reads it). A name
            // in several languages is one key with a posting for each, side by side: it is
            // searched once.
            var searchedKey = -1
            var holdsInside = false
            for entry in names[..<count] {
                let key = Int(entry >> 8)
                if key != searchedKey {
                    searchedKey = key
                    holdsInside = index.offsetInsideWord(of: bytes, in: key) != nil
                }
                let rank = HitRank.inside(posting: entry, position: Position.substring.rawValue, display: display)
                guard holdsInside, !(HitRank.isWeak(rank) && namesAnEntity()) else { continue }
                best = min(best, Hit.raw(rank: rank, postingByte: entry & 0xFF))
            }
            return best == .max ? nil : best
        }
    }

    /// A document's best hit on a range of keys starting with a text of `length` bytes, read
    /// from the document's own postings (the forward index): what `recordRange` records for
    /// that document (`wholeWord`: the key of that length alone; `wholeNamesOnly`: whole names
    /// as written alone, as a phrase matches them), or `.max` for none.
    static func rangeHit(_ index: IndexSnapshot, doc: Int, keys: Range<Int>, length: Int, wholeWord: Bool, wholeNamesOnly: Bool,
                         fields: FieldMatching, display: UInt32) -> UInt32 {
        var best = UInt32.max
        index.tops.forEachEntry(of: doc, in: keys) { key, entry in
            best = min(best, keyHit(index, key: key, posting: entry, length: length, wholeWord: wholeWord, wholeNamesOnly: wholeNamesOnly,
                                    fields: fields, display: display))
            return true
        }
        return best
    }

    /// The hit one posting of `key` (a posting, or any value with its low byte) gives a text
    /// of `length` bytes that the key starts with, as `rangeHit` reads it, or `.max` for none.
    @inline(__always) static func keyHit(_ index: IndexSnapshot, key: Int, posting: UInt32, length: Int, wholeWord: Bool,
                                         wholeNamesOnly: Bool, fields: FieldMatching, display: UInt32) -> UInt32 {
        let role = Int((posting >> 1) & 7)
        let exact = index.keys.length(key) == length
        if role == Int(KeyRole.field.rawValue) && skipsFields(fields, exact: exact) { return .max }
        if wholeWord && !exact { return .max }
        if wholeNamesOnly && role != Int(KeyRole.whole.rawValue) { return .max }
        return Hit.raw(posting: posting, exact: exact, display: display)
    }
}
