import Catalog
import Corpus
import Foundation
@testable import Query
import Testing

/// JSON text written as bytes: the same text as escaping scalar by scalar, valid JSON.
@Suite struct JSONTextTests {
    /// Escaping one Unicode scalar at a time, as JSONText did before it wrote bytes.
    static func scalarByScalar(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() throws {
        #expect(JSONText.string("Farfetch'd") == #""Farfetch'd""#)
        #expect(JSONText.string("a\"b\\c\nd\re\tf\u{1}g\u{1F}h\u{7F}") == #""a\"b\\c\nd\re\tf\u0001g\u001fh"# + "\u{7F}\"")
        #expect(JSONText.string("Nidoran♀ ピカチュウ 😀 e\u{301}") == "\"Nidoran♀ ピカチュウ 😀 e\u{301}\"")
        #expect(JSONText.string("") == #""""#)
        var random = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "é", "♀", "ピ", "😀", "\u{301}", "\u{2028}", "/"]
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let json = JSONText.string(text)
            #expect(json == Self.scalarByScalar(text))
            let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
            #expect(decoded == [text])
        }
    }

    /// Strings are scanned eight bytes at a time: a byte to escape, or one just outside what
    /// is escaped, at every position of strings of 0 to 20 bytes is written as escaping scalar
    /// by scalar writes it.
    @Test func escapesAreFoundAtEveryPositionOfAnEightByteScan() {
        let fillers = ["a", "é", "ピ"]
        let probes = ["\"", "\\", "\n", "\u{0}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "\u{80}", "ÿ"]
        var mismatches: [String] = []
        for filler in fillers {
            for length in 0...20 {
                for position in 0...length {
                    for probe in probes {
                        var text = String(repeating: filler, count: length)
                        text.insert(contentsOf: probe, at: text.index(text.startIndex, offsetBy: position))
                        if JSONText.string(text) != Self.scalarByScalar(text) { mismatches.append(text.debugDescription) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) strings written otherwise, e.g. \(mismatches.prefix(5))")
    }

    @Test func wholeNumbers() {
        for value in [0, 7, -42, 1000, Int.max, Int.min] {
            let out = ByteBuffer()
            JSONText.appendInt(value, into: out)
            #expect(out.string == String(value))
        }
    }

    @Test func resultsAndSuggestions() {
        let pikachu = SearchResult(doc: 24, kind: .pokemon, id: 25, slug: "pikachu", name: "Pika\"chu", score: 1000,
                                   types: ["electric"], explanation: [])
        #expect(JSONText.result(pikachu)
            == #"{"kind":"pokemon","id":25,"slug":"pikachu","name":"Pika\"chu","score":1000,"types":["electric"]}"#)
        let item = SearchResult(doc: 3000, kind: .item, id: -1, slug: "x", name: "", score: 0, types: [], explanation: [])
        #expect(JSONText.result(item) == #"{"kind":"item","id":-1,"slug":"x","name":"","score":0}"#)
        let suggestion = Suggestion(text: "Mr. Mime", kind: .pokemon, id: 122, slug: "mr-mime")
        #expect(JSONText.suggestion(suggestion) == #"{"text":"Mr. Mime","kind":"pokemon","id":122,"slug":"mr-mime"}"#)
        for kind in Kind.allCases {
            #expect(JSONText.suggestion(Suggestion(text: "t", kind: kind, id: 1, slug: "s"))
                == #"{"text":"t","kind":"\#(kind.rawValue)","id":1,"slug":"s"}"#)
        }
        let out = ByteBuffer()
        out.append("x")
        JSONText.appendSuggestion(suggestion, into: out)
        #expect(out.string == "x" + JSONText.suggestion(suggestion))
    }

    /// The server writes results and suggestions from the index's bytes; `--json` writes the
    /// results read as strings. The two must be the same text, in every display language
    /// (a name missing in one falls back to English, then the slug), with explanations.
    @Test(arguments: ["fr", "en", "ja", "de", "ko", "zh-hans"])
    func resultsWrittenFromTheIndexAreTheResultsReadAsStrings(language code: String) throws {
        let language = try #require(Language.codes.firstIndex(of: code))
        var options = SearchOptions()
        options.language = language
        options.limit = 50
        for query in ["pika", "fire dragon", "ball", "flamme", "ピカ", "mega", "type:ghost", "metronome", "hp>150"] {
            for explain in [false, true] {
                options.explain = explain
                let results = try Fixture.engine.search(query, options: options).results
                #expect(!results.isEmpty, "\(query)")
                let out = ByteBuffer()
                JSONText.appendResults(results, into: out)
                #expect(out.string == results.map(JSONText.result).joined(separator: ","), "\(query) in \(code)")
                for i in results.indices {
                    // Filters explain nothing: only terms do.
                    #expect(results[i].explanation.isEmpty == (!explain || query.contains(where: { ":>".contains($0) })))
                }
            }
            let suggestions = try Fixture.engine.complete(query, limit: 20, language: language)
            let out = ByteBuffer()
            JSONText.appendSuggestions(suggestions, into: out)
            #expect(out.string == suggestions.map(JSONText.suggestion).joined(separator: ","), "\(query) in \(code)")
        }
    }

    @Test func byteBufferGrowsAndDropsWhatWasSent() {
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for i in 0..<1000 {
            let piece = Array(String(i).utf8) + [10]
            piece.withUnsafeBytes { buffer.append($0) }
            expected += piece
        }
        buffer.append(UInt8(ascii: "!"))
        buffer.appendUTF8("é")
        expected += Array("!é".utf8)
        #expect(buffer.bytes == expected)
        buffer.removeFirst(1000)
        #expect(buffer.bytes == Array(expected.dropFirst(1000)))
        let room = buffer.capacity
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.capacity == room)
        buffer.append("again")
        #expect(buffer.string == "again")
        buffer.removeAll(keepingCapacity: 64)
        #expect(buffer.isEmpty)
        #expect(buffer.capacity == 64)
        buffer.append("ok")
        #expect(buffer.string == "ok")
    }
}
