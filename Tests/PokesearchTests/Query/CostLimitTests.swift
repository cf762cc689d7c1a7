import Foundation
import Index
import Query
import Testing

/// The worst queries we can construct (docs/ROBUSTNESS.md has their release-build timings,
/// from `pokesearch-stress costs`): each gives results or an error, never a crash, and the
/// limits that are part of the interface give errors that name them.
@Suite struct CostLimitTests {
    static let clauses = QueryParser.maxClauses
    static let length = QueryParser.maxLength

    static func repeated(_ term: String, _ count: Int) -> String { Array(repeating: term, count: count).joined(separator: " ") }

    static let worst: [String] = [
        repeated("a", clauses),
        repeated("charzard", clauses),
        repeated("*", clauses),
        repeated("*a*e*", clauses),
        "?*?*?*?*?*?*?*?*",
        "*e*e*e*e*e*e*e*e*",
        repeated("ピカチュウ", clauses),
        repeated("피카츄", clauses),
        repeated("-pikachi", clauses),
        repeated("hp>1", clauses),
        "id:1..999999999",
        "\"" + String(repeating: "ab ", count: (length - 2) / 3) + "\"",
    ]

    @Test(arguments: worst)
    func worstQueriesAnswerOrFail(query: String) {
        for options in [SearchOptions(), { var o = SearchOptions(); o.limit = SearchOptions.maxLimit; o.offset = SearchOptions.maxOffset; return o }()] {
            do {
                let response = try Fixture.engine.search(query, options: options)
                #expect(response.results.count <= options.limit)
            } catch {
                #expect(error is QueryError)
            }
        }
        #expect((try? Fixture.engine.complete(query, limit: 8)).map { $0.count <= 8 } ?? true)
    }

    /// A completion's typo search that runs out of steps ends, not the completion: a piece
    /// of a kana name that starts no word ("マダムゴミノミノ", inside ミノマダム's names), two
    /// edits from thousands of paths, is offered what was found or nothing while it is
    /// typed, never refused as too broad; so is a word typed after it, whose typos are looked
    /// for once the two find nothing together.
    @Test(arguments: ["マダムゴミノミノ", "マダムゴミノミノ ひかり"])
    func completionWhoseTypoSearchRunsOutIsAnswered(text: String) {
        #expect(throws: Never.self) { try Fixture.engine.complete(text, limit: 8) }
    }

    @Test func tooManyTermsIsAnError() {
        #expect(throws: QueryError.self) { try Fixture.engine.search(Self.repeated("a", Self.clauses + 1)) }
    }

    @Test func tooLongIsAnError() {
        #expect(throws: QueryError.self) { try Fixture.engine.search(String(repeating: "a", count: Self.length + 1)) }
    }

    /// Found by fuzz-protocol (`SEARCH` + 3194 × "a"): typo matching a term thousands of
    /// letters long walked the trie for seconds. No name is that long, so such a term can
    /// only find nothing, and its typo search takes no step at all (TypoSearch bounds the
    /// length of the terms it takes); a short term's takes steps, so the count tells.
    /// (`pokesearch-stress costs` times such searches in a release build.)
    @Test func longTermTypoSearchIsBounded() throws {
        let index = Fixture.engine.index
        let budget = 150_000
        var short = budget
        _ = index.typoMatches(Array(repeating: 97, count: 8), maxEdits: 2, steps: &short)
        #expect(short < budget, "a typo search of 8 letters took no step: the counts below tell nothing")
        for length in [64, 512, 3194, Self.length] {
            var steps = budget
            #expect(index.typoMatches(Array(repeating: 97, count: length), maxEdits: 2, steps: &steps).isEmpty)
            #expect(steps == budget, "a \(length)-letter term took \(budget - steps) typo steps")
            #expect(try Fixture.engine.search(String(repeating: "a", count: length)).results.isEmpty)
        }
    }
}
