import Corpus
import Foundation
@testable import Folding
@testable import Query
import Testing

@Suite("Query parser")
struct ParserTests {
    func clauses(_ query: String) throws -> [QueryClause] { try QueryParser.parse(query).clauses }

    /// The byte-level path for plain words must give exactly what the general parser gives.
    @Test func plainWordsParseAsTheGeneralParserParses() throws {
        let benchmark = try String(contentsOf: Fixture.root.appendingPathComponent("Benchmarks/queries.tsv"), encoding: .utf8)
        var queries: [String] = benchmark.split(separator: "\n").compactMap { line -> String? in
            line.split(separator: "\t").dropFirst().first.map(String.init)
        }
        let table = try Fixture.corpusTables.table("names")
        let column = try table.index(of: "name", in: "names.tsv")
        let names: [String] = table.rows.prefix(3000).map { $0[column] }
        queries += names
        queries += ["", "   ", "25", "0025", "99999999999999999999999", "pikachu 25", "\tFire\nDragon\r", "a1", "1a", "MEW two",
                    "Mr. Mime", "Farfetch’d", "Farfetch'd", "porygon-z", "Porygon-Z 25", "pokémon ÉCLAIR", "ゲノセクト (アクアカセット)",
                    "피카츄", "皮卡丘 25", "Nidoran♀", "Nidoran♂", "★Sgr6859", "★ ★", "ＰＰ", "Ｏ’ｋ", "Ｏ＇ｋ", "ａ＿ｂ", "ｘ－", "fire, dragon!", "a - b", "x-", "(mega)", "Ｐｉｋａｃｈｕ", "ｐｉｋａ ２５"]
        var fast = 0
        for query in queries {
            guard let words = QueryParser.parseWords(query) else { continue }
            #expect(words == (try QueryParser.parseGeneral(query, lenient: false)), "'\(query)'")
            fast += 1
        }
        #expect(fast > 3_000)
        // Punctuation, accents and the common scripts take the fast path (the count above
        // would hold with plain ASCII alone).
        for plain in ["Mr. Mime", "porygon-z", "pokémon ÉCLAIR", "ゲノセクト (アクアカセット)", "피카츄", "皮卡丘 25", "Nidoran♀",
                      "★Sgr6859", "けいけんあめＸＬ", "ｐｉｋａ ２５", "Tranch’Air", "Farfetch’d"] {
            #expect(QueryParser.parseWords(plain) != nil, "'\(plain)'")
        }
        // Syntax, and scalars whose class needs a lookup, go the general way.
        for syntax in ["type:fire", "-fire", "fire -flying", "\"mr mime\"", "*meleon", "ee?ee", "hp>100", "atk=5", "@fr:dracaufeu",
                       "+25", "fire\u{3000}dragon", "fire\u{85}", "©", "😀", "a\u{7F}b", "a\u{0B}b", "a\u{0C}b"] {
            #expect(QueryParser.parseWords(syntax) == nil, "'\(syntax)'")
        }
    }

