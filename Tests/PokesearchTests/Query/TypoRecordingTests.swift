import Folding
@testable import Index
@testable import Query
import Testing

/// How typo matches become hits: the shortcuts taken recording them (a range read on its
/// documents' own postings, a range inside another left to it, a run searched once within its
/// whole budget) record what recording every match in full does, over the real corpus.
@Suite("Typo hits recorded")
struct TypoRecordingTests {
    /// Calls `body` with a search's match context over the real corpus and its index, the
    /// context's lease released after.
    static func withContext(_ body: (MatchContext, IndexSnapshot) -> Void) {
        let engine = Fixture.engine
        let context = MatchContext(index: engine.index, displayLanguage: 0, languageRestriction: nil, completion: false,
                                   typedAfterOthers: false, readsLists: true, lease: engine.hitMaps.lease())
        defer { context.lease.release() }
        body(context, engine.index)
    }

    /// Documents drawn at random, `count` of them (every one at most once), as a scope.
    static func scope(_ count: Int, _ context: MatchContext, _ generator: inout DifferentialTests.Generator) -> HitMap {
        let map = context.lease.newMap()
        let docCount = context.index.docCount
        while map.count < min(count, docCount) { map.record(generator.below(docCount), Hit(raw: 0)) }
        return map
    }

    /// Records a typo match's whole range as `matchTypos` records a range (its first key exact
    /// where it is the path itself).
    static func recordInFull(_ match: TypoMatch, _ context: MatchContext, fields: MatchContext.FieldMatching, within scope: HitMap?,
                             into hits: HitMap) {
        let whole = context.index.keys.length(match.keys.lowerBound) == match.length
        context.recordRange(match.keys, length: whole ? match.length : nil, wholeWord: false, phrase: false, fields: fields,
                            restriction: nil, queryTransliterated: false, typos: match.distance, within: scope, into: hits)
    }

    static let misspelt = ["char", "maro", "drag", "sead", "roamin", "pikachi", "bulbsaur", "charizrd", "garchomb", "thundr"]

    /// A scoped range is recorded as the whole range is on the scope's documents, whether it
    /// is read posting by posting or on the documents' own postings (a small scope, a large
    /// range: both ways are taken).
    @Test func aScopedRangeRecordsWhatTheWholeRangeDoesOnItsDocuments() {
        Self.withContext { context, index in
            var generator = DifferentialTests.Generator(state: 5)
            var readOnDocuments = 0, compared = 0
            for word in Self.misspelt {
                var steps = 100_000
                let matches = index.typoMatches(word.unicodeScalars.map(\.value), maxEdits: 1, steps: &steps)
                for match in matches {
                    let everywhere = context.lease.newMap()
                    Self.recordInFull(match, context, fields: .prefix, within: nil, into: everywhere)
                    for size in [1, 5, 40, 400, index.docCount] {
                        let scope = Self.scope(size, context, &generator)
                        let scoped = context.lease.newMap()
                        Self.recordInFull(match, context, fields: .prefix, within: scope, into: scoped)
                        let postings = Int(index.postingStart[match.keys.upperBound] - index.postingStart[match.keys.lowerBound])
                        if postings > MatchContext.postingsPerScopedDocument * scope.count { readOnDocuments += 1 }
                        let expected = scope.docs.filter { everywhere.contains(Int($0)) }.sorted()
                        #expect(scoped.docs.sorted() == expected, "'\(word)' at \(match.keys), \(size) documents")
                        #expect(expected.allSatisfy { scoped.best[Int($0)] == everywhere.best[Int($0)] }, "'\(word)' at \(match.keys)")
                        compared += 1
                    }
                }
            }
            #expect(readOnDocuments > 50 && readOnDocuments < compared, "\(readOnDocuments) of \(compared) read on documents")
        }
    }

    /// A word's typo hits are what recording each of its matches' ranges in full gives (nearest
    /// first: two edits only where one recorded nothing), though a range inside another within
    /// as few edits records only its whole word.
    @Test func nestedTypoRangesRecordWhatEveryRangeDoes() {
        Self.withContext { context, index in
            var generator = DifferentialTests.Generator(state: 8)
            var nested = 0
            for word in Self.misspelt {
                let term = Term(text: word, raw: word, shape: .word, language: nil, position: 0)
                let scope = Self.scope(index.docCount, context, &generator)
                let hits = context.lease.newMap()
                context.matchTypos(term, within: scope, into: hits)
                let expected = context.lease.newMap()
                let scalars = word.unicodeScalars.map(\.value)
                for edits in 1...MatchContext.editBudget(scalars.count) {
                    var steps = 100_000
                    let matches = index.typoMatches(scalars, maxEdits: edits, steps: &steps)
                    for match in matches {
                        Self.recordInFull(match, context, fields: context.fields(term), within: scope, into: expected)
                        nested += matches.count { $0.distance <= match.distance && $0.keys != match.keys
                            && $0.keys.lowerBound <= match.keys.lowerBound && match.keys.upperBound <= $0.keys.upperBound }
                    }
                    if expected.count > 0 { break }
                }
                #expect(hits.docs.sorted() == expected.docs.sorted(), "'\(word)'")
                #expect(expected.docs.allSatisfy { hits.best[Int($0)] == expected.best[Int($0)] }, "'\(word)'")
            }
            #expect(nested > 50, "\(nested) ranges inside another")
        }
    }

