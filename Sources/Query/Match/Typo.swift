import Corpus
import Folding
import Index

extension MatchContext {
    /// Whether a term that had hits of its own may still be a misspelling, for a query whose
    /// terms found nothing together: a word term, unless it names a type as `type:` would take
    /// it ("fire", "ground", "feuer": the words of most multi-term queries, meant as typed).
    /// `namingNoType`: the term is known to name none (it is no key, and a type's names are).
    func mayBeMisspelt(_ term: Term, namingNoType: Bool = false) -> Bool {
        guard term.shape == .word || term.shape == .wholeWord else { return false }
        return namingNoType || typeNamed(term.text) == nil
    }

    /// Adds typo hits to a term that had hits of its own (see `mayBeMisspelt`): exact hits
    /// still rank first, typos count. `asShare`: on a share of the budget, running out of it
    /// ending the typo search only (for a query that has results without them). `scope`:
    /// the documents the query's other terms allow (nil: any), the only ones recorded.
    func addTypos(_ term: Term, asShare: Bool, within scope: HitMap?, into hits: HitMap) {
        searchTypos(term, besideSubstrings: asShare, within: scope, into: hits)
    }

    /// A text's Unicode scalars (what typo searches compare).
    static func scalarValues(_ text: String) -> [UInt32] {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        appendScalarValues(of: text, to: &scalars)
        return scalars
    }