    /// What the one-word completion leaves to the folding (`foldedWord` reads only ASCII with
    /// the parser's byte classes) must be what the parser takes as a letter: every scalar of
    /// two or three bytes the folding folds.
    @Test func everyScalarTheFoldingTakesIsALetterToTheParser() {
        var folded = 0
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), Folding.foldByScalar(String(scalar)) != nil else { continue }
            let bytes = Array(String(scalar).utf8)
            let plain = bytes.withUnsafeBufferPointer { QueryParser.plainByte($0, 0, inWord: true) }
            guard case .letter = plain else {
                Issue.record("U+\(String(value, radix: 16)) is folded but not a letter to the parser")
                continue
            }
            folded += 1
        }
        #expect(folded > 20_000)
    }

    @Test func termsPhrasesFiltersNegationWildcardsNumbers() throws {
        let parsed = try QueryParser.parse(#"fire "mr mime" type:dragon -type:flying hp>100 id:1..151 *meleon 25 -eevee @fr:dracaufeu"#)
        let c = parsed.clauses
        #expect(c.count == 10)
        guard case .term(let fire) = c[0].clause, case .term(let phrase) = c[1].clause else { Issue.record("terms"); return }
        #expect(fire.text == "fire" && fire.shape == .word)
        #expect(phrase.text == "mr mime" && phrase.shape == .phrase)
        #expect(c[2].clause == .filter(.type("dragon"), position: 15, part: "type:dragon"))
        #expect(c[3].negated)
        guard case .filter(.number(.hp, .greater(100), _), _, _) = c[4].clause else { Issue.record("hp>100"); return }
        guard case .filter(.id(.range(1, 151)), _, _) = c[5].clause else { Issue.record("id range"); return }
        guard case .term(let wildcard) = c[6].clause, case .wildcard = wildcard.shape else { Issue.record("wildcard"); return }
        #expect(c[7].clause == .id(25, position: 65))
        #expect(c[8].negated)
        guard case .term(let french) = c[9].clause else { Issue.record("@fr:"); return }
        #expect(french.language == Language.index(of: "fr") && french.text == "dracaufeu")
    }

    @Test func kindPrefixesAndLanguage() throws {
        let c = try clauses("move:pound lang:de")
        #expect(c.count == 2)
        #expect(c[0].clause == .filter(.kind(.move), position: 0, part: "move:pound"))
        #expect(try QueryParser.parse("lang:de glurak").language == Language.index(of: "de"))
        #expect(try QueryParser.parse("@ja: pika").language == Language.index(of: "ja"))
    }

    /// A number after `#`, as Pokédexes print one, is that number: an id across kinds, or
    /// after a kind that kind's; anything else after `#` stays a term.
    @Test func aNumberAfterAHashIsTheNumber() throws {
        #expect(try clauses("#25") == [QueryClause(.id(25, position: 1))])
        #expect(try clauses("#0025") == [QueryClause(.id(25, position: 1, written: "0025"))])
        let kind = try clauses("pokemon:#25")
        #expect(kind.count == 2 && kind[1].clause == .id(25, position: 9))
        for notANumber in ["#", "#a", "#-5", "#+5", "#2a", "#99999999999999999999"] {
            let c = try clauses(notANumber)
            if case .id = c.first?.clause { Issue.record("\(notANumber) parsed as an id") }
        }
        #expect(QueryParser.parseWords("#25") == nil)
    }

    /// A word that only says a number follows ("No. 25", "Nr. 25", "N° 25", as the games and
    /// Pokédex sites print a dex number) is dropped before a number, and kept anywhere else.
    @Test func aNumberSignBeforeANumberIsDropped() throws {
        for query in ["No. 25", "no 25", "Nº 25", "Nr. 25", "N° 25"] {
            let c = try clauses(query)
            #expect(c.count == 1 && { if case .id(25, _, _) = c[0].clause { return true } else { return false } }(), "\(query)")
        }
        let filtered = try clauses("No. 25 type:electric")
        #expect(filtered.count == 2 && { if case .id(25, _, _) = filtered[0].clause { return true } else { return false } }())
        for kept in ["No Guard", "no", "No. 25x", "-no 25", "25 no", "no -25"] {
            #expect(try clauses(kept).contains { if case .term(let term) = $0.clause { term.text == "no" } else { false } }, "\(kept)")
        }
    }

    /// The sign run together with the number, one word ("No.25", as Pokédex pages print it),
    /// is the number too, by both parse paths and not taken for a one-word query; a word
    /// that only looks like one is a word.
    @Test func aNumberSignRunTogetherWithANumberIsTheNumber() throws {
        for (query, digitsAt) in [("No.25", 3), ("no.25", 3), ("NR.25", 3), ("N°25", 2), ("Nº25", 2), ("No.025", 3)] {
            let c = try clauses(query)
            #expect(c.count == 1 && { if case .id(25, digitsAt, _) = c[0].clause { return true } else { return false } }(), "\(query) \(c)")
            #expect(QueryParser.parseWords(query).map { $0.clauses == c } ?? true, "\(query)")
            #expect(QueryParser.parseWords(query + " pikachu").map { $0.clauses.first == c.first } ?? true, "\(query) pikachu")
            let bytes = Array(query.utf8)
            let folded = bytes.withUnsafeBufferPointer { input in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * bytes.count) { QueryParser.foldedWord(input, into: $0) }
            }
            #expect(folded == nil, "\(query) is no one-word query")
        }
        for word in ["No.", "No.25x", "No.2.5", "Nox25", "Np.25", "No.-25", "No.#25", "N°", "No25"] {
            #expect(try !clauses(word).contains { if case .id = $0.clause { true } else { false } }, "\(word)")
        }
    }

    @Test func namesThatLookLikeSyntaxAreTerms() throws {
        for name in ["Type:", ":Eevee", "Farfetch'd", "Porygon-Z", "Nidoran♀", "Mr.", "Typ:Null"] {
            let c = try clauses(name)
            #expect(c.count == 1, "\(name)")
            switch c[0].clause {
            case .term, .unknownFilter: break
            default: Issue.record("\(name) parsed as \(c[0].clause)")
            }
        }
    }

    static let malformed: [(String, String)] = [
        ("\"mr mime", "unbalanced quote"),
        ("atk>>x", "not a whole number"),
        ("hp>", "not a whole number"),
        ("hp>abc", "not a whole number"),
        ("id:9..1", "empty range"),
        ("kind:dog", "unknown kind"),
        ("is:shiny", "unknown flag"),
        ("lang:xx", "unknown language"),
        ("@xx:pika", "unknown language"),
        ("pika\u{07}chu", "control character"),
        ("\u{0}", "control character"),
        (String(repeating: "a ", count: 10_000), "longer than"),
        ((0..<40).map { "t\($0)" }.joined(separator: " "), "more than 32 terms"),
    ]

    @Test(arguments: malformed)
    func malformedQueriesAreErrorsThatNameThePart(_ query: String, _ message: String) {
        #expect { try QueryParser.parse(query) } throws: { error in
            guard let error = error as? QueryError else { return false }
            return error.message.contains(message) && error.position >= 0
        }
    }

    static let hostile: [String] = [
        "*a*a*a*", "a*", "*b", "??????", "ab*", "*ab*", "a?b?c?d?e?f?g", "-", "--", "- - -", "\"\"", "\"   \"",
        "type:", "hp:", ":", "::::", "@", "@:", "-type:", "----pikachu", "🐉🔥", "ピ*", "*ュウ", "ﾋﾟｶﾁｭｳ",
        String(repeating: "x", count: 4000), String(repeating: "é", count: 1000), String(repeating: "ピ", count: 1000),
        "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f", "hp>99999999999999999999",
        "id:-5..-1", "weight<0", "\u{202E}chu", "e\u{301}voli", "\u{FEFF}pikachu",
    ]

    /// Hostile input gets results or a QueryError: nothing else, and no crash.
    @Test(arguments: hostile)
    func hostileQueriesAnswerOrFailCleanly(_ query: String) {
        do {
            _ = try Fixture.engine.search(query)
            _ = try Fixture.engine.complete(query)
        } catch is QueryError {
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func wildcardsAloneAreNotTerms() throws {
        #expect(try clauses("unown ?").count == 1)
        #expect(try Fixture.engine.search("unown ?").results.first?.slug == "unown")
        #expect { try Fixture.engine.search("*") } throws: { ($0 as? QueryError)?.message.contains("nothing to search for") == true }
    }

    /// A question mark ending a term with no other wildcard is punctuation: "Legendary
    /// Clue?" finds itself; inside a term, or after another wildcard, it is still one scalar.
    @Test func aQuestionMarkEndingATermIsPunctuation() throws {
        guard case .term(let term) = try clauses("clue?").first?.clause else { Issue.record("not a term"); return }
        #expect(term.shape == .word && term.text == "clue")
        #expect(try Fixture.engine.search("Legendary Clue?").results.first?.slug == "legendary-clue-question")
        guard case .term(let inside) = try clauses("char?zard").first?.clause, case .wildcard = inside.shape else {
            Issue.record("char?zard is no wildcard"); return
        }
        guard case .term(let both) = try clauses("ee?e?").first?.clause, case .wildcard = both.shape else {
            Issue.record("ee?e? is no wildcard"); return
        }
    }

    @Test func errorsNameTheirPosition() throws {
        #expect { try QueryParser.parse("fire atk>>x") } throws: { ($0 as? QueryError)?.position == 5 && ($0 as? QueryError)?.part == "atk>>x" }
        #expect { try Fixture.engine.search("foo:bar") } throws: { ($0 as? QueryError)?.message.contains("unknown filter 'foo:'") == true }
        #expect { try Fixture.engine.search("type:lava") } throws: { ($0 as? QueryError)?.message.contains("unknown type") == true }
        #expect { try Fixture.engine.search("ability:nope") } throws: { ($0 as? QueryError)?.message.contains("unknown ability") == true }
        #expect { try Fixture.engine.search("color:teal") } throws: { ($0 as? QueryError)?.message.contains("unknown colour") == true }
        #expect { try Fixture.engine.search("*a") } throws: { ($0 as? QueryError)?.message.contains("too broad") == true }
        #expect { try Fixture.engine.search("   ") } throws: { ($0 as? QueryError)?.message.contains("nothing to search for") == true }
    }
}
