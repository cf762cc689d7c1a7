import Corpus
import Folding
import Index

/// A filter with its value resolved against the index (type slug → type number, …).
/// Payloads are plain values, so testing a document copies nothing.
enum ResolvedFilter {
    case type(UInt8)
    /// Ability ids, as a bitmask over ids (abilities number a few hundred).
    case ability(AbilityMask)
    case color(UInt8)
    case habitat(UInt8)
    case flag(DocFlags)
    case favourite
    case number(NumericColumn, Comparison)
    case id(Comparison)
    case kind(UInt8)
    /// The documents the database found (`DatabaseFilter`).
    case docs(Set<Int32>)
}

/// A set of ability ids below 512, by value.
struct AbilityMask {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    mutating func insert(_ id: UInt16) {
        guard id < 512 else { return }
        withUnsafeMutableBytes(of: &words) { $0.bindMemory(to: UInt64.self)[Int(id >> 6)] |= 1 << UInt64(id & 63) }
    }

    func contains(_ id: UInt16) -> Bool {
        guard id < 512 else { return false }
        return withUnsafeBytes(of: words) { $0.bindMemory(to: UInt64.self)[Int(id >> 6)] & (1 << UInt64(id & 63)) != 0 }
    }

    var isEmpty: Bool { withUnsafeBytes(of: words) { $0.bindMemory(to: UInt64.self).allSatisfy { $0 == 0 } } }
}

/// What one query may spend: postings read, typo-search steps, and wildcard-matching steps
/// (a scalar of a candidate key compared, a key read). Spent, the query is refused as too
/// broad, so that no query runs for long (a few milliseconds at most).
struct WorkBudget {
    var postings: Int
    var typoSteps: Int
    var wildcardSteps: Int
    init(postings: Int = 600_000, typoSteps: Int = 150_000, wildcardSteps: Int = 2_000_000) {
        self.postings = postings
        self.typoSteps = typoSteps
        self.wildcardSteps = wildcardSteps
    }
    var isSpent: Bool { postings < 0 || typoSteps <= 0 || wildcardSteps < 0 }
}

/// Matches terms against the index and evaluates filters, for one query.
struct MatchContext {
    let index: IndexSnapshot
    let displayLanguage: Int
    let languageRestriction: Int?
    /// Completion: the word being typed matches names by prefix (the words before it are
    /// whole words, matched against fields too: "fire char" suggests Charizard), and fields
    /// only typed out in full after other words (see `fields`).
    let completion: Bool
    /// A completion whose word being typed follows other clauses (a query being typed, not
    /// a name).
    let typedAfterOthers: Bool
    /// Whether the word being typed may be read from its trie node's list (`namesListed`).
    let readsLists: Bool
    /// Where the query's hit maps come from (and go back to once its results are read),
    /// and what it may still spend.
    let lease: QueryLease

    var budget: WorkBudget {
        get { lease.budget }
        nonmutating _modify { yield &lease.budget }
    }

    /// Wildcard patterns without three letters in a row may scan a prefix range of keys;
    /// past this many keys the pattern is refused as too broad.
    static let maxWildcardScan = 20_000

    /// What a posting recorded by a wildcard pattern costs in wildcard steps.
    static let wildcardStepsPerPosting = 64

    /// A term's text found in the trie, once for every way a query reads the term (deferring
    /// it, listing it, matching it): its node, nil when no key starts with the text, and the
    /// keys starting with it (every key for an empty text).
    struct TermNode {
        let node: Int?
        let keys: Range<Int>
        let length: Int
    }

    /// `bytes` located; `start`: its first bytes located already.
    func locate(_ bytes: UnsafeBufferPointer<UInt8>, after start: TermNode? = nil) -> TermNode {
        guard !bytes.isEmpty else { return TermNode(node: nil, keys: 0..<index.keys.count, length: 0) }
        let node: Int?
        if let start, start.length > 0 {
            node = start.node.flatMap { index.prefixNode(bytes, from: $0, known: start.length) }
        } else {
            node = index.prefixNode(bytes)
        }
        return TermNode(node: node, keys: node.map(index.nodeKeys) ?? 0..<0, length: bytes.count)
    }

    /// The term's own text located (a wildcard's pieces are found otherwise: nil).
    func locate(_ term: Term) -> TermNode? {
        if case .wildcard = term.shape { return nil }
        var text = term.text
        return text.withUTF8 { locate($0) }
    }