    /// Appends a text's Unicode scalars to `scalars`, read from its UTF-8 bytes directly where
    /// all are ASCII, most terms (a string's scalar view decodes each).
    static func appendScalarValues(of text: String, to scalars: inout [UInt32]) {
        var text = text
        text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars { scalars.append(scalar.value) }
                return
            }
            for byte in bytes { scalars.append(UInt32(byte)) }
        }
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
    func searchTypos(_ term: Term, besideSubstrings: Bool, within scope: HitMap? = nil, into hits: HitMap) {
        if besideSubstrings {
            matchTypos(term, share: Self.typoStepsBesideSubstrings, within: scope, into: hits)
        } else if completion {
            matchTypos(term, share: budget.typoSteps, within: scope, into: hits)
        } else {
            matchTypos(term, within: scope, into: hits)
        }
    }

    /// The typo search on at most `share` of the budget's steps, whose running out ends the
    /// typo search, not the query: one step is always left over. For a term whose typo hits
    /// would rank below hits it has anyway, and for a completion, whose suggestions are
    /// offered as the text is typed: a piece of a kana name that starts no word
    /// ("マダムゴミノミノ"), two edits from thousands of paths, gets no suggestion rather than
    /// an error. (A search's word that finds nothing else takes the whole budget, and is
    /// refused as too broad when that runs out: its results would be incomplete.)
    func matchTypos(_ term: Term, share: Int, within scope: HitMap?, into hits: HitMap) {
        let steps = budget.typoSteps, share = min(steps - 1, share)
        guard share > 0 else { return }
        budget.typoSteps = share
        matchTypos(term, within: scope, into: hits)
        budget.typoSteps = steps - (share - max(0, budget.typoSteps))
    }

    /// Typo hits, nearest first: one edit; two (for 8 characters and more) only when one
    /// found no document more, since two-edit hits would rank below one-edit hits anyway and
    /// a two-edit search costs many times as much. Only documents in `scope` are recorded
    /// (nil: any).
    func matchTypos(_ term: Term, within scope: HitMap?, into hits: HitMap) {
        let restriction = term.language ?? languageRestriction
        let fields = fields(term)
        // A completion's word reads a range its node lists in full from the list, as it does
        // the range of the word as typed (`namesListed`): a range repeats a name in each
        // language that spells it alike ("pikchu" is an edit from "pikachu"'s range), which
        // the list holds once (docs/PERFORMANCE.md has what it saved).
        let listed = scope == nil && mayBeListed(term)
        let scalars = Self.scalarValues(term.text)
        let hitsBefore = hits.count
        for edits in 1...max(1, Self.editBudget(scalars.count)) where Self.editBudget(scalars.count) >= edits {
            // A key within the edits is never the term itself: the range's names start within
            // them (the prefix class). Its first key may be the very path the term was aligned
            // with, the whole word within the edits ("dracofeu" is two from "dracaufeu"): its
            // names rank as that word typed would, exact for a whole name, with those typos,
            // above names that only start within them ("draco meteor").
            var matches = index.typoMatches(scalars, maxEdits: edits, steps: &budget.typoSteps)
            // The ranges (each a trie node's keys: two are nested or apart) outer first: a
            // range inside one within as few edits has its keys recorded by that one, but for
            // its whole word's ("cha", one edit from "char", holds "chat", "chan"...: each
            // also an edit away).
            matches.sort { ($0.keys.lowerBound, $1.keys.upperBound, $0.distance) < ($1.keys.lowerBound, $0.keys.upperBound, $1.distance) }
            // The ranges around the match being recorded (a stack, on the stack): where each
            // ends, and the fewest edits of it and those around it.
            withUnsafeTemporaryAllocation(of: (end: Int, fewestEdits: Int).self, capacity: matches.count) { around in
                var depth = 0
                for (m, match) in matches.enumerated() {
                    let first = match.keys.lowerBound
                    let whole = index.keys.length(first) == match.length
                    if listed, let names = allNames(match.node) {
                        if whole {
                            recordRange(first..<first + 1, length: match.length, wholeWord: false, phrase: false, fields: fields,
                                        restriction: restriction, queryTransliterated: false, typos: match.distance, within: scope,
                                        into: hits)
                        }
                        recordListed(names, typos: match.distance, into: hits)
                        continue
                    }
                    while depth > 0 && around[depth - 1].end <= first { depth -= 1 }
                    let fewestAround = depth > 0 ? around[depth - 1].fewestEdits : .max
                    around[depth] = (match.keys.upperBound, min(fewestAround, match.distance))
                    depth += 1
                    guard fewestAround > match.distance || whole else { continue }
                    // (In one pass: the whole word's key first, exact, the others as prefixes.)
                    let keys = fewestAround > match.distance ? match.keys : first..<first + 1
                    func record(_ keys: Range<Int>) {
                        recordRange(keys, length: whole ? match.length : nil, wholeWord: false, phrase: false, fields: fields,
                                    restriction: restriction, queryTransliterated: false, typos: match.distance, within: scope,
                                    into: hits)
                    }
                    // Less the ranges inside it within fewer edits, whose keys those record, better
                    // ("char", the term itself, inside "cha", an edit from it): but where the
                    // range is read on the scope's documents, each read of a part costs as much.
                    guard keys.count > 1, !readsOnDocuments(keys, within: scope) else { record(keys); continue }
                    var start = keys.lowerBound
                    for inner in matches[(m + 1)...] {
                        guard inner.keys.lowerBound < keys.upperBound else { break }
                        guard inner.distance < match.distance, inner.keys.lowerBound >= start else { continue }
                        if inner.keys.lowerBound > start { record(start..<inner.keys.lowerBound) }
                        start = inner.keys.upperBound
                    }
                    if start < keys.upperBound { record(start..<keys.upperBound) }
                }
            }
            if hits.count > hitsBefore { return }
        }
    }

    /// Whether a term is itself a whole word of some name or field (its text is a key):
    /// such a term is taken as typed (no typo candidates beside its hits, no hits inside
    /// words of names in other languages). `located`: its text located (nil: a wildcard's).
    func isWholeWord(_ located: TermNode?) -> Bool { wholeKey(located) != nil }

    /// The key equal to a located text (nil: no key is, or the text was not located).
    func wholeKey(_ located: TermNode?) -> Int? {
        guard let located, let node = located.node else { return nil }
        return index.keyEqualToPrefix(of: node, length: located.length)
    }

    /// Whether terms' texts, a space between each, are a key: a name's words as typed,
    /// though some alone may be no word's start ("ピカチュウ (マスクド・ピカチュウ)", Pikachu
    /// Libre's Japanese name: "マスクド ピカチュウ" starts no name).
    func isKey(_ texts: some Collection<String>) -> Bool {
        let count = texts.reduce(texts.count - 1) { $0 + $1.utf8.count }
        guard count > 0 else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { bytes in
            var end = 0
            for (i, var text) in texts.enumerated() {
                if i > 0 { bytes[end] = 0x20; end += 1 }
                text.withUTF8 { utf8 in
                    for byte in utf8 { bytes[end] = byte; end += 1 }
                }
            }
            return wholeKey(locate(UnsafeBufferPointer(rebasing: bytes[..<end]))) != nil
        }
    }

    /// Typo hits of a run of terms read as one word (`scalars`, their texts run together:
    /// "perish sog" as "perishsog"), within the budget of its length: the names whose run-together
    /// form (a whole name's compact form, or a one-word name) is that near, or starts so,
    /// recorded in each of the run's terms' `maps` as typo hits (so that the run's names have
    /// every term), nearest first: those of more edits only where those of fewer record
    /// nothing, as they would rank below them. On a share of the budget's typo steps, like a
    /// term that has hits. Only documents in `scope` are recorded (nil: any); `editsWithin`:
    /// the scalars edits may be made at (nil: any). Returns whether it recorded nothing after
    /// searching every key within the budget (its steps not running out): then no key
    /// starting with a path that near holds a whole name the scope allows.
    @discardableResult
    func addRunTypos(_ scalars: [UInt32], editsWithin: Range<Int>?, within scope: HitMap?, into maps: ArraySlice<HitMap>) -> Bool {
        let edits = Self.editBudget(scalars.count)
        let steps = budget.typoSteps, share = min(steps - 1, Self.typoStepsBesideSubstrings)
        guard edits > 0, share > 0 else { return false }
        budget.typoSteps = share
        defer { budget.typoSteps = steps - (share - max(0, budget.typoSteps)) }
        let display = UInt32(displayLanguage)
        // One search within the whole budget, its matches then taken as a search of fewer edits
        // would have found them (those within one, then within two): most runs match nothing
        // (a type word beside a name's start, "ghost roamin"), and a search of one edit before
        // one of two read much of the trie twice.
        let matches = index.typoMatches(scalars, maxEdits: edits, editsWithin: editsWithin, steps: &budget.typoSteps)
        let searchedAll = budget.typoSteps > 0
        // (A pass reads only the matches it adds: those of fewer edits recorded nothing. The
        // first takes the run as typed too, a key's start: "perishsong".)
        for allowed in 1...edits {
            var found = false
            for match in matches where match.distance == allowed || (allowed == 1 && match.distance == 0) {
                budget.postings -= Int(index.postingStart[match.keys.upperBound] - index.postingStart[match.keys.lowerBound])
                for key in match.keys {
                    let exact = index.keys.length(key) == match.length
                    for p in index.postingRange(key: key) {
                        let raw = index.postings[p]
                        let role = (raw >> 1) & 7
                        guard role == KeyRole.whole.rawValue || role == KeyRole.compact.rawValue,
                              scope?.contains(Int(raw >> 8)) ?? true else { continue }
                        let hit = Hit(raw: Hit.raw(posting: raw, exact: exact, display: display, typos: UInt32(match.distance)))
                        for map in maps { map.record(Int(raw >> 8), hit) }
                        found = true
                    }
                }
            }
            if found { return false }
        }
        return searchedAll
    }
}
