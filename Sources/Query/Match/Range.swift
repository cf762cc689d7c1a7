import Corpus
import Folding
import Index

extension MatchContext {
    /// Records the postings of a range of keys starting with a text of `length` bytes (the
    /// key of that length, sorting first, is equal to it; a whole word matches only that
    /// key; nil: none is, as for a typo's range, and no key's length is read). The hot loop
    /// of every query: a posting's low byte (language, role, transliterated) is the low byte
    /// of its hit, so a hit is a few shifts away. `scope`: only documents it holds are
    /// recorded (a typo's range, for a query whose other terms allow a few documents).
    func recordRange(_ range: Range<Int>, length: Int?, wholeWord: Bool, phrase: Bool, fields: FieldMatching, restriction: Int?,
                     queryTransliterated: Bool, typos: Int, within scope: HitMap? = nil, into hits: HitMap) {
        let display = UInt32(displayLanguage)
        let restricted = restriction.map(UInt32.init) ?? .max
        let transliterated: UInt32 = queryTransliterated ? 1 : 0
        // (One loop, made twice by inlining: the unscoped one, every query's, tests nothing more.)
        @inline(__always) func record(scoped: Bool) {
            index.postings.withUnsafeBufferPointer { postings in
                index.postingStart.withUnsafeBufferPointer { starts in
                    for key in range {
                        let exact = length.map { index.keys.length(key) == $0 } ?? false
                        if wholeWord && !exact { break } // the exact key sorts first in its range
                        let skipsFields = Self.skipsFields(fields, exact: exact)
                        for p in Int(starts[key])..<Int(starts[key + 1]) {
                            let raw = postings[p]
                            if scoped && !scope.unsafelyUnwrapped.contains(Int(raw >> 8)) { continue }
                            let role = (raw >> 1) & 7
                            let language = (raw >> 4) & 15
                            if role == KeyRole.field.rawValue {
                                if skipsFields { continue }
                            } else if restricted != .max && language != restricted {
                                continue
                            }
                            if phrase && role != KeyRole.whole.rawValue { continue }
                            let marked = raw | transliterated
                            hits.record(Int(raw >> 8), Hit(raw: Hit.raw(posting: marked, exact: exact, display: display, typos: UInt32(typos))))
                        }
                    }
                }
            }
        }
        if scope != nil { record(scoped: true) } else { record(scoped: false) }
    }

    /// A word term that surely has hits of its own (so no typo or transliteration fallback
    /// applies to it), with the keys it matches by prefix (by equality for a whole word) and
    /// their posting count: such a term can be matched on candidate documents alone.
    func deferrable(_ term: Term, _ located: TermNode) -> (keys: Range<Int>, postings: Int)? {
        guard term.shape == .word || term.shape == .wholeWord, term.language == nil, languageRestriction == nil,
              let node = located.node else { return nil }
        // A type word's kept hits cost less than reading it on candidates.
        if let typeWords, keepsHits(of: term, typeWords) { return nil }
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
        // The names' keys asked for at once, before any is searched (each is a miss of its own
        // when the caches are cold: "rock meg" searches a candidate's names in ten languages).
        for i in Int(tops.docKeyStart[doc])..<end {
            let entry = tops.docPostings[i]
            if Posting.holdsInside(entry, latinTerm: latinTerm) { index.prefetchKey(Int(entry >> 8)) }
        }
        // (As `matchText`: a term equal to a slug or synonym, nothing inside foreign names' words.)
        func namesAnEntity() -> Bool {
            !keys.isEmpty && index.keys.length(keys.lowerBound) == bytes.count && index.isNeutralName(key: keys.lowerBound)
        }
        // Names containing the word inside a word (keys in `keys` start with it, and a later
        // word starting with it is a key of its own there, as `matchText` reads it). A name in
        // several languages is one key with a posting for each, side by side: it is searched
        // once.
        var searchedKey = -1
        var holdsInside = false
        for i in Int(tops.docKeyStart[doc])..<end {
            let entry = tops.docPostings[i]
            let key = Int(entry >> 8)
            guard Posting.holdsInside(entry, latinTerm: latinTerm), !keys.contains(key) else { continue }
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

    /// A document's best hit on a range of keys starting with a text of `length` bytes, read
    /// from the document's own postings (the forward index): what `recordRange` records for
    /// that document (`wholeWord`: the key of that length alone; `wholeNamesOnly`: whole names
    /// as written alone, as a phrase matches them), or `.max` for none.
    static func rangeHit(_ index: IndexSnapshot, doc: Int, keys: Range<Int>, length: Int, wholeWord: Bool, wholeNamesOnly: Bool,
                         fields: FieldMatching, display: UInt32) -> UInt32 {
        let tops = index.tops
        var best = UInt32.max
        let end = Int(tops.docKeyStart[doc + 1])
        var i = tops.firstPosting(of: doc, fromKey: keys.lowerBound)
        while i < end {
            let entry = tops.docPostings[i]
            let key = Int(entry >> 8)
            guard key < keys.upperBound else { break }
            i += 1
            best = min(best, keyHit(index, key: key, posting: entry, length: length, wholeWord: wholeWord, wholeNamesOnly: wholeNamesOnly,
                                    fields: fields, display: display))
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