    /// A term's hits: in its own script first; with no exact or prefix hit there (none, or
    /// only names holding it further in: "gengr" is inside "Morgengrauen"), also within the
    /// typo budget ("Gengar"); failing both (non-Latin text), through its Latin
    /// transliteration. `located`: the term's text located already.
    func match(_ term: Term, allowTypos: Bool, located: TermNode? = nil) throws -> HitMap {
        let hits = lease.newMap()
        let restriction = term.language ?? languageRestriction
        switch term.shape {
        case .word, .wholeWord, .phrase:
            let located = located ?? locate(term)!
            if let names = namesListed(term, located) {
                recordListed(names, node: located, fields: fields(term), into: hits)
                return hits
            }
            let wholeWord = term.shape == .wholeWord
            var text = term.text
            let startsKeys = text.withUTF8 {
                matchText($0, located: located, phrase: term.shape == .phrase, wholeWord: wholeWord, fields: fields(term),
                          restriction: restriction, queryTransliterated: false, into: hits)
            }
            if allowTypos && term.shape != .phrase && !startsKeys {
                searchTypos(term, besideSubstrings: !hits.isEmpty, into: hits)
            }
            if hits.isEmpty, let latin = Folding.transliterate(term.text) {
                matchText(latin, phrase: latin.contains(" "), wholeWord: wholeWord, fields: fields(term), restriction: restriction,
                          queryTransliterated: true, into: hits)
            }
        case .wildcard(let pieces):
            try matchWildcard(pieces, term: term, restriction: restriction, into: hits)
        }
        return hits
    }

    /// The list of the word being typed in a completion (its trie node's), when that list
    /// holds every name of the word's key range (fewer than the list's capacity): those names,
    /// best hit first, are what reading the range would record, without reading it (a range
    /// repeats a name in each language that spells it alike: "silval" is 18 documents in 396
    /// postings). The lists are ranked for the default display language; a restricted
    /// language, or a word that folds to several, reads the range.
    func namesListed(_ term: Term, _ located: TermNode) -> Range<Int>? {
        guard mayBeListed(term), let node = located.node else { return nil }
        return allNames(node)
    }

    private func mayBeListed(_ term: Term) -> Bool {
        completion && readsLists && term.shape == .word && term.language == nil && languageRestriction == nil
            && UInt32(displayLanguage) == PrefixTops.language && !matchesWordStarts(term)
    }

    /// A node's list of names, when it holds every name of the node's range.
    private func allNames(_ node: Int) -> Range<Int>? {
        let names = index.tops.names(node)
        return !names.isEmpty && names.count < PrefixTops.capacity ? names : nil
    }

    /// Records a listed word's names (see `namesListed`). A list entry is the ranking's bits
    /// of a document's hit (`HitRank`), which is all a completion's ranking reads of it (its
    /// posting's language and role, for explanations, are left out: no language). The
    /// postings of the key equal to the word are whole words, which the lists rank as
    /// prefixes (but for names matched through their transliteration, prefixes there as here:
    /// `HitRank.of`). Fields equal to the word are recorded too where the word matches them
    /// (`fields`).
    private func recordListed(_ names: Range<Int>, node located: TermNode, fields: FieldMatching, into hits: HitMap) {
        let unknownPosting = Posting.noLanguage << 4
        recordListed(names, typos: 0, into: hits)
        guard let exactKey = index.keyEqualToPrefix(of: located.node!, length: located.length) else { return }
        budget.postings -= index.postingRange(key: exactKey).count
        for p in index.postingRange(key: exactKey) {
            let raw = index.postings[p]
            if (raw >> 1) & 7 == KeyRole.field.rawValue {
                if !Self.skipsFields(fields, exact: true) {
                    hits.record(Int(raw >> 8), Hit(raw: Hit.raw(posting: raw, exact: true, display: PrefixTops.language)))
                }
                continue
            }
            guard !Posting(raw: raw).isTransliterated else { continue }
            hits.record(Int(raw >> 8), Hit(raw: Hit.raw(rank: HitRank.of(posting: raw, exact: true, display: PrefixTops.language),
                                                        postingByte: unknownPosting)))
        }
    }

    /// Records a list's names (see `namesListed`), each `typos` edits from the term.
    private func recordListed(_ names: Range<Int>, typos: Int, into hits: HitMap) {
        budget.postings -= names.count
        for i in names {
            let entry = index.tops.entries[i]
            hits.record(PrefixTops.doc(entry), Hit(raw: Hit.raw(rank: PrefixTops.rank(entry) + UInt32(typos) << HitRank.typoShift,
                                                                postingByte: Posting.noLanguage << 4)))
        }
    }

    /// Whether a term that had hits of its own may still be a misspelling, for a query whose
    /// terms found nothing together: a word term, unless it names a type as `type:` would take
    /// it ("fire", "ground", "feuer": the words of most multi-term queries, meant as typed).
    func mayBeMisspelt(_ term: Term) -> Bool {
        guard term.shape == .word || term.shape == .wholeWord else { return false }
        return typeNamed(term.text) == nil
    }

    /// The type a folded word names: its slug, or its name in any language ("feu", "feuer").
    func typeNamed(_ value: String) -> UInt8? {
        if let i = index.foldedTypeSlugs.firstIndex(of: value) { return UInt8(i) }
        for doc in docsNamed(value, kind: .type) {
            if let i = index.typeSlugs.firstIndex(of: index.slug(doc)) { return UInt8(i) }
        }
        return nil
    }

