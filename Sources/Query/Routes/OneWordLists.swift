import Corpus
import Folding
import Index

extension SearchEngine {
    /// The longest word `completionOfOneWord` takes (folded on the stack).
    static let oneWordLength = 64

    /// What `completionOfOneWord` or `searchOfOneWord` made of a text.
    enum OneWordAnswer<Answer> {
        /// The answer, from the trie's lists.
        case answered(Answer)
        /// One word the lists cannot answer (misspelt, past their window or their display
        /// language): its term, as the parser makes it, for the ranking to match.
        case unanswered(Term)
        /// Anything else, for the parser.
        case notOneWord
    }

    typealias OneWordCompletion = OneWordAnswer<ArraySlice<(key: UInt64, doc: Int)>>

    /// A completion of one word being typed (the parser's simple term: letters and digits,
    /// accented Latin, kana, hangul, han; or such words joined by punctuation, a phrase),
    /// answered from the trie node's list as the parsed query would be (`answerFromTops`,
    /// `completionOfPhrase`), folded on the stack without parsing: the parser's
    /// term, its two strings and its array of clauses were almost half of such a completion's
    /// instructions (docs/PERFORMANCE.md). Where the lists cannot answer,
    /// the word's term is made from its folding, not parsed again (a misspelt word's
    /// completion, "giraitna", spent a large share of its work parsing it, and looking
    /// for its list a second time).
    func completionOfOneWord(_ text: String, limit: Int, language: Int) -> OneWordCompletion {
        let wanted = max(1, min(limit, SearchOptions.maxLimit))
        let listsRank = Self.listsRank(language: language, wanted: wanted)
        return withFoldedWord(text) { folded, words, bytes -> OneWordCompletion in
            if listsRank, let answer = words > 1 ? completionOfPhrase(folded, wanted: wanted)
                : answerFromTops(word: folded, wanted: wanted, offset: 0, completion: true) {
                return .answered(answer.window)
            }
            return .unanswered(Self.term(folded: folded, words: words, bytes: bytes))
        } ?? .notOneWord
    }

    /// The parser's term of a text that is one word, from its folding (see `withFoldedWord`).
    static func term(folded: UnsafeBufferPointer<UInt8>, words: Int, bytes: UnsafeBufferPointer<UInt8>) -> Term {
        Term(text: String(decoding: folded, as: UTF8.self), raw: String(decoding: bytes, as: UTF8.self),
             shape: words > 1 ? .phrase : .word, language: nil, position: 0)
    }

    /// A search of one word (as `completionOfOneWord` takes it) answered from the trie node's
    /// list as the parsed query would be (`answerFromTops`), the word folded on the stack
    /// without parsing: the parser's term, its strings and its clauses were a large share of
    /// a one-word search's instructions (docs/PERFORMANCE.md has the count on the benchmark's
    /// one-word names). Where the lists cannot answer (options they do not rank, a phrase,
    /// no name starting with the word: substrings, typos), its term, made from the folding.
    func searchOfOneWord(_ query: String, options: SearchOptions) -> OneWordAnswer<RankedWindow> {
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        let listsAnswer = options.sort == .relevance && !options.explain && options.kinds.isEmpty
            && Self.listsRank(language: options.language, wanted: offset + limit)
        return withFoldedWord(query) { folded, words, bytes -> OneWordAnswer<RankedWindow> in
            if listsAnswer, words == 1, let answer = answerFromTops(word: folded, wanted: offset + limit, offset: offset, completion: false) {
                return .answered(answer)
            }
            return .unanswered(Self.term(folded: folded, words: words, bytes: bytes))
        } ?? .notOneWord
    }

