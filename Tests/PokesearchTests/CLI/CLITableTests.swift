import Foundation
@testable import PokesearchCLI
import Terminal
import Testing

/// Result tables: columns from the page's content and the terminal's width, aligned by
/// display width, in the display language, with the count in a footer.
@Suite("Result tables")
struct CLITableTests {
    let db = Fixture.database

    func table(_ words: [String], columns: Int) throws -> Run {
        try pokesearch(words + ["--db", db], environment: ["COLUMNS": String(columns)])
    }

    /// Latin, kana and hangul names, mixed kinds and one kind, long names and short.
    @Test(arguments: [40, 80, 120])
    func linesFitTheTerminalAndColumnsAlign(columns: Int) throws {
        for (words, language) in [(["pika"], 0), (["ball", "-n", "30"], 0), (["fire", "-n", "30", "-l", "ja"], 5), (["fire", "-n", "30", "-l", "ko"], 8),
                                  (["kind:item", "ball", "-l", "ja"], 5), (["mega", "-n", "30"], 0), (["thunder", "-l", "ko"], 8)] {
            let run = try table(words, columns: columns)
            #expect(run.status == 0 && !run.lines.isEmpty, "\(words)")
            for line in run.lines { #expect(DisplayWidth.of(line) <= columns, "\(words) at \(columns): '\(line)'") }
            // The kind column starts at one display column on every line that shows it.
            let json = try table(words + ["-j"], columns: columns).lines
            let kinds = json.compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let kind = object["kind"] as? String else { return nil }
                return KindNames.name(.init(rawValue: kind)!, language: language)
            }
            #expect(kinds.count == run.lines.count)
            guard Set(kinds).count > 1 else { continue }
            let starts = zip(run.lines, kinds).compactMap { line, kind in
                line.range(of: "  " + kind, options: .backwards).map { DisplayWidth.of(line[..<$0.lowerBound]) }
            }
            #expect(Set(starts).count == 1, "\(words) at \(columns): kind column at \(starts)\n\(run.stdout)")
        }
    }

    @Test func longNamesAreCutWithAnEllipsis() throws {
        let narrow = try table(["pikachu", "-n", "5"], columns: 40)
        #expect(narrow.stdout.contains("…"), "\(narrow.stdout)")
        let wide = try table(["pikachu", "-n", "5"], columns: 120)
        #expect(!wide.stdout.contains("…") && wide.stdout.contains("Pikachu Rock Star"))
        // Into a pipe without COLUMNS, names are whole whatever the width.
        let piped = try pokesearch(["kind:item", "ball", "-n", "100", "--db", db])
        #expect(!piped.stdout.contains("…") && piped.lines.contains { DisplayWidth.of($0) > 40 })
    }

    /// One kind on the page is no reason to hide the kind: only a query that fixes one is.
    @Test func theKindShowsUnlessTheQueryFixesIt() throws {
        let one = try table(["thunderbolt", "-n", "1"], columns: 80)
        #expect(one.lines.count == 1 && one.lines[0].contains("  move"), "\(one.stdout)")
        for fixed in [["thunderbolt", "-n", "1", "-k", "move"], ["kind:move thunderbolt", "-n", "1"], ["move:thunderbolt", "-n", "1"]] {
            let run = try table(fixed, columns: 80)
            #expect(run.lines.count == 1 && !run.lines[0].contains("  move"), "\(fixed): \(run.stdout)")
        }
    }

    @Test func theSortedByValueIsAColumn() throws {
        let run = try table(["kind:pokemon", "-s", "attack", "--desc", "-n", "3"], columns: 80)
        #expect(run.lines.count == 3 && run.lines[0].contains("Mewtwo") && run.lines[0].contains("  190  "), "\(run.stdout)")
        let heights = try table(["kind:pokemon", "-s", "height", "--desc", "-n", "1"], columns: 80)
        #expect(heights.lines.first?.contains(" m  ") == true, "\(heights.stdout)")
    }

    @Test func typesAndKindsAreInTheDisplayLanguage() throws {
        let french = try table(["charizard", "-n", "1", "-l", "fr"], columns: 80)
        #expect(french.stdout.contains("Feu/Vol") && french.stdout.contains("Pokémon"), "\(french.stdout)")
        let japanese = try table(["thunderbolt", "-n", "1", "-l", "ja"], columns: 80)
        #expect(japanese.stdout.contains("わざ") && japanese.stdout.contains("でんき"), "\(japanese.stdout)")
    }

    @Test func theCountGoesToStderrWhenPipedAndJSONIsUnchanged() throws {
        let page = try table(["type:water", "-n", "20"], columns: 80)
        let total = try #require(page.stderr.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }, "\(page.stderr)")
        #expect(page.stderr.hasPrefix("1–20 of \(total) results (page 1 of \((total + 19) / 20);"), "\(page.stderr)")
        let json = try table(["type:water", "-n", "20", "-j"], columns: 80)
        #expect(json.lines.count == 20 && json.lines.allSatisfy { $0.hasPrefix("{") } && json.stderr == page.stderr)
        let past = try table(["type:water", "-n", "20", "--offset", "100000"], columns: 80)
        #expect(past.status == 1 && past.stderr == "pokesearch: page 5001 is empty: \(total) results\n", "\(past.stderr)")
        let none = try table(["type:water", "-n", "0"], columns: 80)
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.contains("\(total) results"))
        let nothing = try table(["zzzzqqqq"], columns: 80)
        #expect(nothing.status == 1 && nothing.stderr == "pokesearch: nothing found\n")
    }
}

extension Run {
    /// What stderr says besides the count under a table: its `pokesearch: ` lines.
    var messages: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("pokesearch: ") } }
}
