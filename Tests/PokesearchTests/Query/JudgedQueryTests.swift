import Corpus
import Foundation
import Query
import Testing

/// The judged query set (Judged/queries.tsv): queries written by hand from the user's side,
/// each with the entity it must find and how high, run through the real engine over the
/// bundled corpus. Judged/known-failures.tsv lists the ones the engine does not pass yet,
/// each with what will fix it: a query failing that is not listed fails the test; a listed
/// one that passes is printed, so that the list shrinks.
@Suite("Judged queries")
struct JudgedQueryTests {
    struct Query: Sendable {
        var text: String
        var expected: String
        var rule: String
        var category: String
        var key: String { "\(text)\t\(expected)" }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Judged")

    /// The data lines of a TSV file of the set, split at TABs. A comment line starts with "# "
    /// (a query may start with "#": "#25").
    static func rows(_ name: String) throws -> [[String]] {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("# ") && !$0.allSatisfy(\.isWhitespace) }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    static func queries() throws -> [Query] {
        try rows("queries.tsv").map { Query(text: $0[0], expected: $0[1], rule: $0[2], category: $0[3]) }
    }

    /// "query TAB expected" → what will fix it.
    static func knownFailures() throws -> [String: String] {
        Dictionary(try rows("known-failures.tsv").map { ("\($0[0])\t\($0[1])", $0[2]) }, uniquingKeysWith: { a, _ in a })
    }

    /// Why `query` fails its rule, or nil when it passes.
    static func failure(of query: Query) -> String? {
        var options = SearchOptions()
        options.limit = 10
        let found: [String]
        do {
            found = try Fixture.engine.search(query.text, options: options).results.map { "\($0.kind.rawValue):\($0.slug)" }
        } catch {
            return "error: \(error)"
        }
        let position = found.firstIndex(of: query.expected)
        let passes: Bool
        switch query.rule {
        case "first": passes = position == 0
        case "top3": passes = position.map { $0 < 3 } ?? false
        case "top10": passes = position != nil
        case "nothing": passes = found.isEmpty
        default: return "unknown rule '\(query.rule)'"
        }
        return passes ? nil : "got \(found.prefix(3).joined(separator: ", "))\(found.isEmpty ? "nothing" : "")"
    }

    @Test func theSetIsLargeAndWellFormed() throws {
        let queries = try Self.queries()
        #expect(queries.count >= 400)
        let index = Fixture.engine.index
        for query in queries where query.rule != "nothing" {
            // An expected entity that does not exist is a mistake in the set, never a known failure.
            let parts = query.expected.split(separator: ":", maxSplits: 1).map(String.init)
            let exists = parts.count == 2 && Kind(rawValue: parts[0]).flatMap { index.doc(kind: $0, slug: parts[1]) } != nil
            #expect(exists, "\(query.text): no entity \(query.expected)")
        }
        let keys = Set(queries.map(\.key))
        for key in try Self.knownFailures().keys { #expect(keys.contains(key), "known failure not in the set: \(key)") }
    }

    @Test func everyQueryPassesOrIsAKnownFailure() throws {
        let queries = try Self.queries()
        let known = try Self.knownFailures()
        var nowPassing: [String] = []
        var failing: [String: (total: Int, failed: Int)] = [:]
        for query in queries {
            let failure = Self.failure(of: query)
            failing[query.category, default: (0, 0)].total += 1
            if failure != nil { failing[query.category, default: (0, 0)].failed += 1 }
            switch (failure, known[query.key]) {
            case (let reason?, nil):
                Issue.record("\(query.text) → \(query.expected) (\(query.rule)): \(reason)")
            case (nil, _?):
                nowPassing.append(query.key.replacingOccurrences(of: "\t", with: " → "))
            default:
                break
            }
        }
        for (category, counts) in failing.sorted(by: { $0.key < $1.key }) {
            print("judged \(category): \(counts.total - counts.failed)/\(counts.total) pass")
        }
        if !nowPassing.isEmpty { print("known failures that now pass (remove them from known-failures.tsv): \(nowPassing.joined(separator: "; "))") }
    }
}
