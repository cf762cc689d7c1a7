import Corpus
import Folding
import Index

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
    /// Type words' hits kept from one query to the next (nil: none kept).
    var typeWords: TypeWordHits? = nil

    var budget: WorkBudget {
        get { lease.budget }
        nonmutating _modify { yield &lease.budget }
    }

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
        let located = located ?? locate(term)
        guard let typeWords, let word = keptWord(term, located, typeWords) else {
            return try matchAnew(term, allowTypos: allowTypos, located: located)
        }
        if let entry = typeWords.entry(word, display: displayLanguage) {
            let hits = lease.newMap()
            hits.fill(distinct: entry.hits)
            budget.postings -= entry.postings
            return hits
        }
        let before = budget.postings
        let hits = try matchAnew(term, allowTypos: allowTypos, located: located)
        if !budget.isSpent { typeWords.keep(word, display: displayLanguage, hits, postings: before - budget.postings) }
        return hits
    }

    /// The number of a term's word in `typeWords` where its hits are kept from one query to
    /// the next: a word naming a type, in a search, in any language (a completion matches
    /// fields otherwise). `located`: the term's text located.
    func keptWord(_ term: Term, _ located: TermNode?, _ typeWords: TypeWordHits) -> Int? {
        guard !completion, term.shape == .word, term.language == nil, languageRestriction == nil,
              let key = wholeKey(located) else { return nil }
        return typeWords.number(ofKey: key)
    }

    /// A term's hits, matched (see `match`).
    func matchAnew(_ term: Term, allowTypos: Bool, located: TermNode? = nil) throws -> HitMap {
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

    func mayBeListed(_ term: Term) -> Bool {
        completion && readsLists && term.shape == .word && term.language == nil && languageRestriction == nil
            && UInt32(displayLanguage) == PrefixTops.language && !matchesWordStarts(term)
    }

    /// A node's list of names, when it holds every name of the node's range.
    func allNames(_ node: Int) -> Range<Int>? {
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
    func recordListed(_ names: Range<Int>, node located: TermNode, fields: FieldMatching, into hits: HitMap) {
        let unknownPosting = Posting.noLanguage << 4
        recordListed(names, typos: 0, into: hits)
        guard let exactKey = index.keyEqualToPrefix(of: located.node!, length: located.length) else { return }
        budget.postings -= index.postingRange(key: exactKey).count
        for p in index.postingRange(key: exactKey) {
            let raw = index.postings[p]
            if Posting.isField(raw) {
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
    func recordListed(_ names: Range<Int>, typos: Int, into hits: HitMap) {
        budget.postings -= names.count
        for i in names {
            let entry = index.tops.entries[i]
            hits.record(PrefixTops.doc(entry), Hit(raw: Hit.raw(rank: PrefixTops.rank(entry) + UInt32(typos) << HitRank.typoShift,
                                                                postingByte: Posting.noLanguage << 4)))
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

    @inline(__always) func allowed(_ posting: Posting, _ restriction: Int?) -> Bool {
        guard let restriction else { return true }
        return posting.language == UInt32(restriction)
    }

    @inline(__always) func record(_ posting: Posting, _ matchClass: MatchClass, queryTransliterated: Bool, into hits: HitMap) {
        let marked = queryTransliterated && !posting.isTransliterated
            ? Posting(doc: posting.doc, language: posting.language, role: posting.role, transliterated: true) : posting
        var (position, whole) = matchClass.position(role: marked.roleBits)
        // (A name matched through a transliteration is no whole word: see `HitRank.of`.)
        if whole && marked.isTransliterated { (position, whole) = (Position.of(role: marked.roleBits, exact: false), false) }
        let rank = HitRank.of(miss: Posting.languageMiss(marked.raw, display: UInt32(displayLanguage)), whole: whole, position: position)
        hits.record(posting.doc, Hit(raw: Hit.raw(rank: rank, postingByte: marked.raw & 0xFF)))
    }

    func matchText(_ text: String, phrase: Bool, wholeWord: Bool, fields: FieldMatching, restriction: Int?, queryTransliterated: Bool,
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
    func matchText(_ bytes: UnsafeBufferPointer<UInt8>, located: TermNode?, after start: TermNode? = nil,
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
        recordInside(bytes, skipping: range, restriction: restriction, queryTransliterated: queryTransliterated, into: hits)
        return startsKeys
    }

    /// Records the names holding `bytes` inside a word (not at their start: `skipping`, the
    /// keys starting with it, are the caller's), as `matchText` matches a term's substrings:
    /// also what a deferred word read on many candidates finds there once
    /// (`SearchEngine.readingPlan`).
    func recordInside(_ bytes: UnsafeBufferPointer<UInt8>, skipping range: Range<Int>, restriction: Int?, queryTransliterated: Bool,
                      into hits: HitMap) {
        // Each key's whole names recorded as `recordRange` records a range's postings (a
        // common piece is in hundreds of names, each in several languages: as a posting at a
        // time through `Posting` and `Hit`, a large share of "psychic uno"'s instructions).
        let display = UInt32(displayLanguage)
        let restricted = restriction.map(UInt32.init) ?? .max
        let transliterated: UInt32 = queryTransliterated ? 1 : 0
        // A term equal to a slug or synonym names its entity: nothing inside foreign names'
        // words (asked once a hit is such).
        let latinTerm = !bytes.contains { $0 >= 0x80 }
        // (Captured by the closure below alone, not by a local function: one captured so is
        // allocated on the heap, each call.)
        var namesAnEntity: Bool? = nil
        index.postings.withUnsafeBufferPointer { postings in
            index.postingStart.withUnsafeBufferPointer { starts in
                index.forEachKeyContaining(bytes, skipping: range, laterWords: false, wholeNamesOnly: latinTerm) { key, offset, afterSpace in
                    guard let position = IndexSnapshot.containment(offset: offset, afterSpace: afterSpace),
                          !completion || position == .laterWordPrefix else { return }
                    for p in Int(starts[key])..<Int(starts[key + 1]) {
                        let raw = postings[p]
                        guard Posting.holdsInside(raw, latinTerm: latinTerm), restricted == .max || (raw >> 4) & 15 == restricted else { continue }
                        let rank = HitRank.inside(posting: raw, position: position.rawValue, display: display)
                        if HitRank.isWeak(rank) {
                            if namesAnEntity == nil {
                                namesAnEntity = index.isNeutralName(text: range, length: bytes.count)
                            }
                            if namesAnEntity! { continue }
                        }
                        hits.record(Int(raw >> 8), Hit(raw: Hit.raw(rank: rank, postingByte: raw & 0xFF | transliterated)))
                    }
                }
            }
        }
    }
}
