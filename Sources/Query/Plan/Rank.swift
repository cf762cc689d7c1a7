import Corpus
import Folding
import Index

extension SearchEngine {
    /// What reading a word on one candidate costs, in postings' worth, where the word is
    /// also looked for inside the candidate's names: searching each of its names in each
    /// language (thousands of instructions a candidate for "che"). With
    /// `MatchContext.occurrenceCost`, tuned on the benchmark's searches (instructions summed
    /// over the slowest and over all; docs/PERFORMANCE.md): occurrences left uncounted
    /// made the word with fewest postings match first in full however many
    /// names hold it ("fire flying tal": "tal", in hundreds of names, then "fire" and "flying"
    /// in full); counted, the slowest searches do less work and the others as much,
    /// "fire flying tal" and "normal ter tera" several times less.
    static let substringReadingCost = 48

    /// Whether a text (UTF-8) is long enough to be matched as a substring: three scalars, or
    /// two when any is beyond ASCII (other scripts, whose names are shorter). Counted on the
    /// bytes: scalars start at every byte but continuation bytes.
    static func isLongEnoughForSubstrings(_ utf8: some Sequence<UInt8>) -> Bool {
        var scalars = 0, ascii = true
        for byte in utf8 where byte & 0xC0 != 0x80 {
            scalars += 1
            if byte >= 0x80 { ascii = false }
        }
        return scalars >= (ascii ? 3 : 2)
    }