    /// A run of terms is searched once within its whole budget: it records what a search of one
    /// edit, then (where that records nothing) one of two, records (a run as written among
    /// them: "perishsong" is a key).
    @Test func aRunRecordsWhatSearchesOfOneEditThenTwoRecord() {
        Self.withContext { context, index in
            var recorded = 0
            for (run, window) in [("roaminrun", 0..<6), ("groundmaro", 6..<10), ("perishsog", 6..<9), ("tyenull", 0..<3),
                                  ("marorock", 0..<4), ("fireflar", 4..<8), ("stonenxe", 5..<8), ("thunderbot", 7..<10),
                                  ("perishsong", 6..<10)] as [(String, Range<Int>)] {
                let hits = context.lease.newMap()
                let scalars = run.unicodeScalars.map(\.value)
                context.addRunTypos(scalars, editsWithin: window, within: nil, into: [hits][...])
                let expected = context.lease.newMap()
                for edits in 1...MatchContext.editBudget(scalars.count) {
                    var steps = 100_000
                    for match in index.typoMatches(scalars, maxEdits: edits, editsWithin: window, steps: &steps) {
                        for key in match.keys {
                            for p in index.postingRange(key: key) {
                                let raw = index.postings[p]
                                let role = (raw >> 1) & 7
                                guard role == KeyRole.whole.rawValue || role == KeyRole.compact.rawValue else { continue }
                                expected.record(Int(raw >> 8), Hit(raw: Hit.raw(posting: raw, exact: index.keys.length(key) == match.length,
                                                                                display: 0, typos: UInt32(match.distance))))
                            }
                        }
                    }
                    if expected.count > 0 { break }
                }
                #expect(hits.docs.sorted() == expected.docs.sorted(), "'\(run)'")
                #expect(expected.docs.allSatisfy { hits.best[Int($0)] == expected.best[Int($0)] }, "'\(run)'")
                if expected.count > 0 { recorded += 1 }
            }
            #expect(recorded >= 4, "\(recorded) runs recorded hits")
        }
    }

    /// A run that records nothing after searching every key within its budget says so, and
    /// then a longer run from the same term, with the same budget and edits in the same words,
    /// records nothing either (`addTyposBesideResults` skips it): every key near the longer
    /// starts with a path as near the shorter. Checked on the English names of three words or
    /// more, their second word mistyped (its last letter dropped, or its letters replaced), the
    /// third word added to make the longer run.
    @Test func aRunThatRecordsNothingRulesOutTheLongerRunsFromIt() {
        Self.withContext { context, index in
            var ruledOut = 0, longerFound = 0, checked = 0
            for doc in 0..<index.docCount where checked < 400 {
                let words = Folding.fold(index.displayName(doc, language: 0)).split(separator: " ").map(String.init)
                guard words.count >= 3, words[1].count >= 3, words.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.isASCII } }) else { continue }
                for second in [String(words[1].dropLast()), String(repeating: "q", count: words[1].count)] {
                    let shorter = (words[0] + second).unicodeScalars.map(\.value)
                    let longer = shorter + words[2].unicodeScalars.map(\.value)
                    let window = words[0].count..<shorter.count
                    guard MatchContext.editBudget(shorter.count) == MatchContext.editBudget(longer.count) else { continue }
                    checked += 1
                    context.budget = WorkBudget()
                    let nothing = context.addRunTypos(shorter, editsWithin: window, within: nil, into: [context.lease.newMap()][...])
                    context.budget = WorkBudget()
                    let found = context.lease.newMap()
                    _ = context.addRunTypos(longer, editsWithin: window, within: nil, into: [found][...])
                    if nothing {
                        ruledOut += 1
                        #expect(found.count == 0, "'\(words.joined(separator: " "))': \(second)")
                    }
                    if found.count > 0 { longerFound += 1 }
                }
            }
            // Both kinds of case were met: shorter runs that found nothing, longer ones that found.
            #expect(ruledOut >= 50 && longerFound >= 50, "\(checked) pairs, \(ruledOut) ruled out, \(longerFound) longer runs found")
        }
    }
}
