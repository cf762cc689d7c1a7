import Foundation
import Query
import Testing

/// Wildcards spend the work budget like every other match: the worst patterns one SEARCH
/// line can hold answer or fail with `too_broad` after bounded work (their release-build
/// timings are in docs/ROBUSTNESS.md, from `pokesearch-stress costs`), and a pattern is
/// made once per query, not per candidate key.
@Suite struct WildcardBudgetTests {
    static let worst: [(label: String, query: String)] = [
        ("ing then *e 2,045 times", "ing" + String(repeating: "*e", count: 2045)),
        ("ara then 4,000 ?", "ara" + String(repeating: "?", count: 4000)),
        ("32 terms like a*e*i*", (0..<32).map { i in "\(["a", "e", "i", "o", "u"][i % 5])*e*i*\(["n", "r", "s", "t"][i % 4])" }
            .joined(separator: " ")),
        ("32 terms a*e*i*", Array(repeating: "a*e*i*", count: 32).joined(separator: " ")),
        ("32 terms *a?e*i", Array(repeating: "*a?e*i", count: 32).joined(separator: " ")),
    ]

    /// Each answers (results within the limit) or is refused as too broad: nothing else,
    /// and within the query length the parser allows.
    @Test(arguments: worst.map(\.query))
    func worstWildcardQueriesAnswerOrAreTooBroad(_ query: String) {
        do {
            let response = try Fixture.engine.search(query)
            #expect(response.results.count <= SearchOptions().limit)
        } catch let error as QueryError {
            #expect(error.description.contains("too broad") || error.description.contains("too long"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// The long patterns are told from the candidates' lengths alone: no key of the index
    /// is anywhere near 2,000 letters, so they find nothing, at once.
    @Test func patternsLongerThanAnyNameFindNothing() throws {
        for query in ["ing" + String(repeating: "*e", count: 2045), "ara" + String(repeating: "?", count: 4000)] {
            #expect(try Fixture.engine.search(query).results.isEmpty)
        }
    }

    /// A pattern that would take more comparisons than the budget allows is refused as too
    /// broad rather than run: 32 different broad terms together.
    @Test func manyBroadPatternsRunOutOfTheBudget() {
        let query = (0..<32).map { "\(["a", "e", "i", "o", "u", "r", "s", "t"][$0 % 8])*\(["a", "e", "i", "o"][$0 / 8])*" }
            .joined(separator: " ")
        #expect { try Fixture.engine.search(query) } throws: { ($0 as? QueryError)?.description.contains("too broad") == true }
    }

    /// The budget changes nothing for an ordinary pattern: `pika*` still finds Pikachu.
    @Test func ordinaryPatternsStillMatch() throws {
        #expect(try Fixture.engine.search("pika*").results.contains { $0.slug == "pikachu" })
        #expect(try Fixture.engine.search("char?zard").results.first?.slug == "charizard")
        #expect(try Fixture.engine.search("*chu").results.contains { $0.slug == "pikachu" })
    }
}
