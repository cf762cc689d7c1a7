import Corpus
import Folding
import Index

extension SearchEngine {
    /// Typos beside the exact hits, for a query of several terms (or of a term of several
    /// words) whose exact hits do not fill the page asked for, or whose terms found nothing
    /// together (`nothingTogether`): each term that may be misspelt matched within its typo
    /// budget, and runs of terms read as one word, their hits added to the slots' maps; then
    /// the candidates again. (Kept out of `rank`, whose code runs for every search: most
    /// searches never come here.)
    @inline(never)
    func addTyposBesideResults(_ parsed: ParsedQuery, slots: inout [TermSlot], candidates: inout [Int32], pageFilled: Bool,
                               nothingTogether: Bool, excluded: [HitMap], filters: [(ResolvedFilter, Bool)], kindMask: Int,
                               favourites: Set<Int>, context: MatchContext) throws {
        // Each slot's term, copied once (most of these searches read each several times).
        let terms = slots.map { parsed.term($0.clause) }
        let typedAsMeant = pageFilled ? [] : slots.indices.map { context.isWholeWord(slots[$0].located ?? context.locate(terms[$0])) }
        // Nothing to look for where some document has every term and each is a word as typed
        // (a whole name of several words: "max overgrowth"), or the terms together are a
        // name's words as typed (`isKey`).
        let typosWanted = nothingTogether || (!pageFilled && typedAsMeant.contains(false) && !context.isKey(terms.lazy.map { $0.text }))
        // (A term that is no word as typed names no type: type names are keys.)
        let misspelt = !typosWanted ? [] : slots.indices.filter { slot in
            (nothingTogether || !typedAsMeant[slot]) && !parsed.isID(slots[slot].clause)
                && context.mayBeMisspelt(terms[slot], namingNoType: !typedAsMeant.isEmpty && !typedAsMeant[slot])
        }
        // Runs of terms read as one word, where nothing has every term or a term of the run
        // is no word as typed.
        let runs = pageFilled || !typosWanted ? []
            : Self.runs(slots, of: parsed, terms: terms, typedAsMeant: typedAsMeant, nothingTogether: nothingTogether)
        guard !misspelt.isEmpty || !runs.isEmpty else { return }
        // A typo search that may make two edits makes them only where one edit found no
        // document more (`matchTypos`, `addRunTypos`): that depends on the documents the other
        // terms allow and on the term's own hits, which a word read on candidates only has
        // on those alone. So such a word is matched in full first, as it is without deferral,
        // where it narrows a search of two edits (a misspelt term's; a run's, where the word is
        // in no run) or is itself misspelt and long enough for two.
        for slot in slots.indices where slots[slot].readOnCandidates {
            func mayMakeTwoEdits(_ scalarCount: Int) -> Bool { MatchContext.editBudget(scalarCount) >= 2 }
            let narrowsTwoEdits = !misspelt.contains(slot)
                && (misspelt.contains { mayMakeTwoEdits(terms[$0].text.unicodeScalars.count) }
                    || (!runs.contains { $0.slots.contains(slot) } && runs.contains { mayMakeTwoEdits($0.scalars.count) }))
            if narrowsTwoEdits || (misspelt.contains(slot) && mayMakeTwoEdits(terms[slot].text.unicodeScalars.count)) {
                try matchInFull(slot, of: &slots, parsed, context: context)
            }
        }
        // A typo's hits count only on documents the other terms hold: those matched in
        // full and taken as typed, whose hits are whole by then, narrow what each typo
        // search records. Runs come first, as they add to such terms' hits: a run is
        // narrowed by the terms of no run.
        func settled(_ slot: Int) -> Bool { !slots[slot].readOnCandidates && !misspelt.contains(slot) }
        // (Each map's documents before the typos: those after them in it the typos brought.)
        let countsBefore = slots.map { $0.hits!.count }
        // The slots' maps, which each run's typo hits join (a run's: a slice of them).
        let maps = slots.map { $0.hits! }
        // Beside results, a run's words typed as meant are taken as typed there too: its
        // edits fall in its other words (`runs`). (The terms of no run are the same for each.)
        let runScope = runs.isEmpty ? nil
            : self.scope(slots.indices.filter { slot in settled(slot) && !runs.contains { $0.slots.contains(slot) } },
                         of: slots, context: context)
        // A run that found nothing near it leaves nothing for a longer run from the same term
        // with the same budget and edits in the same words: each key near the longer one
        // starts with a path as near the shorter (`runs` lists a run before those extending it).
        var foundNothing: [(slots: Range<Int>, edits: Int, editsWithin: Range<Int>?)] = []
        for run in runs {
            let edits = MatchContext.editBudget(run.scalars.count)
            if foundNothing.contains(where: { $0.slots.lowerBound == run.slots.lowerBound && $0.edits == edits
                                              && $0.editsWithin == run.editsWithin }) { continue }
            if context.addRunTypos(run.scalars, editsWithin: run.editsWithin, within: runScope, into: maps[run.slots]) {
                foundNothing.append((run.slots, edits, run.editsWithin))
            }
            if context.budget.isSpent { throw Self.tooBroad(terms[run.slots.lowerBound]) }
        }
        for slot in misspelt where MatchContext.editBudget(terms[slot].text.unicodeScalars.count) > 0 {
            let term = terms[slot]
            let scope = self.scope(slots.indices.filter { $0 != slot && settled($0) }, of: slots, context: context)
            context.addTypos(term, asShare: !nothingTogether, within: scope, into: slots[slot].hits!)
            if context.budget.isSpent { throw Self.tooBroad(term) }
        }
        // A word read on candidates only is read on the documents the typos brought:
        // those the terms matched in full hold that a typo added to some term's hits.
        // Every other document was among those it was read on, or fails a term matched in
        // full. It is matched in full instead where that costs less, as when it was
        // deferred.
        let readLater = slots.indices.filter { slots[$0].readOnCandidates }
        if !readLater.isEmpty {
            let brought = context.lease.newMap()
            for slot in slots.indices {
                let hits = slots[slot].hits!
                for doc in hits.docs[countsBefore[slot]...] { brought.record(Int(doc), Hit(raw: 0)) }
            }
            var matchedInFull = slots
            for slot in readLater { matchedInFull[slot].hits = nil }
            intersect(matchedInFull, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                      favourites: favourites, into: &candidates)
            candidates.removeAll { !brought.contains(Int($0)) }
            for slot in readLater {
                let term = terms[slot]
                let reading = readingPlan(slots[slot], term, candidates: candidates.count, context: context)
                if slots[slot].cost <= reading.cost {
                    // (Keeping the typo hits recorded in it meanwhile, a run's.)
                    let read = slots[slot].hits!
                    try matchInFull(slot, of: &slots, parsed, context: context)
                    let hits = slots[slot].hits!
                    for doc in read.docs { hits.record(Int(doc), Hit(raw: read.best[Int(doc)])) }
                } else {
                    read(term, keys: slots[slot].deferredKeys!, inside: reading.inside, on: candidates,
                         into: slots[slot].hits!, context: context)
                }
            }
        }
        intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                  favourites: favourites, into: &candidates)
    }

    /// The documents every slot of `holders` has hits on (nil: no holder): the one map of a
    /// single holder, else a new map of the documents they share.
    func scope(_ holders: [Int], of slots: [TermSlot], context: MatchContext) -> HitMap? {
        var smallest: HitMap? = nil
        for holder in holders where slots[holder].hits!.count < smallest?.count ?? .max { smallest = slots[holder].hits }
        guard let smallest, holders.count > 1 else { return smallest }
        let shared = context.lease.newMap()
        for doc in smallest.docs where holders.allSatisfy({ slots[$0].hits!.contains(Int(doc)) }) {
            shared.record(Int(doc), Hit(raw: 0))
        }
        return shared
    }

    /// The runs of a query's terms that may be one name's words mistyped together (the
    /// contract's Typos: "perish sog", "tye null", "woo-chien"): each two or three consecutive
    /// word terms, and each term of several words (a phrase, its parts as typed), with their
    /// text run together (scalars), the slots whose hits their typo matches join, and where
    /// edits may be made in it: in its words not typed as meant (`typedAsMeant`), or anywhere
    /// (nil) where nothing has every term. Only runs holding such a word, unless nothing has
    /// every term.
    static func runs(_ slots: [TermSlot], of parsed: ParsedQuery, terms: [Term], typedAsMeant: [Bool], nothingTogether: Bool)
        -> [(scalars: [UInt32], slots: Range<Int>, editsWithin: Range<Int>?)] {
        // Each slot's text as a run holds it, one after the other in `text`: a slot's part is
        // `parts[slot]..<parts[slot + 1]`, empty for a slot that joins no run (`joins`), so that
        // a run of consecutive slots is one stretch of it (an array for each slot's text and
        // each run's cost most of the runs' making).
        var text: [UInt32] = []
        text.reserveCapacity(terms.reduce(0) { $0 + $1.text.utf8.count })
        var parts: [Int] = []
        parts.reserveCapacity(slots.count + 1)
        parts.append(0)
        var joins = [Bool](repeating: false, count: slots.count)
        for slot in terms.indices {
            // (A word read from a filter's value joins runs as a word; a wildcard or a number, none.)
            let shape = terms[slot].shape
            switch parsed.clauses[slots[slot].clause].clause {
            case .term where shape == .word || shape == .wholeWord, .unknownFilter where shape == .word:
                MatchContext.appendScalarValues(of: terms[slot].text, to: &text)
                joins[slot] = true
            case .term where shape == .phrase:
                MatchContext.appendScalarValues(of: Folding.compact(terms[slot].text), to: &text)
                joins[slot] = true
            default:
                break
            }
            parts.append(text.count)
        }
        var runs: [(scalars: [UInt32], slots: Range<Int>, editsWithin: Range<Int>?)] = []
        runs.reserveCapacity(2 * slots.count)
        func add(_ members: Range<Int>) {
            guard nothingTogether || members.contains(where: { !typedAsMeant[$0] }) else { return }
            var editsWithin: Range<Int>? = nil
            if !nothingTogether {
                for slot in members where !typedAsMeant[slot] {
                    let start = parts[slot] - parts[members.lowerBound], end = parts[slot + 1] - parts[members.lowerBound]
                    editsWithin = (editsWithin?.lowerBound ?? start)..<end
                }
            }
            runs.append((Array(text[parts[members.lowerBound]..<parts[members.upperBound]]), members, editsWithin))
        }
        for first in slots.indices where joins[first] {
            if case .term(let term) = parsed.clauses[slots[first].clause].clause, term.shape == .phrase { add(first..<first + 1) }
            var end = first + 1
            while end < min(first + 3, slots.count) && slots[end].clause == slots[end - 1].clause + 1 && joins[end] {
                end += 1
                add(first..<end)
            }
        }
        return runs
    }
}