    /// Every matching document with its ranking key (smallest first once sorted), and, when
    /// explanations are asked for, the terms' hits. `deferring` off matches every term in full, by
    /// reading its postings (no word read on candidates, none from a trie node's list: tests
    /// compare the two ways).
    func rank(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool, deferring: Bool = true, lease: QueryLease? = nil) throws
        -> (ranked: [(key: UInt64, doc: Int)], positives: [TermHits]) {
        var parsed = parsed
        let context = MatchContext(index: index, displayLanguage: options.language, languageRestriction: parsed.language,
                                   completion: completion, typedAfterOthers: completion && parsed.clauses.count > 1,
                                   readsLists: deferring, lease: lease ?? hitMaps.lease(), typeWords: deferring ? typeWords : nil)
        // Positive terms in query order (a deferred word's hits are filled in below), and the
        // candidate documents: the lease's arrays, given back emptied with their capacity.
        var slots: [TermSlot] = []
        var candidates: [Int32] = []
        swap(&slots, &context.lease.slots)
        swap(&candidates, &context.lease.candidates)
        defer {
            slots.removeAll(keepingCapacity: true)
            candidates.removeAll(keepingCapacity: true)
            swap(&slots, &context.lease.slots)
            swap(&candidates, &context.lease.candidates)
        }
        var excluded: [HitMap] = []
        var filters: [(ResolvedFilter, Bool)] = []
        /// bm25 scores of the `text:` filters' documents, summed (smaller is better).
        var textScores: [Int: Double] = [:]
        var kinds = options.kinds
        // The same term twice is matched once. Queries have a few terms: a list searched
        // in turn costs less than hashing their texts.
        struct TermKey: Equatable {
            var text: String
            var shape: Int
            var language: Int?
            var negated: Bool
        }
        struct Matched {
            var key: TermKey
            var hits: HitMap
        }
        func termKey(_ entry: QueryClause) -> TermKey? {
            guard case .term(let term) = entry.clause else { return nil }
            let shape: Int
            switch term.shape {
            case .word: shape = 0
            case .wholeWord: shape = 1
            case .phrase: shape = 2
            case .wildcard: shape = 3
            }
            // A wildcard's folded text has lost its `*` and `?`: the raw pattern tells them apart.
            return TermKey(text: shape == 3 ? term.raw : term.text, shape: shape, language: term.language, negated: entry.negated)
        }
        // The terms are kept apart only when one repeats (most queries: none does; their
        // texts, compared in place, tell it without making keys).
        let repeats = parsed.mayRepeatTerms && parsed.clauses.indices.contains { i in
            termKey(parsed.clauses[i]).map { key in parsed.clauses[..<i].contains { termKey($0) == key } } ?? false
        }
        var matched: [Matched] = []
        // (Room for every clause at once: grown one term at a time, these lists cost a few
        // allocations each per query.)
        slots.reserveCapacity(parsed.clauses.count)
        for clause in parsed.clauses.indices {
            let negated = parsed.clauses[clause].negated
            switch parsed.clauses[clause].clause {
            case .term(let term):
                let key = repeats ? termKey(parsed.clauses[clause]) : nil
                let earlier = key.flatMap { key in matched.first { $0.key == key }?.hits }
                // Found in the trie once, to defer the term or to match it.
                let located = earlier == nil ? context.locate(term) : nil
                // A term typed twice is matched in full, once: its slots share one map, which
                // typos then add to for both (a word read on candidates has a map of its own).
                let repeated = key.map { key in parsed.clauses.lazy.filter { termKey($0) == key }.count > 1 } ?? false
                if deferring, !negated, !repeated, let located {
                    if let words = context.deferrable(term, located) {
                        slots.append(TermSlot(clause: clause, hits: nil, located: located, deferredKeys: words.keys, cost: words.postings))
                        continue
                    }
                }
                let hits = try earlier ?? context.match(term, allowTypos: !negated, located: located)
                if let key, earlier == nil { matched.append(Matched(key: key, hits: hits)) }
                if context.budget.isSpent { throw Self.tooBroad(term) }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits, located: located)) }
            case .unknownFilter(let term, let name):
                let hits = try context.match(term, allowTypos: false)
                if hits.isEmpty {
                    throw QueryError("unknown filter '\(name):' (filters: kind type ability gen color habitat is lang id hp atk def spa spd spe bst height weight power accuracy pp cost text ailment target flag priority tm)",
                                     position: term.position, part: term.raw)
                }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits)) }
            case .id(let id, _, _):
                let hits = context.lease.newMap()
                for doc in docs(withID: id).lazy.map(Int.init) {
                    let posting = Posting(doc: doc, language: Posting.noLanguage, role: .whole, transliterated: false)
                    hits.record(doc, Hit(raw: Hit.raw(posting: posting.raw, exact: true, display: UInt32(options.language))))
                }
                if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits)) }
            case .filter(.kind(let kind), _, _) where !negated:
                kinds.insert(kind)
            case .filter(.database(let filter), let position, let part):
                let matches = try options.databaseMatches(filter, position: position, part: part)
                filters.append((.docs(Set(matches.keys.map(Int32.init))), negated))
                if !negated, case .text = filter { textScores.merge(matches, uniquingKeysWith: +) }
            case .filter(let filter, let position, let part):
                do {
                    filters.append((try context.resolve(filter, position: position, part: part), negated))
                } catch let error as QueryError {
                    // A name written like a filter whose value names nothing ("Type:Null",
                    // French "Type:0"): the name, matched as written, else the filter's error.
                    guard let term = try? QueryParser.termValue(part, raw: part, position: position) else { throw error }
                    let hits = try context.match(term, allowTypos: false)
                    guard !hits.isEmpty else { throw error }
                    parsed.clauses[clause].clause = .unknownFilter(term, name: "")
                    if negated { excluded.append(hits) } else { slots.append(TermSlot(clause: clause, hits: hits)) }
                }
            }
        }

        // Deferred words, rarest first. Without another positive term, the rarest is matched
        // in full to give the candidates; each other one is matched in full when its key range
        // is not much larger than the candidates, else read from the candidates' own
        // postings (the word being typed, "p", has tens of thousands).
        // (Found among the slots, a deferred word having no hits yet: queries have a few.)
        func rarestDeferred() -> Int? {
            var rarest: Int? = nil
            for i in slots.indices where slots[i].hits == nil && (rarest.map { slots[i].cost < slots[$0].cost } ?? true) { rarest = i }
            return rarest
        }
        // A search of several words plans by what matching each costs in full, counting the
        // names that hold it further in (`substringCost`): that decides which is matched
        // first and which are read on the candidates. One word leaves nothing to plan; a
        // completion's words match no substrings (but for a rare word of several), and
        // copying each term to tell would cost its multi-word completions for nothing.
        if slots.count > 1 && !completion {
            for i in slots.indices where slots[i].hits == nil {
                let inside = context.substringCost(parsed.term(slots[i].clause))
                slots[i].cost += inside
                slots[i].insideCost = inside
            }
        }
        if !slots.contains(where: { $0.hits != nil }), let rarest = rarestDeferred() {
            try matchInFull(rarest, of: &slots, parsed, context: context)
        }
        let kindMask = kinds.reduce(0) { $0 | (1 << $1.rank) }
        intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                  favourites: options.favourites, into: &candidates)

        while let slot = rarestDeferred() {
            let term = parsed.term(slots[slot].clause)
            let reading = readingPlan(slots[slot], term, candidates: candidates.count, context: context)
            if slots[slot].cost <= reading.cost {
                try matchInFull(slot, of: &slots, parsed, context: context)
                let hits = slots[slot].hits!
                candidates.removeAll { !hits.contains(Int($0)) }
                continue
            }
            let hits = context.lease.newMap()
            read(term, keys: slots[slot].deferredKeys!, inside: reading.inside, on: candidates, into: hits, context: context)
            slots[slot].hits = hits
            slots[slot].readOnCandidates = true
            candidates.removeAll { !hits.contains(Int($0)) }
        }
        let numbers = candidates.isEmpty && slots.count > 1 ? slots.indices.filter { parsed.isID(slots[$0].clause) } : []
        if !numbers.isEmpty {
            // A number among words that is no such document's id ("zygarde 10": no Zygarde is
            // number 10) also matches as a word of a name ("10% Zygarde"), before any typo.
            for slot in slots.indices where slots[slot].readOnCandidates { try matchInFull(slot, of: &slots, parsed, context: context) }
            for slot in numbers {
                var term = parsed.term(slots[slot].clause)
                // A completion's earlier words are typed out: whole words.
                if completion && slots[slot].clause < parsed.clauses.count - 1 { term.shape = .wholeWord }
                let words = try context.match(term, allowTypos: false)
                if context.budget.isSpent { throw Self.tooBroad(term) }
                let hits = slots[slot].hits!
                for doc in words.docs { hits.record(Int(doc), Hit(raw: words.best[Int(doc)])) }
            }
            intersect(slots, excluded: excluded, filters: filters, kindMask: kindMask, context: context,
                      favourites: options.favourites, into: &candidates)
        }
        // Typos on every term of several (or of a term of several words), while the exact
        // hits do not fill the page asked for (a page that is full never shows a typo
        // candidate, which ranks below every exact hit: typical queries pay nothing). Each
        // term that may be misspelt also matches within its typo budget, whether or not it
        // has hits of its own ("arma veil": "arma" starts other names), but for a term that
        // is itself a whole word of some name, taken as typed ("ttar", "mega"), unless
        // nothing has every term ("fier dragon"). Type names as written get no typos: "ground
        // grass" being typed, with no name starting "grass" of a ground type, stays empty
        // rather than turning two types into other words; nor do numbers. One term alone
        // keeps its hits (its typos are matched only where it starts no key: `match`), so
        // that the trie's lists answer one-word searches, unless its hits are all outside the
        // display language and short of a page ("pikachi": Pikanium Z's German name only;
        // `answerFromTops` leaves it here); a completion's terms get typos only when nothing
        // has every term.
        let wanted = max(0, min(options.offset, SearchOptions.maxOffset)) + max(0, min(options.limit, SearchOptions.maxLimit))
        let nothingTogether = candidates.isEmpty && slots.count > 1
        // (A term of several words, typed with punctuation inside, is words enough.)
        let severalWords = slots.count > 1 || slots.first.map { parsed.term($0.clause).shape == .phrase } ?? false
        let foundOnlyAbroad = !severalWords && !completion && slots.count == 1 && !candidates.isEmpty && candidates.count < wanted
            && candidates.allSatisfy { HitRank.miss(slots[0].hits!.best[Int($0)] >> 8) != 0 }
        let pageFilled = (!severalWords && !foundOnlyAbroad) || completion
            || Self.strongCount(candidates, slots, upTo: wanted) >= wanted
        if nothingTogether || !pageFilled {
            try addTyposBesideResults(parsed, slots: &slots, candidates: &candidates, pageFilled: pageFilled,
                                      nothingTogether: nothingTogether, excluded: excluded, filters: filters, kindMask: kindMask,
                                      favourites: options.favourites, context: context)
        }
        let phrase = slots.count > 1 && !candidates.isEmpty ? context.phraseHits(slots, of: parsed) : nil

        // Rank by the rules (`RankingKey`). With several terms a name is matched whole, or by
        // its start, when they are the whole name or its start together (the phrase), and each
        // term alone one position lower (`Position.amongTerms`): one term equal to a name ranks
        // as the name's start, "mega sc" Mega Scizor, which the terms start together, before
        // Mega Pinsir (French Méga-Scarabrute), which "mega" starts.
        let amongTerms = slots.count > 1
        var ranked: [(key: UInt64, doc: Int)] = []
        ranked.reserveCapacity(candidates.count)
        for candidate in candidates {
            let doc = Int(candidate)
            var terms = RankingKey.Terms(anyTerm: !slots.isEmpty)
            for slot in slots { terms.add(slot.hits!.best[doc] >> 8, amongTerms: amongTerms) }
            if let phrase, let hit = phrase.hit(doc) { terms.addPhrase(hit.rank) }
            ranked.append((terms.key(doc: doc).raw, doc))
        }
        if slots.isEmpty && !textScores.isEmpty { Self.rankByTextScore(&ranked, textScores) }
        return (ranked, options.explain ? slots.map { TermHits(term: parsed.term($0.clause), hits: $0.hits!) } : [])
    }

    /// Matches a slot's term in full (typos too), in place of its deferred or read hits.
    func matchInFull(_ slot: Int, of slots: inout [TermSlot], _ parsed: ParsedQuery, context: MatchContext) throws {
        let term = parsed.term(slots[slot].clause)
        let hits = try context.match(term, allowTypos: true, located: slots[slot].located)
        if context.budget.isSpent { throw Self.tooBroad(term) }
        slots[slot].hits = hits
        slots[slot].readOnCandidates = false
    }

    /// How a deferred word is read on a number of candidates, and what that costs in
    /// postings' worth (to weigh against matching it in full, `TermSlot.cost`). A candidate's
    /// own postings cost a few; where the word is also looked for inside names (a search's
    /// substrings), each candidate's names are searched, tens more (`substringReadingCost`),
    /// unless the names holding it, found once in the suffix array
    /// (`MatchContext.substringCost`), cost less: many candidates ("normal tande": typos of
    /// "tande" bring thousands, "normal" is read on them).
    func readingPlan(_ slot: TermSlot, _ term: Term, candidates: Int, context: MatchContext) -> (cost: Int, inside: WordInside) {
        guard context.matchesSubstrings(term) else { return (4 * candidates, .none) }
        let onCandidates = (Self.substringReadingCost - 4) * candidates
        // (A completion reads no candidate's names inside a word, `wordHit`: nothing to price.)
        if !context.completion, case let once = slot.insideCost ?? context.substringCost(term), once < onCandidates {
            return (4 * candidates + once, .foundOnce)
        }
        return (4 * candidates + onCandidates, .onEachCandidate)
    }

    /// Where a word read on candidates is looked for inside names (`readingPlan`).
    enum WordInside {
        case none
        case onEachCandidate
        case foundOnce
    }

    /// A deferred word's hits on the candidates given, read from their own postings (and,
    /// where the word is looked for inside names, their names, or the names holding it found
    /// once: `inside`).
    func read(_ term: Term, keys: Range<Int>, inside: WordInside, on candidates: [Int32], into hits: HitMap, context: MatchContext) {
        var text = term.text
        text.withUTF8 { bytes in
            let holding = inside == .foundOnce ? context.lease.newMap() : nil
            if let holding { context.recordInside(bytes, skipping: keys, restriction: nil, queryTransliterated: false, into: holding) }
            for (n, doc) in candidates.enumerated() {
                index.tops.prefetchPostings(aheadOf: n, count: candidates.count) { Int(candidates[$0]) }
                if let raw = context.wordHit(term, bytes: bytes, keys: keys, substrings: inside == .onEachCandidate, doc: Int(doc)) {
                    hits.record(Int(doc), Hit(raw: raw))
                }
                if let hit = holding?.hit(Int(doc)) { hits.record(Int(doc), hit) }
            }
        }
        context.budget.postings -= candidates.count
    }

    /// How many of the candidates (`upTo` at most) have no term matched as a typo would
    /// (inside a foreign name's word, or a foreign field's word it only starts): hits that
    /// fill a page before typo candidates, which rank with those.
    static func strongCount(_ candidates: [Int32], _ slots: [TermSlot], upTo wanted: Int) -> Int {
        var count = 0
        for candidate in candidates where count < wanted {
            if slots.allSatisfy({ HitRank.typos($0.hits!.best[Int(candidate)] >> 8) == 0 }) { count += 1 }
        }
        return count
    }

    static func tooBroad(_ term: Term) -> QueryError {
        QueryError("query too broad: its terms match too much to rank in time; use longer words or fewer terms",
                   position: term.position, part: term.raw)
    }

    /// Documents every slot's map holds (of the slots matched so far; the smallest drives),
    /// of the kinds asked for, held by no excluded map, passing every filter: into `docs`,
    /// replacing what it held (its room is kept from one query to the next).
    func intersect(_ slots: [TermSlot], excluded: [HitMap], filters: [(ResolvedFilter, Bool)], kindMask: Int,
                   context: MatchContext, favourites: Set<Int>, into docs: inout [Int32]) {
        docs.removeAll(keepingCapacity: true)
        var smallest: HitMap? = nil
        for slot in slots { if let hits = slot.hits, hits.count < smallest?.count ?? .max { smallest = hits } }
        if let smallest {
            docs.append(contentsOf: smallest.docs)
        } else {
            // Filters only: the smallest type asked for, else every document.
            var start = allDocs
            for case (.type(let type), false) in filters where docsByType[Int(type)].count < start.count { start = docsByType[Int(type)] }
            for case (.docs(let found), false) in filters where found.count < start.count { start = found.sorted() }
            docs.append(contentsOf: start)
        }
        if kindMask != 0 {
            index.docKind.withUnsafeBufferPointer { kinds in docs.removeAll { kindMask & (1 << Int(kinds[Int($0)])) == 0 } }
        }
        for slot in slots {
            guard let map = slot.hits, map.best != smallest?.best else { continue }
            docs.removeAll { !map.contains(Int($0)) }
        }
        for map in excluded { docs.removeAll { map.contains(Int($0)) } }
        for (filter, negated) in filters { context.apply(filter, negated: negated, to: &docs, favourites: favourites) }
    }
}

/// A positive term while a query is ranked: its clause in the parsed query, its hits once
/// matched (a word read on candidates only, later), and its text in the trie (a deferred word
/// is matched in full from it; the phrase of the terms is looked up from the first's). Plain
/// values only: slots are copied and read in the ranking's loops without reference counting
/// (a slot holding its term counted references to the term's strings at each copy).
struct TermSlot {
    var clause: Int
    var hits: HitMap?
    var located: MatchContext.TermNode? = nil
    /// A deferred word (its hits come after the other terms'): the keys it matches, and
    /// what matching it in full costs, in postings' worth (its postings, and `MatchContext.substringCost`).
    var deferredKeys: Range<Int>? = nil
    var cost = 0
    /// Of that, what finding the names holding it further in costs (nil: not priced).
    var insideCost: Int? = nil
    /// A deferred word's hits read on the candidates only (and on the documents typos bring,
    /// once they are matched).
    var readOnCandidates = false
}

/// A positive term and its hits. (Structs, not tuples, wherever a term is kept in an array:
/// arrays of tuples with such payloads are copied through the runtime's generic witnesses.)
struct TermHits {
    var term: Term
    var hits: HitMap
}
