import Foundation
@testable import Query
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

    static func literal(_ text: String) -> WildcardPiece { .literal(text.unicodeScalars.map(\.value)) }

    static func glob(_ pattern: Glob, matches text: String, steps: inout Int) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { pattern.matches($0, steps: &steps) }
    }

    /// Matching counts its steps, stops when they run out, and tells a text too short for
    /// the pattern without any: the budget bounds the work whatever the pattern.
    @Test func globCountsItsWorkAndStopsWhenItRunsOut() {
        let backtracking = Glob([.anyRun, Self.literal("a"), .anyRun, Self.literal("a"), .anyRun, Self.literal("a"), .anyRun, Self.literal("b")])
        let text = String(repeating: "a", count: 40)
        var steps = 1_000_000
        #expect(!Self.glob(backtracking, matches: text, steps: &steps))
        #expect(steps < 1_000_000 && 1_000_000 - steps <= 40 * 8 + 40)
        var few = 20
        #expect(!Self.glob(backtracking, matches: text + "b", steps: &few) && few < 0)
        var plenty = 1_000_000
        #expect(Self.glob(backtracking, matches: text + "b", steps: &plenty))
        let long = Glob([Self.literal("ing")] + Array(repeating: [.anyRun, Self.literal("e")], count: 2045).flatMap { $0 })
        var untouched = 1_000_000
        #expect(!Self.glob(long, matches: "ingredient engine evergreen", steps: &untouched) && untouched == 1_000_000)
    }

    /// `?` stands for one scalar, however many bytes it takes.
    @Test func questionMarkIsOneScalar() {
        var steps = 1_000
        #expect(Self.glob(Glob([Self.literal("pok"), .anyOne, Self.literal("mon")]), matches: "pokémon", steps: &steps))
        #expect(Self.glob(Glob([.anyOne, .anyOne, .anyOne]), matches: "ピカチ", steps: &steps))
        #expect(!Self.glob(Glob([.anyOne, .anyOne]), matches: "ピカチ", steps: &steps))
        #expect(Self.glob(Glob([.anyRun, Self.literal("チュウ")]), matches: "ピカチュウ", steps: &steps))
    }

    /// The budget changes nothing for an ordinary pattern: `pika*` still finds Pikachu.
    @Test func ordinaryPatternsStillMatch() throws {
        #expect(try Fixture.engine.search("pika*").results.contains { $0.slug == "pikachu" })
        #expect(try Fixture.engine.search("char?zard").results.first?.slug == "charizard")
        #expect(try Fixture.engine.search("*chu").results.contains { $0.slug == "pikachu" })
    }
}
