import Foundation
@testable import Index
@testable import Query
import Testing

/// The typo search over the trie against a brute force over every key: the keys a term
/// finds within its edit budget, and at what distance, must be exactly the keys having a
/// prefix within that many edits (optimal string alignment: transpositions count 1).
@Suite("Typo search")
struct TypoSearchTests {
    /// Fewest edits turning some prefix of `key` into `term`, or nil past `budget`.
    static func prefixDistance(_ key: [UInt32], _ term: [UInt32], budget: Int) -> Int? {
        let m = term.count, width = m + 1
        // (Three rows of the table taking turns in one buffer, read through pointers: this
        // runs on every key for each term, and a debug build's arrays are slow at that.)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows -> Int? in
            key.withUnsafeBufferPointer { key -> Int? in
                term.withUnsafeBufferPointer { term -> Int? in
                    var previous2 = rows.baseAddress!, previous = previous2 + width, current = previous + width
                    for j in 0..<width { previous2[j] = 0; previous[j] = j }
                    var best = previous[m]
                    var i = 1
                    while i <= key.count {
                        current[0] = i
                        var rowMinimum = i
                        var j = 1
                        while j <= m {
                            let cost = key[i - 1] == term[j - 1] ? 0 : 1
                            var cell = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                            if i > 1, j > 1, key[i - 1] == term[j - 2], key[i - 2] == term[j - 1] {
                                cell = min(cell, previous2[j - 2] + 1)
                            }
                            current[j] = cell
                            rowMinimum = min(rowMinimum, cell)
                            j += 1
                        }
                        best = min(best, current[m])
                        if rowMinimum > budget { break }
                        (previous2, previous, current) = (previous, current, previous2)
                        i += 1
                    }
                    return best <= budget ? best : nil
                }
            }
        }
    }

    /// The brute force: each key (by its index in `keys`, the scalars compared) having a
    /// prefix within two edits of `term`, at that prefix's distance. Those within one edit are
    /// those at one or none: both budgets checked from one pass over the keys.
    static func keysWithinTwoEdits(of term: [UInt32], among keys: [[UInt32]]) -> [Int: Int] {
        var within: [Int: Int] = [:]
        for (key, comparable) in keys.enumerated() {
            if let distance = prefixDistance(comparable, term, budget: 2) { within[key] = distance }
        }
        return within
    }

    /// Every key's scalars, and its ASCII start (what an ASCII term is compared with), for
    /// the brute forces: made once for all of them.
    static let keyScalars = (0..<Fixture.engine.index.keys.count).map { Fixture.engine.index.keyString($0).unicodeScalars.map(\.value) }
    static let keyASCIIStarts = keyScalars.map { Array($0.prefix { $0 < 0x80 }) }

    @Test(.tags(.exhaustive)) func trieWalkFindsWhatABruteForceFinds() throws {
        let index = Fixture.engine.index
        var generator = DifferentialTests.Generator(state: 4242)
        // Past one edit's budget, the walk follows the term byte by byte instead of stepping;
        // edits at the start and at the end of the term, where that begins and where it ends.
        let words = ["pikachu", "charizard", "garchomp", "bulbasaur", "thunderbolt", "leftovers", "levitate", "ピカチュウ", "피카츄",
                     "metronome", "ampharos", "mr mime", "eevee"]
        // Each word is compared with a brute force over every key: outside a full run, every
        // third word (the four kinds of edit among them), a word of another script and the
        // edit at the start (the edit at the end is the last word, among them). Every word's
        // edit is still drawn, so each word checked has the edit a full run gives it.
        let checked = Set(Exhaustive.sample(words.indices, oneIn: 3) + [words.firstIndex(of: "ピカチュウ")!, words.count - 2])
        for (n, word) in words.enumerated() {
            var scalars = word.unicodeScalars.map(\.value)
            // One edit at a seeded place (the first and the last for the last words): substitute,
            // delete, insert or transpose.
            let at = n == words.count - 2 ? 0 : n == words.count - 1 ? scalars.count - 2 : generator.below(scalars.count - 1)
            switch n % 4 {
            case 0: scalars[at] = 0x78
            case 1: scalars.remove(at: at)
            case 2: scalars.insert(0x65, at: at)
            default: scalars.swapAt(at, at + 1)
            }
            guard checked.contains(n) else { continue }
            // An ASCII term is compared with the ASCII part of a key that starts the key.
            let withinTwo = Self.keysWithinTwoEdits(of: scalars, among: scalars.allSatisfy { $0 < 0x80 } ? Self.keyASCIIStarts : Self.keyScalars)
            for maxEdits in [1, 2] {
                var steps = Int.max
                var found: [Int: Int] = [:]
                for match in index.typoMatches(scalars, maxEdits: maxEdits, steps: &steps) {
                    let (range, node, distance, _) = match
                    // The node found holds the range (its list is what a completion reads).
                    #expect(index.nodeKeys(node) == range)
                    Self.expectPathHolds(match, scalars)
                    for key in range { found[key] = min(found[key] ?? .max, distance) }
                }
                let expected = withinTwo.filter { $0.value <= maxEdits }
                #expect(found == expected, "'\(String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init))))' within \(maxEdits): \(found.count) found, \(expected.count) expected")
            }
        }
    }

    /// A search of a long Latin term is split (see `TypoSearch`): every edit in the first half
    /// is the case found through the suffix array; the others are the walk's. (Its paths
    /// measured once each: "thunder pnch" and "thnduerbolt" meet the same word in many keys,
    /// "pkoeball" and "xxxxball" more distinct ones, about 140 within one edit and 200 within
    /// two, than the table of those measured takes.)
    @Test(.tags(.exhaustive), arguments: Exhaustive.sample(["cxxrizard", "xxpikachu", "agrhcomp", "mtreonoem", "levtiaet", "thnduerbolt", "lfetovesr",
                                                            "ampahros", "bulbasuar", "xxxxxxxxx", "mr mmie", "leftvoers x", "rockrufff",
                                                            "thunder pnch", "pkoeball", "xxxxball"], oneIn: 4))
    func splitSearchFindsWhatABruteForceFinds(_ word: String) throws {
        Self.expectSplitSearchMatchesBruteForce(word.unicodeScalars.map(\.value))
    }

    /// The split is what makes a long term's search cheap: the same keys at the same distances
    /// as the whole enumeration, in fewer steps, at most a third from eight letters (a split
    /// that quietly stopped applying would still find everything).
    @Test(arguments: ["thnduerbolt", "cxxrizard", "bulbasuar", "lfetovesr", "pikachi", "garchmop", "levtiaet"])
    func splitSearchTakesAFractionOfTheSteps(_ word: String) throws {
        let index = Fixture.engine.index
        let term = word.unicodeScalars.map(\.value)
        for maxEdits in [1, 2] {
            func search(split: Int?) -> (found: [Int: Int], steps: Int) {
                var search = TypoSearch(index: index, term: term, maxEdits: maxEdits, split: split, budget: 1_000_000)
                search.run()
                var found: [Int: Int] = [:]
                for (range, _, distance, _) in search.found { for key in range { found[key] = min(found[key] ?? .max, distance) } }
                return (found, 1_000_000 - search.budget)
            }
            let split = search(split: term.count / 2), whole = search(split: nil)
            #expect(split.found == whole.found, "'\(word)' within \(maxEdits)")
            // Seven letters split 3 + 4: the first half saves less.
            #expect(split.steps < whole.steps, "'\(word)' within \(maxEdits): \(split.steps) steps split, \(whole.steps) whole")
            if term.count >= 8 {
                #expect(split.steps * 3 <= whole.steps, "'\(word)' within \(maxEdits): \(split.steps) steps split, \(whole.steps) whole")
            }
        }
    }

    /// A split search measures each path of its second half's occurrences once (the table in
    /// `runExactTail`): "pikachu" split 3 + 4 finds "achu" in 191 keys, nearly all in the
    /// word "pikachu", seven bytes to measure in each (1,693 steps in all when each was
    /// measured: the results alone would not show it).
    @Test func splitSearchMeasuresEachPathOnce() throws {
        let index = Fixture.engine.index
        let word = "pikachu"
        let term = word.unicodeScalars.map(\.value)
        var search = TypoSearch(index: index, term: term, maxEdits: 1, split: 3, budget: 1_000_000)
        search.run()
        var occurrences = 0
        Array("achu".utf8).withUnsafeBufferPointer { rest in
            index.suffixes.forEachOccurrence(of: rest, keyCount: index.keys.count) { _, _, _ in occurrences += 1 }
        }
        let steps = 1_000_000 - search.budget
        #expect(occurrences > 150, "'achu' in \(occurrences) keys")
        #expect(steps < occurrences * word.count, "\(steps) steps for \(occurrences) occurrences")
    }

    /// Seeded keys of eight to fourteen ASCII scalars with one or two random edits, most in
    /// the first half.
    @Test(.tags(.exhaustive)) func generatedTypoTermsMatchABruteForce() throws {
        let index = Fixture.engine.index
        var generator = DifferentialTests.Generator(state: 77)
        var terms = 0
        while terms < Exhaustive.share(20, oneIn: 4) {
            var scalars = index.keyString(generator.below(index.keys.count)).unicodeScalars.map(\.value)
            guard (8...14).contains(scalars.count), scalars.allSatisfy({ $0 < 0x80 }) else { continue }
            for _ in 0...(terms % 2) {
                let at = generator.below(2) == 0 ? generator.below(scalars.count / 2) : generator.below(scalars.count - 1)
                switch generator.below(4) {
                case 0: scalars[at] = UInt32(0x61 + generator.below(26))
                case 1: scalars.remove(at: at)
                case 2: scalars.insert(UInt32(0x61 + generator.below(26)), at: at)
                default: if at + 1 < scalars.count { scalars.swapAt(at, at + 1) }
                }
            }
            Self.expectSplitSearchMatchesBruteForce(scalars)
            terms += 1
        }
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions and adjacent
    /// transpositions each cost 1, as the contract counts typos), by the engine's function.
    static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { TypoSearch.distance(a, $0, atMost: max(a.count, $0.count))! } }
    }

    @Test func editDistanceCountsAsTheContractDoes() {
        for (a, b, expected) in [("", "abc", 3), ("abc", "", 3), ("abc", "abc", 0), ("ab", "ba", 1), ("kitten", "sitting", 3),
                                 ("ca", "abc", 3), ("pikachu", "pikachuu", 1), ("charizard", "chraizard", 1), ("bulbasaur", "blubasuar", 2)] {
            #expect(Self.editDistance(Array(a), Array(b)) == expected, "\(a) → \(b)")
            #expect(Self.editDistance(Array(b.utf8), Array(a.utf8)) == expected, "\(b) → \(a)")
        }
    }

    /// The engine's distance is bit-parallel: it must agree with the whole table computed a
    /// cell at a time (`distance(_:_:budget:)`, the brute force's) on every pair, within the
    /// limit and past it, for texts up to the 64 elements it takes.
    @Test func bitParallelDistanceAgreesWithTheWholeTable() {
        var generator = DifferentialTests.Generator(state: 99)
        // Three letters, so that repeats and transpositions are common.
        func word(_ longest: Int) -> [UInt8] { (0..<generator.below(longest + 1)).map { _ in UInt8(0x61 + generator.below(3)) } }
        for round in 0..<4000 {
            let longest = round % 8 == 0 ? 64 : 10
            let a = word(longest), b = word(longest)
            for limit in [0, 1, 2, 3, 64] {
                let bitParallel = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { TypoSearch.distance(a, $0, atMost: limit) } }
                let table = Self.distance(a.map(UInt32.init), b.map(UInt32.init), budget: limit)
                #expect(bitParallel == table, "\(a) \(b) within \(limit)")
            }
        }
    }

    /// A match's path (its first key's first `length` bytes) starts every key of its range and
    /// is within its distance of the term: what ranks its first key, when that long, as the
    /// whole word within the edits (`MatchContext.matchTypos`).
    static func expectPathHolds(_ match: TypoMatch, _ term: [UInt32]) {
        let index = Fixture.engine.index
        let first = Array(index.keyString(match.keys.lowerBound).utf8)
        guard match.length <= first.count, let path = String(validating: first[..<match.length], as: UTF8.self) else {
            Issue.record("a path of \(match.length) bytes in '\(index.keyString(match.keys.lowerBound))'")
            return
        }
        #expect(match.keys.allSatisfy { index.keyString($0).utf8.starts(with: path.utf8) })
        let whole = Self.editDistance(Array(path), Array(String(String.UnicodeScalarView(term.compactMap(Unicode.Scalar.init)))))
        #expect(whole <= match.distance, "path '\(path)': \(whole) edits from the term, the match says \(match.distance)")
    }

    /// Within one edit and within two, what the search finds equals a brute force over every key.
    /// Edits only within a window of the term (a run's words not typed as meant, the rest
    /// read as written: `typoMatches(editsWithin:)`): every key found is one the whole
    /// term's budget finds, never nearer than it; every key whose prefix is the term with its
    /// window alone edited is found, at most that far. A window at the start with four
    /// letters or more after it is looked up by that rest in the suffix array. A window that
    /// ends the term finds each key exactly that far, and read whole (a match as long as the
    /// key) where the whole key is as near: what ranks it as the whole word within those
    /// edits (`MatchContext.addRunTypos`). A window short enough leaves the part before it
    /// as a match of its own ("dragondr": "dragon", both letters of "dr" deleted).
    @Test(.tags(.exhaustive), arguments: Exhaustive.sample([("watersead", 5..<9), ("seadpoison", 0..<4), ("groundmarorock", 6..<10),
                                                           ("perishsog", 6..<9), ("firecha", 4..<7), ("tyenull", 0..<3),
                                                           ("pikaxhu", 0..<2), ("pikaxhu", 3..<7), ("charixard", 0..<3),
                                                           ("avalugown", 0..<6), ("roaminrun", 0..<9), ("grassbellos", 5..<11),
                                                           ("ghostroamin", 5..<11), ("dragondr", 6..<8), ("pokeball", 4..<8)], oneIn: 3))
    func editsWithinAWindowFindWhatABruteForceFinds(_ word: String, _ window: Range<Int>) throws {
        let index = Fixture.engine.index
        let term = word.unicodeScalars.map(\.value)
        let (before, inside, after) = (Array(term[..<window.lowerBound]), Array(term[window]), Array(term[window.upperBound...]))
        for maxEdits in [1, 2] {
            var steps = Int.max
            var found: [Int: Int] = [:]
            let matches = index.typoMatches(term, maxEdits: maxEdits, editsWithin: window, steps: &steps)
            for match in matches {
                Self.expectPathHolds(match, term)
                for key in match.keys { found[key] = min(found[key] ?? .max, match.distance) }
            }
            // Whether a key was found read whole at its nearest.
            func foundWhole(_ key: Int) -> Bool {
                matches.contains { $0.keys.contains(key) && $0.distance == found[key] && $0.length == index.keys.length(key) }
            }
            for (key, comparable) in Self.keyASCIIStarts.enumerated() {
                let whole = Self.prefixDistance(comparable, term, budget: maxEdits)
                if let distance = found[key] {
                    #expect(whole.map { $0 <= distance } ?? false, "'\(word)' found \(index.keyString(key)) beyond its budget")
                }
                // The term with its window edited: the part before as written, the window's
                // edits (a part within the budget of it), then the part after as written.
                guard comparable.starts(with: before) else { continue }
                let rest = Array(comparable[before.count...])
                var windowed: Int? = nil
                if after.isEmpty {
                    windowed = Self.prefixDistance(rest, inside, budget: maxEdits)
                    if let windowed {
                        #expect(found[key] == windowed, "'\(word)' found \(index.keyString(key)) at \(found[key] ?? -1), not \(windowed)")
                        let readWhole = comparable.count == Self.keyScalars[key].count
                            && Self.distance(rest, inside, budget: maxEdits) == windowed
                        #expect(foundWhole(key) == readWhole, "'\(word)': \(index.keyString(key)) read whole within \(windowed)")
                    }
                } else {
                    for length in max(0, inside.count - maxEdits)...(inside.count + maxEdits) where length + after.count <= rest.count {
                        guard Array(rest[length..<length + after.count]) == after,
                              let distance = Self.distance(Array(rest[..<length]), inside, budget: maxEdits) else { continue }
                        windowed = min(windowed ?? .max, distance)
                    }
                }
                if let windowed {
                    #expect(found[key].map { $0 <= windowed } ?? false, "'\(word)' missed \(index.keyString(key)) within \(maxEdits)")
                }
            }
        }
    }

    /// A run's search with two edits ends well within the share of typo steps a search gives
    /// it, so that what it finds is not cut short: a window at the start is found by its
    /// rest ("avalugown", edits in "avalug": "own" in some hundred keys), and a window that is
    /// the whole run is none, so the search is split in halves. Either way by edits made
    /// near the root, each took several times the share.
    @Test func runsWithTwoEditsEndWithinTheirShare() throws {
        let index = Fixture.engine.index
        for (word, window) in [("avalugown", 0..<6), ("avalugown", 0..<9), ("roaminrun", 0..<6), ("roaminrun", 0..<9)] {
            var steps = 1_000_000
            _ = index.typoMatches(word.unicodeScalars.map(\.value), maxEdits: 2, editsWithin: window, steps: &steps)
            let used = 1_000_000 - steps
            #expect(used < MatchContext.typoStepsBesideSubstrings / 2, "'\(word)' \(window): \(used) steps")
        }
    }

    /// A window leaves out what only an edit elsewhere finds: "pikaxhu" is Pikachu with its
    /// fifth letter edited, which no edit in its first two letters, or its last two, reaches.
    @Test func aWindowLeavesOutEditsElsewhere() throws {
        let index = Fixture.engine.index
        let term = "pikaxhu".unicodeScalars.map(\.value)
        func finds(_ window: Range<Int>?) -> Bool {
            var steps = Int.max
            return index.typoMatches(term, maxEdits: 1, editsWithin: window, steps: &steps)
                .contains { match in match.keys.contains { index.keyString($0) == "pikachu" } }
        }
        #expect(finds(nil) && finds(3..<7) && !finds(0..<2) && !finds(5..<7))
    }

    /// Fewest edits (optimal string alignment) turning `a` into `b`, or nil past `budget`.
    static func distance(_ a: [UInt32], _ b: [UInt32], budget: Int) -> Int? {
        guard abs(a.count - b.count) <= budget else { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count] <= budget ? rows[a.count][b.count] : nil
    }

    static func expectSplitSearchMatchesBruteForce(_ scalars: [UInt32]) {
        let index = Fixture.engine.index
        let word = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        let withinTwo = keysWithinTwoEdits(of: scalars, among: keyASCIIStarts)
        for maxEdits in [1, 2] {
            var steps = Int.max
            var found: [Int: Int] = [:]
            for match in index.typoMatches(scalars, maxEdits: maxEdits, steps: &steps) {
                Self.expectPathHolds(match, scalars)
                for key in match.keys { found[key] = min(found[key] ?? .max, match.distance) }
            }
            let expected = withinTwo.filter { $0.value <= maxEdits }
            #expect(found == expected, "'\(word)' within \(maxEdits): \(found.count) found, \(expected.count) expected; missing \(expected.keys.filter { found[$0] == nil }.prefix(5).map(index.keyString))")
        }
    }
}