    /// Calls `body` with the folding of a text that is one word (`QueryParser.foldedWord`:
    /// how the parser folds its only term), how many words that folding holds, and the text's
    /// bytes, all in place (the folding on the stack); nil when the text is anything else.
    func withFoldedWord<Result>(_ text: String, _ body: (_ folded: UnsafeBufferPointer<UInt8>, _ words: Int,
                                                         _ bytes: UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count <= Self.oneWordLength else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Folding.byScalarCapacity(bytes.count)) { output in
                guard let (count, words) = QueryParser.foldedWord(bytes, into: output) else { return nil }
                return body(UnsafeBufferPointer(rebasing: output[..<count]), words, bytes)
            }
        }
    }

    /// A one-word query (the word being typed) answered from the best-first list of the trie
    /// node it leads to, without reading the key range: the list's documents, the exact key's
    /// whole names upgraded, and for a search the names containing the word further in; the
    /// total from the node's document count plus those substring matches outside the range.
    /// Nil when the list cannot answer exactly (another display language, kinds, sorting,
    /// explanations, a page past the list, no key starting with the word: then typos and
    /// transliteration are the full ranking's). A completion's total is not counted
    /// (completions show only their window).
    func answerFromTops(_ parsed: ParsedQuery, options: SearchOptions, completion: Bool) -> RankedWindow? {
        guard options.sort == .relevance, !options.explain, options.kinds.isEmpty, parsed.language == nil,
              parsed.clauses.count == 1, !parsed.clauses[0].negated,
              case .term(let term) = parsed.clauses[0].clause, term.shape == .word, term.language == nil else { return nil }
        let limit = max(0, min(options.limit, SearchOptions.maxLimit))
        let offset = max(0, min(options.offset, SearchOptions.maxOffset))
        guard Self.listsRank(language: options.language, wanted: offset + limit) else { return nil }
        // The word's bytes in place (a short word's on the stack), not copied into an array.
        var word = term.text
        return word.withUTF8 { answerFromTops(word: $0, wanted: offset + limit, offset: offset, completion: completion) }
    }

    /// Whether the trie's lists rank a window of `wanted` documents (a page's end) for a display
    /// language: the language they were made for, and no further than they hold.
    static func listsRank(language: Int, wanted: Int) -> Bool {
        UInt32(language) == PrefixTops.language && wanted <= PrefixTops.capacity
    }

    /// The answer above for the word's bytes, `wanted` documents (the page's end) at most.
    func answerFromTops(word bytes: UnsafeBufferPointer<UInt8>, wanted: Int, offset: Int, completion: Bool) -> RankedWindow? {
        if completion {
            guard let (node, list) = namesList(bytes, wanted: wanted) else { return nil }
            return completionFromTops(list: list, node: node, length: bytes.count, wanted: wanted, offset: offset)
        }
        guard let node = index.prefixNode(bytes) else { return nil }
        index.prefetchList(of: node)
        // The node's list of names, and the entries the word adds to it: the list's fields,
        // and the postings of the key equal to the word, whole words.
        let list = index.tops.names(node)
        // (Given room for two windows' worth where entries come: grown one at a time, the
        // array cost more than the entries.)
        var added: [UInt32] = []
        added.reserveCapacity(2 * wanted)
        added.append(contentsOf: index.tops.entries[index.tops.fields(node)])
        let keyRange = index.nodeKeys(node)
        let exactKey = index.keyEqualToPrefix(of: node, length: bytes.count)
        // (Both best first: the fields' part of the list, then the whole words.)
        let wholeWordsStart = added.count
        if let exactKey, wanted > 0 {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wanted) { best in
                added.append(contentsOf: best[..<bestWholeWords(of: exactKey, fields: true, into: best)])
            }
        }
        var total = Int(index.tops.distinctDocs[node])
        // Where the added entries' runs end, each best first: the fields (to `wholeWordsStart`),
        // the whole words (to `insideStart`); the names holding the word further in, after
        // them, come in any order.
        let insideStart = added.count
        if Self.isLongEnoughForSubstrings(bytes) {
            // Names containing the word further in: ranked with the list (a document
            // listed for a field may rank higher by such a name), and counted once unless
            // already in the range. The list holds distinct documents, best first: once it
            // has the window's worth, an entry not below its last can enter no window
            // (a common piece, "meg", has thousands, none of them needed).
            var cutoff = list.count >= wanted && wanted > 0 ? index.tops.entries[list.lowerBound + wanted - 1] : .max
            // The documents found, each once (a pooled map: no document-sized array to
            // clear and scan per query).
            let found = hitMaps.take()
            defer { hitMaps.giveBack(found) }
            added.reserveCapacity(2 * wanted)
            let latinWord = !bytes.contains { $0 >= 0x80 }
            // (Asked once a hit is inside a foreign name's word: see `MatchContext.matchText`.
            // These are captured by the closure below alone, not by local functions: a variable
            // captured so is allocated on the heap, each call.)
            var namesAnEntity: Bool? = nil
            // Each key holding the word further in, first at `offset` (after a space: at a later
            // word's start).
            index.forEachKeyContaining(bytes, skipping: keyRange, laterWords: false, wholeNamesOnly: latinWord) { key, offset, afterSpace in
                let position = IndexSnapshot.containment(offset: offset, afterSpace: afterSpace)
                for p in index.postingRange(key: key) {
                    let raw = index.postings[p]
                    guard Posting.holdsInside(raw, latinTerm: latinWord) else { continue }
                    // (A word equal to a slug or synonym: no hit inside a foreign name's word.)
                    if position == .substring, Posting.languageMiss(raw, display: PrefixTops.language) != 0 {
                        if namesAnEntity == nil { namesAnEntity = index.isNeutralName(text: keyRange, length: bytes.count) }
                        if namesAnEntity! { continue }
                    }
                    found.record(Int(raw >> 8), Hit(raw: 0))
                    if let position {
                        let entry = Self.insideEntry(raw, position)
                        if entry < cutoff { added.append(entry) }
                    }
                }
                if wanted > 0 && added.count - insideStart >= 4 * wanted {
                    Self.keepWindowOfInside(&added, from: insideStart, wanted: wanted, cutoff: &cutoff)
                }
            }
            // Those outside the range: each looked up in its own postings, or, when the
            // range has few postings beside the documents found ("end" is in thousands of
            // names, few start with it), the range's documents marked first.
            let rangePostings = Int(index.postingStart[keyRange.upperBound] - index.postingStart[keyRange.lowerBound])
            if rangePostings <= 16 * found.count {
                let inRange = hitMaps.take()
                defer { hitMaps.giveBack(inRange) }
                for p in Int(index.postingStart[keyRange.lowerBound])..<Int(index.postingStart[keyRange.upperBound]) {
                    inRange.record(Int(index.postings[p] >> 8), Hit(raw: 0))
                }
                for doc in found.docs where !inRange.contains(Int(doc)) { total += 1 }
            } else {
                for doc in found.docs where !index.tops.hasKey(Int(doc), in: keyRange) { total += 1 }
            }
        }
        // (The runs merged rather than all sorted: an ability's list holds a window's worth
        // of fields, the Pokémon having it.)
        Self.sortTail(&added, from: insideStart)
        let window = merged(list: list, added: added, runs: (wholeWordsStart, insideStart), wanted: wanted)
        // A word found only outside the display language, short of a page and no whole word of
        // any name, is left to the ranking, which adds its typo candidates ("pikachi" starts
        // only Pikanium Z's German name, Pikachium Z; Pikachu is an edit away: `rank`).
        if total < wanted, exactKey == nil, let best = window.first.map({ RankingKey(raw: $0.key) }),
           best.value(.language) > 0 || best.value(.typo) > 0 {
            return nil
        }
        return RankedWindow(window: window.dropFirst(offset), total: total)
    }

    /// The trie node a completion's folded text leads to, and its list of names, when that list
    /// can give the completion's first `wanted` documents: it holds that many, or every name
    /// of the node's range (a list ending in fields, or not full). Nil otherwise, or where no
    /// key starts with the text.
    func namesList(_ bytes: UnsafeBufferPointer<UInt8>, wanted: Int) -> (node: Int, list: Range<Int>)? {
        guard let node = index.prefixNode(bytes) else { return nil }
        index.prefetchList(of: node)
        let list = index.tops.names(node)
        guard !list.isEmpty, list.count >= wanted || list.count < PrefixTops.capacity else { return nil }
        return (node, list)
    }

    /// Once the names found further in are many (a short list: "end" is inside thousands of
    /// names), `answerFromTops` keeps only the best entry of each of the window's worth of
    /// their documents (`entries` from `start` on): the last of those bounds what may still
    /// enter (`cutoff`). (The runs before them stay as they are: with their boundaries moved
    /// here, the search made two more allocations.)
    static func keepWindowOfInside(_ entries: inout [UInt32], from start: Int, wanted: Int, cutoff: inout UInt32) {
        sortTail(&entries, from: start)
        var kept = start
        for i in start..<entries.count where kept - start < wanted {
            let doc = PrefixTops.doc(entries[i])
            if !entries[start..<kept].contains(where: { PrefixTops.doc($0) == doc }) {
                entries[kept] = entries[i]
                kept += 1
            }
        }
        entries.removeSubrange(kept...)
        if kept - start == wanted { cutoff = min(cutoff, entries[kept - 1]) }
    }

    /// Sorts `entries` from `start` on, in place (the runs before it stay).
    static func sortTail(_ entries: inout [UInt32], from start: Int) {
        guard start < entries.count else { return }
        entries.withUnsafeMutableBufferPointer { all in
            var tail = UnsafeMutableBufferPointer(rebasing: all[start...])
            tail.sort()
        }
    }

    /// The first `wanted` documents of a node's list and of entries found beside it (`added`,
    /// in three runs each best first: before `runs.0`, from it to `runs.1`, and from there),
    /// both as list entries: merged best first, each document at its best entry. The list
    /// holds each document once, so a document of the list is looked for only among those
    /// taken from `added`, few or none (a short prefix's window is its list's): looking for
    /// every document in the whole window was a large share of a one- or two-letter search.
    func merged(list: Range<Int>, added: [UInt32], runs: (Int, Int), wanted: Int) -> [(key: UInt64, doc: Int)] {
        guard wanted > 0 else { return [] }
        return index.tops.entries.withUnsafeBufferPointer { entries in
            added.withUnsafeBufferPointer { added in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * wanted) { taken in
                    // The entries taken, in order; from `wanted` on, the documents of those
                    // taken from `added`.
                    var count = 0, fromAdded = wanted
                    var next = list.lowerBound
                    var heads = (0, runs.0, runs.1)
                    let ends = (runs.0, runs.1, added.count)
                    merging: while count < wanted {
                        // (Entries are below `.max`: a hit's bits are 7.)
                        var entry = UInt32.max
                        var from = 0
                        if next < list.upperBound { entry = entries[next]; from = 1 }
                        if heads.0 < ends.0 && added[heads.0] < entry { entry = added[heads.0]; from = 2 }
                        if heads.1 < ends.1 && added[heads.1] < entry { entry = added[heads.1]; from = 3 }
                        if heads.2 < ends.2 && added[heads.2] < entry { entry = added[heads.2]; from = 4 }
                        switch from {
                        case 1: next += 1
                        case 2: heads.0 += 1
                        case 3: heads.1 += 1
                        case 4: heads.2 += 1
                        default: break merging
                        }
                        let doc = PrefixTops.doc(entry)
                        if from == 1 {
                            if taken[wanted..<fromAdded].contains(UInt32(doc)) { continue }
                        } else {
                            if taken[..<count].contains(where: { PrefixTops.doc($0) == doc }) { continue }
                            taken[fromAdded] = UInt32(doc)
                            fromAdded += 1
                        }
                        taken[count] = entry
                        count += 1
                    }
                    return taken[..<count].map { (RankingKey.single(PrefixTops.rank($0), doc: PrefixTops.doc($0)).raw, PrefixTops.doc($0)) }
                }
            }
        }
    }

    /// A completion of a phrase typed as one word ("Multi-Attack", "Ho-Oh", "Nidoran♂": words
    /// joined by what folds to a space), answered as its parsed term (`.phrase`) ranks: the
    /// whole names starting with it (the node's list: a key holding a space is a whole name's),
    /// those equal to it exact; the key equal to its compact form ("multiattack"), as a whole
    /// word; the whole names where it starts a later word. Nil where the list cannot answer
    /// (no name starts with it, or too few listed), for the parsed query to answer.
    func completionOfPhrase(_ bytes: UnsafeBufferPointer<UInt8>, wanted: Int) -> RankedWindow? {
        guard let (node, list) = namesList(bytes, wanted: wanted) else { return nil }
        var added: [UInt32] = []
        if let exactKey = index.keyEqualToPrefix(of: node, length: bytes.count) {
            for p in index.postingRange(key: exactKey) where Posting.isWholeName(index.postings[p]) {
                added.append(PrefixTops.entry(posting: index.postings[p], exact: true))
            }
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { compact in
            let count = Folding.compact(bytes, into: compact)
            guard let compactNode = index.prefixNode(UnsafeBufferPointer(rebasing: compact[..<count])),
                  let key = index.keyEqualToPrefix(of: compactNode, length: count) else { return }
            for p in index.postingRange(key: key) {
                let raw = index.postings[p]
                guard !Posting.isField(raw) else { continue }
                added.append(PrefixTops.entry(posting: raw, exact: true))
            }
        }
        index.forEachKeyContaining(bytes, skipping: index.nodeKeys(node), wholeNamesOnly: true) { key, offset, afterSpace in
            guard IndexSnapshot.containment(offset: offset, afterSpace: afterSpace) == .laterWordPrefix else { return }
            for p in index.postingRange(key: key) where Posting.isWholeName(index.postings[p]) {
                added.append(Self.insideEntry(index.postings[p], .laterWordPrefix))
            }
        }
        added.sort()
        return RankedWindow(window: merged(list: list, added: added, runs: (added.count, added.count), wanted: wanted)[...], total: 0)
    }

    /// A completion's answer from a node's list of names (`list`): the list, best first,
    /// merged with the postings of the key equal to the word (of `length` bytes, when the node
    /// has it), whole words of names (the list has them as prefixes; `bestWholeWords`).
    func completionFromTops(list: Range<Int>, node: Int, length: Int, wanted: Int, offset: Int) -> RankedWindow {
        var window: [(key: UInt64, doc: Int)] = []
        window.reserveCapacity(wanted)
        let exactKey = index.keyEqualToPrefix(of: node, length: length)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wanted) { best in
            // (A lone word being typed matches no field.)
            let count = exactKey.map { bestWholeWords(of: $0, fields: false, into: best) } ?? 0
            var next = list.lowerBound, nextBest = 0
            while window.count < wanted && (next < list.upperBound || nextBest < count) {
                let entry: UInt32
                if next < list.upperBound && (nextBest == count || index.tops.entries[next] <= best[nextBest]) {
                    entry = index.tops.entries[next]
                    next += 1
                } else {
                    entry = best[nextBest]
                    nextBest += 1
                }
                let doc = PrefixTops.doc(entry)
                if !window.contains(where: { $0.doc == doc }) { window.append((RankingKey.single(PrefixTops.rank(entry), doc: doc).raw, doc)) }
            }
        }
        return RankedWindow(window: window.dropFirst(offset), total: 0)
    }

    /// The postings of `key`, equal to the word, as list entries (`PrefixTops.entry`) of whole
    /// words, of which only the best `best.count` documents can enter a window of that many:
    /// those, each at its best entry, best first. Names matched through their transliteration
    /// are listed already; `fields`: whether the key's field postings count. Returns how many
    /// `best` holds (at least one place). A key with many postings has them listed
    /// (`WholeWordLists`: "mega" is a word of hundreds of names, "vivillon" the first of every
    /// pattern's name in each language, "rock" a field of every Rock Pokémon's); the others'
    /// are read.
    func bestWholeWords(of key: Int, fields: Bool, into best: UnsafeMutableBufferPointer<UInt32>) -> Int {
        guard index.postingRange(key: key).count > WholeWordLists.minimumPostings, best.count <= PrefixTops.capacity,
              let lists = index.wholeWords.lists(of: key) else {
            return bestWholeWordsRead(of: key, fields: fields, into: best)
        }
        // The names' and the fields' lists merged, each document at its first (best) entry.
        var count = 0
        var name = lists.names.lowerBound, field = fields ? lists.fields.lowerBound : lists.fields.upperBound
        while count < best.count {
            let entry: UInt32
            if name < lists.names.upperBound && (field == lists.fields.upperBound || index.wholeWords.entry(name) < index.wholeWords.entry(field)) {
                entry = index.wholeWords.entry(name)
                name += 1
            } else if field < lists.fields.upperBound {
                entry = index.wholeWords.entry(field)
                field += 1
            } else {
                break
            }
            let doc = PrefixTops.doc(entry)
            if !best[..<count].contains(where: { PrefixTops.doc($0) == doc }) {
                best[count] = entry
                count += 1
            }
        }
        return count
    }

    /// `bestWholeWords` from the key's postings: the best kept in `best` as they are read (no
    /// array to allocate and sort).
    func bestWholeWordsRead(of key: Int, fields: Bool, into best: UnsafeMutableBufferPointer<UInt32>) -> Int {
        var count = 0
        func keep(_ entry: UInt32) {
            var at = count
            if count == best.count {
                guard entry < best[count - 1] else { return }
                at = count - 1
            } else {
                count += 1
            }
            // Into its place, the last entry dropped when full.
            while at > 0 && best[at - 1] > entry {
                best[at] = best[at - 1]
                at -= 1
            }
            best[at] = entry
        }
        WholeWordLists.forEachDocumentsBest(of: index.postings, in: index.postingRange(key: key),
                                            where: { fields || !Posting.isField($0) }, keep)
        return count
    }

    /// A list entry (`PrefixTops.entry`) of a whole name holding the word further in, at
    /// `position`.
    @inline(__always) static func insideEntry(_ posting: UInt32, _ position: Position) -> UInt32 {
        PrefixTops.entry(rank: HitRank.inside(posting: posting, position: position.rawValue, display: PrefixTops.language),
                         doc: posting >> 8)
    }
}
