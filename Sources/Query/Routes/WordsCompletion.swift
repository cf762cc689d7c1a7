import Folding
import Index

extension SearchEngine {
    /// The most words `completionOfWords` takes.
    static let wordsCompletionMaxWords = 8

    /// The most postings `completionOfWords` reads to find its candidates (those of its
    /// rarest word); past them the ranking answers ("fire char": the fire type's hundreds),
    /// whose plan (the rarest word in full, the others from the candidates' postings or
    /// their lists) costs less there. Chosen on the benchmark's two- and three-term
    /// completions, where a larger bound costs more than the ranking alone
    /// (docs/PERFORMANCE.md).
    static let wordsCompletionMaxPostings = 64

    /// A completion of several plain words being typed ("mega scizor", "dusk necr", "guadaña
    /// sedosa"), answered as the parsed query ranks it without parsing it or leasing hit
    /// maps: the words folded on the stack as `completionOfOneWord` folds one; the
    /// candidates, the documents of the rarest word's postings with its hit on each, read for
    /// every other word in their own postings (`MatchContext.rangeHit`, as the ranking reads
    /// a deferred word), earlier words as whole words (of names or fields), the last by prefix
    /// (a name word's, or a field typed out in full); then the words together as a whole name
    /// or its start, or its compact form, exact (`MatchContext.phraseHits`), and the ranking's key. Parsing, terms and hit maps were
    /// almost half of such a completion's instructions ("mega scizor": docs/PERFORMANCE.md
    /// has the count), and a quarter of the benchmark's completions are of several
    /// words.
    ///
    /// Nil where the ranking must answer: anything but plain words (the parser's simple terms,
    /// each folding to one word, no number alone: an id), a word no key starts with or, before
    /// the last, no key equals (typos), a last word starting no name, a rarest word of more
    /// than `wordsCompletionMaxPostings` postings, or no document with every word (typos).
    func completionOfWords(_ text: String, limit: Int, language: Int) -> ArraySlice<(key: UInt64, doc: Int)>? {
        let wanted = max(1, min(limit, SearchOptions.maxLimit))
        var text = text
        return text.withUTF8 { bytes -> ArraySlice<(key: UInt64, doc: Int)>? in
            guard bytes.count <= Self.oneWordLength * Self.wordsCompletionMaxWords, bytes.last.map({ $0 != 0x20 }) ?? false else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Folding.byScalarCapacity(bytes.count) + bytes.count) { folded in
                withUnsafeTemporaryAllocation(of: TypedWord.self, capacity: Self.wordsCompletionMaxWords) { words in
                    guard let count = foldWords(bytes, into: folded, words: words), count > 1 else { return nil }
                    return rankWords(UnsafeMutableBufferPointer(rebasing: words[..<count]), folded: folded, wanted: wanted,
                                     display: UInt32(language))
                }
            }
        }
    }

    /// A word of `completionOfWords`: where its folding is in the folded text, and the keys it
    /// matches (the last word's range; an earlier word's key equal to it).
    struct TypedWord {
        var start: Int
        var count: Int
        var keys: Range<Int>
        var node: Int
    }

    /// Folds the words between spaces of `bytes` into `folded`, one after another, and finds
    /// each in the trie: how many there are, or nil where `completionOfWords` leaves the text
    /// to the parser.
    private func foldWords(_ bytes: UnsafeBufferPointer<UInt8>, into folded: UnsafeMutableBufferPointer<UInt8>,
                           words: UnsafeMutableBufferPointer<TypedWord>) -> Int? {
        var count = 0, used = 0, start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x20 { end += 1 }
            if end > start {
                guard count < words.count else { return nil }
                let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
                // (Room for the word's folding, as `completionOfOneWord` gives it.)
                let room = Folding.byScalarCapacity(word.count)
                guard used + room <= folded.count,
                      let (length, pieces) = QueryParser.foldedWord(word, into: UnsafeMutableBufferPointer(rebasing: folded[used..<used + room])),
                      pieces == 1,
                      let node = index.prefixNode(UnsafeBufferPointer(rebasing: folded[used..<used + length])) else { return nil }
                // (What is read of the node next, its first key's length and postings, the
                // last word's list, asked for now: their misses overlap the next word's walk.)
                index.prefetchList(of: node)
                words[count] = TypedWord(start: used, count: length, keys: index.nodeKeys(node), node: node)
                used += length
                count += 1
            }
            start = end + 1
        }
        guard count > 0 else { return nil }
        for i in 0..<count - 1 {
            // A word typed out: the key equal to it.
            guard let key = index.keyEqualToPrefix(of: words[i].node, length: words[i].count) else { return nil }
            words[i].keys = key..<key + 1
        }
        // The last word starts a name (the lists leave fields out): it has hits of its own.
        guard !index.tops.names(words[count - 1].node).isEmpty else { return nil }
        return count
    }

    /// The ranking of `completionOfWords` over its located words.
    private func rankWords(_ words: UnsafeMutableBufferPointer<TypedWord>, folded: UnsafeMutableBufferPointer<UInt8>, wanted: Int,
                           display: UInt32) -> ArraySlice<(key: UInt64, doc: Int)>? {
        func postings(_ keys: Range<Int>) -> Range<Int> { Int(index.postingStart[keys.lowerBound])..<Int(index.postingStart[keys.upperBound]) }
        var rarest = 0
        for i in words.indices where postings(words[i].keys).count < postings(words[rarest].keys).count { rarest = i }
        let candidatePostings = postings(words[rarest].keys)
        guard candidatePostings.count <= Self.wordsCompletionMaxPostings else { return nil }
        let phrase = phraseKeys(words, folded: folded)
        let last = words.count - 1
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, candidatePostings.count)) { ranked in
            // The candidates with the rarest word's hit on each, read from its postings
            // (`doc << 32 | hit`), then each document once with its best hit.
            var read = 0
            let rarestWord = words[rarest]
            for key in rarestWord.keys {
                for p in index.postingRange(key: key) {
                    let raw = index.postings[p]
                    let hit = MatchContext.keyHit(index, key: key, posting: raw, length: rarestWord.count, wholeWord: rarest < last,
                                                  wholeNamesOnly: false, fields: rarest < last ? .prefix : .whole, display: display)
                    if hit != .max { ranked[read] = UInt64(raw >> 8) << 32 | UInt64(hit); read += 1 }
                }
            }
            var candidates = UnsafeMutableBufferPointer(rebasing: ranked[..<read])
            candidates.sort()
            var found = 0, previous = -1
            for (n, candidate) in candidates.enumerated() where Int(candidate >> 32) != previous {
                let doc = Int(candidate >> 32)
                previous = doc
                // (Its postings are read by binary searches: those of candidates ahead are
                // asked for now, as in `rank`.)
                index.tops.prefetchPostings(aheadOf: n, count: candidates.count) { Int(candidates[$0] >> 32) }
                // (As in `rank`: each word's hit placed among several, then the phrase's.)
                var terms = RankingKey.Terms(anyTerm: true)
                terms.add(Hit(raw: UInt32(truncatingIfNeeded: candidate)).rank, amongTerms: true)
                var hasEvery = true
                for w in words.indices where w != rarest {
                    let hit = MatchContext.rangeHit(index, doc: doc, keys: words[w].keys, length: words[w].count, wholeWord: w < last,
                                                    wholeNamesOnly: false, fields: w < last ? .prefix : .whole, display: display)
                    guard hit != .max else { hasEvery = false; break }
                    terms.add(Hit(raw: hit).rank, amongTerms: true)
                }
                guard hasEvery else { continue }
                // (The phrase's best hit, as its hit map keeps it: the better of the two.)
                var phraseHit = UInt32.max
                if let keys = phrase.starting {
                    phraseHit = MatchContext.rangeHit(index, doc: doc, keys: keys, length: phrase.length, wholeWord: false,
                                                      wholeNamesOnly: true, fields: .none, display: display)
                }
                if let key = phrase.compact {
                    phraseHit = min(phraseHit, MatchContext.rangeHit(index, doc: doc, keys: key..<key + 1, length: phrase.compactLength,
                                                                     wholeWord: true, wholeNamesOnly: false, fields: .none, display: display))
                }
                if phraseHit != .max { terms.addPhrase(Hit(raw: phraseHit).rank) }
                // (Written over the candidates already read: `found` never passes the one read.)
                ranked[found] = terms.key(doc: doc).raw
                found += 1
            }
            guard found > 0 else { return nil }
            var keys = UnsafeMutableBufferPointer(rebasing: ranked[..<found])
            keys.sort()
            return keys.prefix(wanted).map { (key: $0, doc: RankingKey(raw: $0).doc) }[...]
        }
    }

    /// The keys starting with the words joined by spaces (whole names equal to them or
    /// starting so) and the key equal to their compact form, as `MatchContext.phraseHits`
    /// looks them up, and their lengths.
    private func phraseKeys(_ words: UnsafeMutableBufferPointer<TypedWord>, folded: UnsafeMutableBufferPointer<UInt8>)
        -> (starting: Range<Int>?, length: Int, compact: Int?, compactLength: Int) {
        let length = words.reduce(words.count - 1) { $0 + $1.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * length) { buffer in
            var count = 0
            for word in words {
                if count > 0 { buffer[count] = 0x20; count += 1 }
                (buffer.baseAddress! + count).update(from: folded.baseAddress! + word.start, count: word.count)
                count += word.count
            }
            let phrase = UnsafeBufferPointer(rebasing: buffer[..<count])
            let compactOutput = UnsafeMutableBufferPointer(rebasing: buffer[count...])
            let compactCount = Folding.compact(phrase, into: compactOutput)
            let first = words[0]
            func node(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? { index.prefixNode(bytes, from: first.node, known: first.count) }
            let compact = UnsafeBufferPointer(rebasing: compactOutput[..<compactCount])
            return (node(phrase).map(index.nodeKeys), count,
                    node(compact).flatMap { index.keyEqualToPrefix(of: $0, length: compactCount) }, compactCount)
        }
    }
}