    /// Adds typo hits to a term that had hits of its own (see `mayBeMisspelt`): exact hits
    /// still rank first, typos count.
    func addTypos(_ term: Term, into hits: HitMap) {
        searchTypos(term, besideSubstrings: false, into: hits)
    }

    /// Whole names that equal or start with the terms of a query read as one phrase, and
    /// those whose compact form equals it: "poke ball" as two terms still ranks the Poké
    /// Ball, whose whole name it is, first; "mega sc" ranks the Megas whose names it starts
    /// (Mega Scizor, Mega Sceptile) before those "sc" matched apart from "mega" (Mega
    /// Pinsir, by its French name Méga-Scarabrute). Words and numbers make a phrase
    /// ("zygarde 10"); nil when another kind of term is there. The first term's text located is where the phrase and its compact form are
    /// looked up from (both start with it when it is one word).
    func phraseHits(_ slots: [TermSlot], of parsed: ParsedQuery) -> HitMap? {
        // A slot's text in place (a term's is not copied; a number's is made).
        func withText<R>(_ slot: TermSlot, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            switch parsed.clauses[slot.clause].clause {
            case .term(let term) where term.shape == .word || term.shape == .wholeWord:
                // (Contiguous on Linux, where there are no bridged strings.)
                return term.text.utf8.withContiguousStorageIfAvailable(body) ?? Array(term.text.utf8).withUnsafeBufferPointer(body)
            case .id(let id, _):
                var text = String(id)
                return text.withUTF8(body)
            default:
                return nil
            }
        }
        var length = slots.count - 1
        for slot in slots {
            guard let count = withText(slot, \.count) else { return nil }
            length += count
        }
        // The words joined by spaces, written on the stack (no string, no array).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { phrase -> HitMap? in
            var count = 0
            for slot in slots {
                if count > 0 { phrase[count] = 0x20; count += 1 }
                count += withText(slot) { UnsafeMutableBufferPointer(rebasing: phrase[count...]).initialize(fromContentsOf: $0) }!
            }
            let bytes = UnsafeBufferPointer(rebasing: phrase[..<count])
            let start = slots[0].located.flatMap { first in phrase[..<first.length].contains(0x20) ? nil : first }
            // Both forms looked up first: most phrases of a query's terms are no name's start
            // (a type and a name's first letters), and take no map then.
            let located = locate(bytes, after: start)
            let compactLocated = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { compact in
                locate(UnsafeBufferPointer(rebasing: compact[..<Folding.compact(bytes, into: compact)]), after: start)
            }
            guard located.node != nil || compactLocated.node != nil else { return nil }
            let hits = lease.newMap()
            matchText(bytes, located: located, compactLocated: compactLocated, phrase: true, wholeWord: false, inside: false,
                      fields: .none, restriction: languageRestriction, queryTransliterated: false, into: hits)
            return hits
        }
    }

    /// Which fields (types, abilities, genus, ...) a term's keys match.
    enum FieldMatching {
        /// By prefix, as names: a search's terms, a completion's words typed out.
        case prefix
        /// Typed out in full only: the word being typed in a completion after other words,
        /// which may be a type or an ability as well as a name's start ("fire dragon"
        /// suggests the fire and dragon Pokémon; "fire drag" no field starting so).
        case whole
        /// None: the word being typed alone in a completion, a name being typed.
        case none
    }

    func fields(_ term: Term) -> FieldMatching {
        guard completion && term.shape != .wholeWord else { return .prefix }
        return typedAfterOthers ? .whole : .none
    }

    /// Whether a key's field postings are skipped (`exact`: the key is the text typed out).
    @inline(__always) static func skipsFields(_ fields: FieldMatching, exact: Bool) -> Bool {
        fields == .none || (fields == .whole && !exact)
    }

    @inline(__always) private func allowed(_ posting: Posting, _ restriction: Int?) -> Bool {
        guard let restriction else { return true }
        return posting.language == UInt32(restriction)
    }

    @inline(__always) private func record(_ posting: Posting, _ matchClass: MatchClass, queryTransliterated: Bool, into hits: HitMap) {
        let marked = queryTransliterated && !posting.isTransliterated
            ? Posting(doc: posting.doc, language: posting.language, role: posting.role, transliterated: true) : posting
        var (position, whole) = matchClass.position(role: marked.roleBits)
        // (A name matched through a transliteration is no whole word: see `HitRank.of`.)
        if whole && marked.isTransliterated { (position, whole) = (Position.of(role: marked.roleBits, exact: false), false) }
        let rank = HitRank.of(miss: Posting.languageMiss(marked.raw, display: UInt32(displayLanguage)), whole: whole, position: position)
        hits.record(posting.doc, Hit(raw: Hit.raw(rank: rank, postingByte: marked.raw & 0xFF)))
    }


    /// Records the postings of a range of keys starting with a text of `length` bytes (the
    /// key of that length, sorting first, is equal to it; a whole word matches only that
    /// key; nil: none is, as for a typo's range, and no key's length is read). The hot loop
    /// of every query: a posting's low byte (language, role, transliterated) is the low byte
    /// of its hit, so a hit is a few shifts away.
    private func recordRange(_ range: Range<Int>, length: Int?, wholeWord: Bool, phrase: Bool, fields: FieldMatching, restriction: Int?,
                             queryTransliterated: Bool, typos: Int, into hits: HitMap) {
        let display = UInt32(displayLanguage)
        let restricted = restriction.map(UInt32.init) ?? .max
        let transliterated: UInt32 = queryTransliterated ? 1 : 0
        index.postings.withUnsafeBufferPointer { postings in
            index.postingStart.withUnsafeBufferPointer { starts in
                for key in range {
                    let exact = length.map { index.keys.length(key) == $0 } ?? false
                    if wholeWord && !exact { break } // the exact key sorts first in its range
                    let skipsFields = Self.skipsFields(fields, exact: exact)
                    for p in Int(starts[key])..<Int(starts[key + 1]) {
                        let raw = postings[p]
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

    private func matchText(_ text: String, phrase: Bool, wholeWord: Bool, fields: FieldMatching, restriction: Int?, queryTransliterated: Bool,
                           into hits: HitMap) {
        var text = text
        _ = text.withUTF8 {
            matchText($0, located: nil, after: nil, phrase: phrase, wholeWord: wholeWord, fields: fields, restriction: restriction,
                      queryTransliterated: queryTransliterated, into: hits)
        }
    }

    /// The same, for the text's bytes in place (`located`: found in the trie already;
    /// `start`: its first bytes found, and those of its compact form for a phrase; `inside`:
    /// also names holding it further in, where the term is long enough). Whether it had hits
    /// of keys starting with it (an exact or prefix hit, of a name or a field): without
    /// them (none, or only names holding it further in: "gengr" is inside "Morgengrauen"),
    /// a term may be a misspelling.
    @discardableResult
    private func matchText(_ bytes: UnsafeBufferPointer<UInt8>, located: TermNode?, after start: TermNode? = nil,
                           compactLocated: TermNode? = nil, phrase: Bool, wholeWord: Bool, inside: Bool = true, fields: FieldMatching,
                           restriction: Int?, queryTransliterated: Bool, into hits: HitMap) -> Bool {
        let range = (located ?? locate(bytes, after: start)).keys
        if let first = range.first {
            budget.postings -= Int(index.postingStart[range.upperBound] - index.postingStart[first])
            if budget.isSpent { return false }
        }
        let before = hits.count
        recordRange(range, length: bytes.count, wholeWord: wholeWord, phrase: phrase, fields: fields, restriction: restriction,
                    queryTransliterated: queryTransliterated, typos: 0, into: hits)
        if phrase {
            // "mr mime" also as its compact form (a phrase of one word: as a whole word).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { compact in
                let count = Folding.compact(bytes, into: compact)
                matchText(UnsafeBufferPointer(rebasing: compact[..<count]), located: compactLocated, after: start, phrase: false,
                          wholeWord: true, fields: fields, restriction: restriction, queryTransliterated: queryTransliterated,
                          into: hits)
            }
        }
        let startsKeys = hits.count > before
        guard !wholeWord, inside, !completion || matchesWordStarts(bytes) else { return startsKeys }
        // Substrings of names (three characters; two for non-Latin scripts); for a completion,
        // only a term of several words, from a later word of a name on (see `matchesWordStarts`).
        guard SearchEngine.isLongEnoughForSubstrings(bytes) else { return startsKeys }
        // Keys starting with the text are the prefix range's, matched above, and so are its
        // word keys (see `laterWords`).
        // Each key's whole names recorded as `recordRange` records a range's postings (a
        // common piece is in hundreds of names, each in several languages: as a posting at a
        // time through `Posting` and `Hit`, a large share of "psychic uno"'s instructions).
        let display = UInt32(displayLanguage)
        let restricted = restriction.map(UInt32.init) ?? .max
        let transliterated: UInt32 = queryTransliterated ? 1 : 0
        index.postings.withUnsafeBufferPointer { postings in
            index.postingStart.withUnsafeBufferPointer { starts in
                index.forEachKeyContaining(bytes, skipping: range, laterWords: false) { key, offset, afterSpace in
                    guard let position = IndexSnapshot.containment(offset: offset, afterSpace: afterSpace),
                          !completion || position == .laterWordPrefix else { return }
                    for p in Int(starts[key])..<Int(starts[key + 1]) {
                        let raw = postings[p]
                        guard Posting.isWholeName(raw), restricted == .max || (raw >> 4) & 15 == restricted else { continue }
                        let rank = HitRank.inside(posting: raw, position: position.rawValue, display: display)
                        hits.record(Int(raw >> 8), Hit(raw: Hit.raw(rank: rank, postingByte: raw & 0xFF | transliterated)))
                    }
                }
            }
        }
        return startsKeys
    }

    // MARK: One document at a time

    /// A word term that surely has hits of its own (so no typo or transliteration fallback
    /// applies to it), with the keys it matches by prefix (by equality for a whole word) and
    /// their posting count: such a term can be matched on candidate documents alone.
    func deferrable(_ term: Term, _ located: TermNode) -> (keys: Range<Int>, postings: Int)? {
        guard term.shape == .word || term.shape == .wholeWord, term.language == nil, languageRestriction == nil,
              let node = located.node else { return nil }
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

    /// What matching a word in full reads beside its postings, in postings' worth: for a word
    /// also matched inside names, its occurrences there (as the suffix array's samples bound
    /// them), each found in the suffix array and its key's postings read (a name spelt alike
    /// in many languages has one for each).
    func substringCost(_ term: Term) -> Int {
        guard matchesSubstrings(term) else { return 0 }
        return Self.occurrenceCost * (term.text.utf8.withContiguousStorageIfAvailable(index.substringOccurrenceBound) ?? 0)
    }

    /// Tuned with `SearchEngine.substringReadingCost` on the benchmark's searches (see there).
    static let occurrenceCost = 2

    /// Whether a word term also matches substrings of names (a search's word of three
    /// scalars or more, two in other scripts), or for a completion, names with a later word
    /// where it starts (see `matchesWordStarts`).
    func matchesSubstrings(_ term: Term) -> Bool {
        guard term.shape == .word, !completion || matchesWordStarts(term) else { return false }
        return term.text.utf8.withContiguousStorageIfAvailable(SearchEngine.isLongEnoughForSubstrings)
            ?? SearchEngine.isLongEnoughForSubstrings(term.text.utf8)
    }

    /// A completion's term whose text folds to several words ("(タイプ：ドラゴン)" → "タイプ
    /// ドラゴン", as a form's name is written; or its transliteration) is a prefix of no name
    /// word: it is matched where it starts a later word of a name, as a search would rank it.
    func matchesWordStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { completion && bytes.contains(0x20) }
    func matchesWordStarts(_ term: Term) -> Bool { completion && Folding.hasSeveralWords(term.text) }

    /// A deferrable word term's best hit on one document, read from the document's own
    /// postings: what `matchText` records for that document (prefix or exact on `keys`,
    /// with `substrings` names containing it further in), or nil.
    func wordHit(_ term: Term, bytes: UnsafeBufferPointer<UInt8>, keys: Range<Int>, substrings: Bool, doc: Int) -> UInt32? {
        let tops = index.tops
        let display = UInt32(displayLanguage)
        var best = Self.rangeHit(index, doc: doc, keys: keys, length: bytes.count, wholeWord: term.shape == .wholeWord,
                                 wholeNamesOnly: false, fields: fields(term), display: display)
        @inline(__always) func consider(_ entry: UInt32, _ position: Position) {
            best = min(best, Hit.raw(rank: HitRank.inside(posting: entry, position: position.rawValue, display: display), postingByte: entry & 0xFF))
        }
        let end = Int(tops.docKeyStart[doc + 1])
        // A hit further in is at best a later word's start in the display language.
        let bestInside = HitRank.of(miss: 0, whole: false, position: Position.laterWordPrefix.rawValue)
        guard substrings, best >> 8 >= bestInside else { return best == .max ? nil : best }
        // The names' keys asked for at once, before any is searched (each is a miss of its own
        // when the caches are cold: "rock meg" searches a candidate's names in ten languages).
        for i in Int(tops.docKeyStart[doc])..<end {
            let entry = tops.docPostings[i]
            if Posting.isWholeName(entry) { index.prefetchKey(Int(entry >> 8)) }
        }
        // Names containing the word further in (keys in `keys` start with it). A name in
        // several languages is one key with a posting for each, side by side: it is searched
        // once.
        var searchedKey = -1
        var searchedPosition: Position? = nil
        for i in Int(tops.docKeyStart[doc])..<end {
            let entry = tops.docPostings[i]
            let key = Int(entry >> 8)
            guard Posting.isWholeName(entry), !keys.contains(key) else { continue }
            if key != searchedKey {
                searchedKey = key
                searchedPosition = index.keyOffset(of: bytes, in: key).flatMap { index.containment(key: key, offset: $0) }
            }
            guard let position = searchedPosition, !completion || position == .laterWordPrefix else { continue }
            consider(entry, position)
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

    /// The contract's typo budget: 1 edit from 4 characters, 2 from 8.
    static func editBudget(_ length: Int) -> Int { length >= 8 ? 2 : length >= 4 ? 1 : 0 }

    /// The typo steps a term with names holding it may take (see `match`).
    static let typoStepsBesideSubstrings = 10_000

    /// The typo search on the steps a term may take: a term found inside names
    /// (`besideSubstrings`), whose typo hits rank below those anyway, a share of the budget (a
    /// long kana piece within two edits reads much of the trie); a completion's term, every
    /// step left, running out of them ending the typo search only; a search's term, the
    /// budget, running out of it refusing the query.
    private func searchTypos(_ term: Term, besideSubstrings: Bool, into hits: HitMap) {
        if besideSubstrings {
            matchTypos(term, share: Self.typoStepsBesideSubstrings, into: hits)
        } else if completion {
            matchTypos(term, share: budget.typoSteps, into: hits)
        } else {
            matchTypos(term, into: hits)
        }
    }

    /// The typo search on at most `share` of the budget's steps, whose running out ends the
    /// typo search, not the query: one step is always left over. For a term whose typo hits
    /// would rank below hits it has anyway, and for a completion, whose suggestions are
    /// offered as the text is typed: a piece of a kana name that starts no word
    /// ("マダムゴミノミノ"), two edits from thousands of paths, gets no suggestion rather than
    /// an error. (A search's word that finds nothing else takes the whole budget, and is
    /// refused as too broad when that runs out: its results would be incomplete.)
    private func matchTypos(_ term: Term, share: Int, into hits: HitMap) {
        let steps = budget.typoSteps, share = min(steps - 1, share)
        guard share > 0 else { return }
        budget.typoSteps = share
        matchTypos(term, into: hits)
        budget.typoSteps = steps - (share - max(0, budget.typoSteps))
    }

    /// Typo hits, nearest first: one edit; two (for 8 characters and more) only when one
    /// found no document more, since two-edit hits would rank below one-edit hits anyway and
    /// a two-edit search costs many times as much.
    private func matchTypos(_ term: Term, into hits: HitMap) {
        let restriction = term.language ?? languageRestriction
        let fields = fields(term)
        // A completion's word reads a range its node lists in full from the list, as it does
        // the range of the word as typed (`namesListed`): a range repeats a name in each
        // language that spells it alike ("pikchu" is an edit from "pikachu"'s range), which
        // the list holds once (docs/PERFORMANCE.md has what it saved).
        let listed = mayBeListed(term)
        let scalars = term.text.unicodeScalars.map(\.value)
        let hitsBefore = hits.count
        for edits in 1...max(1, Self.editBudget(scalars.count)) where Self.editBudget(scalars.count) >= edits {
            // A key within the edits is never the term itself: the range's names start within
            // them (the prefix class). Its first key may be the very path the term was aligned
            // with, the whole word within the edits ("dracofeu" is two from "dracaufeu"): its
            // names rank as that word typed would, exact for a whole name, with those typos,
            // above names that only start within them ("draco meteor").
            for match in index.typoMatches(scalars, maxEdits: edits, steps: &budget.typoSteps) {
                let first = match.keys.lowerBound
                let whole = index.keys.length(first) == match.length
                if listed, let names = allNames(match.node) {
                    if whole {
                        recordRange(first..<first + 1, length: match.length, wholeWord: false, phrase: false, fields: fields,
                                    restriction: restriction, queryTransliterated: false, typos: match.distance, into: hits)
                    }
                    recordListed(names, typos: match.distance, into: hits)
                    continue
                }
                // (In one pass: the whole word's key first, exact, the others as prefixes.)
                recordRange(match.keys, length: whole ? match.length : nil, wholeWord: false, phrase: false, fields: fields,
                            restriction: restriction, queryTransliterated: false, typos: match.distance, into: hits)
            }
            if hits.count > hitsBefore { return }
        }
    }

    private func matchWildcard(_ pieces: [WildcardPiece], term: Term, restriction: Int?, into hits: HitMap) throws {
        let literals: [[UInt32]] = pieces.compactMap { if case .literal(let l) = $0 { return l } else { return nil } }
        let longest = literals.max { $0.count < $1.count } ?? []
        var candidates: [Int]
        if longest.count >= 3 || (longest.count == 2 && !longest.allSatisfy { $0 < 0x80 }) {
            candidates = index.keysContaining(longest)
            // Candidates are whole names; their words are matched from the same keys below.
        } else if case .literal(let prefix) = pieces[0] {
            let bytes = Array(String(String.UnicodeScalarView(prefix.compactMap(Unicode.Scalar.init))).utf8)
            let range = index.keyRange(prefix: bytes)
            guard range.count <= Self.maxWildcardScan else {
                throw QueryError("wildcard pattern '\(term.raw)' is too broad: give at least three letters in a row",
                                 position: term.position, part: term.raw)
            }
            candidates = Array(range)
        } else {
            throw QueryError("wildcard pattern '\(term.raw)' is too broad: give at least three letters in a row",
                             position: term.position, part: term.raw)
        }
        let pattern = Glob(pieces)
        var steps = budget.wildcardSteps
        defer { budget.wildcardSteps = steps }
        for key in candidates {
            guard steps >= 0 else { return }
            let range = index.keys.range(key)
            steps -= 1
            let (wholeMatches, wordClass): (Bool, MatchClass?) = index.keys.bytes.withUnsafeBufferPointer { bytes in
                let text = UnsafeBufferPointer(rebasing: bytes[range])
                if pattern.matches(text, steps: &steps) { return (true, nil) }
                guard pattern.mayMatchAWordOf(text) else { return (false, nil) }
                var start = 0, first = true
                while start <= text.count {
                    let end = text[start...].firstIndex(of: 0x20) ?? text.count
                    if pattern.matches(UnsafeBufferPointer(rebasing: text[start..<end]), steps: &steps) {
                        return (false, first ? .namePrefix : .laterWordPrefix)
                    }
                    start = end + 1
                    first = false
                }
                return (false, nil)
            }
            guard wholeMatches || wordClass != nil else { continue }
            // Each posting a pattern records is ranked and intersected with the other
            // terms' later: broad patterns together cost far more than their matching.
            let recorded = index.postingRange(key: key).count
            budget.postings -= recorded
            steps -= recorded * Self.wildcardStepsPerPosting
            for p in index.postingRange(key: key) {
                let posting = Posting(raw: index.postings[p])
                guard posting.role != .field, allowed(posting, restriction) else { continue }
                let matchClass: MatchClass
                if wholeMatches {
                    matchClass = posting.role == .laterWord ? .laterWordPrefix : posting.role == .firstWord ? .namePrefix : .exact
                } else {
                    matchClass = wordClass!
                }
                record(posting, matchClass, queryTransliterated: false, into: hits)
            }
        }
    }

    // MARK: Filters

    func resolve(_ filter: Filter, position: Int, part: String) throws -> ResolvedFilter {
        switch filter {
        case .kind(let kind): return .kind(UInt8(kind.rank))
        case .type(let value):
            if let t = typeNamed(value) { return .type(t) }
            throw QueryError("unknown type '\(value)' (types: \(index.typeSlugs.joined(separator: " ")))", position: position, part: part)
        case .ability(let value):
            var ids = AbilityMask()
            for id in index.abilityIDsByFoldedSlug[value] ?? [] { ids.insert(UInt16(id)) }
            for doc in docsNamed(value, kind: .ability) { ids.insert(UInt16(index.docID[doc])) }
            guard !ids.isEmpty else {
                throw QueryError("unknown ability '\(value)'", position: position, part: part)
            }
            return .ability(ids)
        case .color(let value):
            guard let i = index.colorSlugs.firstIndex(of: value) else {
                throw QueryError("unknown colour '\(value)' (colours: \(index.colorSlugs.joined(separator: " ")))", position: position, part: part)
            }
            return .color(UInt8(i))
        case .habitat(let value):
            guard let i = index.foldedHabitatSlugs.firstIndex(of: value) else {
                throw QueryError("unknown habitat '\(value)' (habitats: \(index.habitatSlugs.joined(separator: " ")))", position: position, part: part)
            }
            return .habitat(UInt8(i))
        case .flag(let flag):
            switch flag {
            case "legendary": return .flag(.legendary)
            case "mythical": return .flag(.mythical)
            case "baby": return .flag(.baby)
            case "default": return .flag(.isDefault)
            case "mega": return .flag(.mega)
            default: return .favourite
            }
        case .number(let column, let comparison, _): return .number(column, comparison)
        case .id(let comparison): return .id(comparison)
        case .database: preconditionFailure("the engine resolves database filters through SearchOptions.database")
        }
    }

    /// Documents of a kind with a whole name equal to `folded` in any language.
    private func docsNamed(_ folded: String, kind: Kind) -> [Int] {
        guard let key = index.keyIndex(Array(folded.utf8)) else { return [] }
        return index.postingRange(key: key).compactMap { p in
            let posting = Posting(raw: index.postings[p])
            guard posting.isWholeName, index.kind(posting.doc) == kind else { return nil }
            return posting.doc
        }
    }

    /// Keeps the documents of `docs` for which `filter` holds (or, `negated`, does not):
    /// one tight loop per filter over its own column, rather than a dispatch per document.
    func apply(_ filter: ResolvedFilter, negated: Bool, to docs: inout [Int32], favourites: Set<Int>) {
        // Compacted in place, the test inlined (through `removeAll(where:)` each document
        // cost a closure call, and a filter over every document dominated a query such as
        // "atk>=70 gen:9").
        @inline(__always) func keep(_ test: (Int) -> Bool) {
            let kept = docs.withUnsafeMutableBufferPointer { docs -> Int in
                var kept = 0
                for i in docs.indices {
                    let doc = docs[i]
                    docs[kept] = doc
                    if test(Int(doc)) != negated { kept += 1 }
                }
                return kept
            }
            docs.removeLast(docs.count - kept)
        }
        switch filter {
        case .type(let t):
            index.docTypes.withUnsafeBufferPointer { types in keep { types[$0 * 2] == t || types[$0 * 2 + 1] == t } }
        case .ability(let ids):
            index.abilityStart.withUnsafeBufferPointer { start in
                index.abilityRefs.withUnsafeBufferPointer { refs in
                    keep { doc in (Int(start[doc])..<Int(start[doc + 1])).contains { ids.contains(refs[$0] & 0x7FFF) } }
                }
            }
        case .color(let c): index.docColor.withUnsafeBufferPointer { colors in keep { colors[$0] == c } }
        case .habitat(let h): index.docHabitat.withUnsafeBufferPointer { habitats in keep { habitats[$0] == h } }
        case .flag(let flag): index.docFlags.withUnsafeBufferPointer { flags in keep { flags[$0] & flag.rawValue != 0 } }
        case .favourite: keep { favourites.contains($0) }
        case .number(let column, let comparison):
            // (A missing number, `Int32.min`, is below every bound but the lowest: left out.)
            let (low, high) = comparison.bounds
            let lowest = max(low, Int(NumericColumn.missing) + 1)
            index.numbers[column.rawValue].withUnsafeBufferPointer { values in
                keep { Int(values[$0]) >= lowest && Int(values[$0]) <= high }
            }
        case .id(let comparison):
            let (low, high) = comparison.bounds
            index.docID.withUnsafeBufferPointer { ids in keep { Int(ids[$0]) >= low && Int(ids[$0]) <= high } }
        case .kind(let k): index.docKind.withUnsafeBufferPointer { kinds in keep { kinds[$0] == k } }
        case .docs(let found): keep { found.contains(Int32($0)) }
        }
    }
}

/// A `*` and `?` pattern, made once for a query's term and matched against the UTF-8
/// bytes of each candidate key (and of its words) where they lie in the index: no key is
/// copied or decoded. `?` stands for one scalar, whatever its length in bytes.
struct Glob {
    /// The literals' bytes, `anyOne` for `?`, `anyRun` for `*` (never two in a row).
    private let pattern: [UInt16]
    /// Bytes a text must have at least: the literals', and one for each `?`.
    private let minimumBytes: Int
    /// Bytes it may have at most (nil with a `*`): the literals', and four for each `?`.
    private let maximumBytes: Int?
    private static let anyOne: UInt16 = 0x100
    private static let anyRun: UInt16 = 0x101

    init(_ pieces: [WildcardPiece]) {
        var pattern: [UInt16] = []
        for piece in pieces {
            switch piece {
            case .literal(let scalars):
                for scalar in scalars.compactMap(Unicode.Scalar.init) { pattern.append(contentsOf: UTF8.encode(scalar)!.map(UInt16.init)) }
            case .anyOne: pattern.append(Self.anyOne)
            case .anyRun: if pattern.last != Self.anyRun { pattern.append(Self.anyRun) }
            }
        }
        self.pattern = pattern
        let literalBytes = pattern.count { $0 < Self.anyOne }, anyOnes = pattern.count { $0 == Self.anyOne }
        minimumBytes = literalBytes + anyOnes
        maximumBytes = pattern.contains(Self.anyRun) ? nil : literalBytes + 4 * anyOnes
    }

    /// Whether a word of `text` could match: it has one at least as long as the pattern needs.
    func mayMatchAWordOf(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count > minimumBytes && text.contains(0x20)
    }

    /// Whether `text` matches, each step taken from `steps` (a text too short or too long is
    /// told without any; greedy with backtracking to the last `*`, at most text × pattern
    /// steps).
    func matches(_ text: UnsafeBufferPointer<UInt8>, steps: inout Int) -> Bool {
        guard text.count >= minimumBytes, maximumBytes.map({ text.count <= $0 }) ?? true else { return false }
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            steps -= 1
            if steps < 0 { return false }
            let element = p < pattern.count ? pattern[p] : Self.anyRun &+ 1
            if element == Self.anyOne {
                p += 1; t += Self.scalarLength(text[t])
            } else if element < Self.anyOne && UInt8(element) == text[t] {
                p += 1; t += 1
            } else if element == Self.anyRun {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += Self.scalarLength(text[mark]); t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == Self.anyRun { p += 1 }
        return t == text.count && p == pattern.count
    }

    /// The bytes of the scalar a UTF-8 lead byte starts (1 for a stray continuation byte).
    @inline(__always) private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
