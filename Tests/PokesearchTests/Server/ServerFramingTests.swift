import BenchmarkSupport
import Testing
@testable import Server

/// Line framing and request parsing, below the socket.
@Suite("Server framing")
struct ServerFramingTests {
    func frames(_ pieces: [String]) -> [Frame] {
        var framer = LineFramer()
        var frames: [Frame] = []
        for piece in pieces {
            Array(piece.utf8).withUnsafeBytes { bytes in
                var position = 0
                while let frame = framer.next(bytes, position: &position) { frames.append(frame) }
            }
        }
        return frames
    }

    @Test func linesSplitAcrossReadsAreJoined() {
        #expect(frames(["PI", "NG\r", "\nSEARCH pika", "chu\n", "GET"]) == [.line("PING"), .line("SEARCH pikachu")])
    }

    @Test func overlongLineIsReportedOnceAndSkipped() {
        let long = String(repeating: "x", count: 5000)
        #expect(frames([long, long, long + "\nPING\n"]) == [.tooLong, .line("PING")])
        #expect(frames([String(repeating: "y", count: 8192) + "\r\n"]) == [.line(String(repeating: "y", count: 8192))])
        #expect(frames([String(repeating: "y", count: 8193) + "\n"]) == [.tooLong])
    }

    @Test func optionsAreSplitOffTheEnd() throws {
        #expect(try RequestParser.parse("search fire  dragon limit(5) LANG(fr) SORT(-hp)")
            == .search(query: "fire  dragon", options: SearchRequestOptions(limit: 5, language: 1, sort: .hp, descending: true)))
        #expect(try RequestParser.parse("COMPLETE mr mi") == .complete(prefix: "mr mi", limit: 8, language: 0, kinds: []))
        #expect(try RequestParser.parse("COMPLETE pikachu ") == .complete(prefix: "pikachu ", limit: 8, language: 0, kinds: []))
        #expect(try RequestParser.parse("COMPLETE thunder KIND(move,item) LIMIT(3)")
            == .complete(prefix: "thunder", limit: 3, language: 0, kinds: [.move, .item]))
        // A name that looks like an option but is not one stays in the query.
        #expect(try RequestParser.parse("SEARCH porygon(z)") == .search(query: "porygon(z)", options: SearchRequestOptions()))
    }

    /// Requests read from the bytes of a plain line (ASCII, or letters of common scripts: the
    /// server's fast path) are read exactly as the same line read as text.
    @Test func plainLinesReadAsText() {
        for byte in UInt8(0)..<0x80 {
            #expect(ASCIIText.isSpace(byte) == Character(Unicode.Scalar(byte)).isWhitespace, "byte \(byte)")
        }
        func both(_ line: String) -> (bytes: Result<Request, ProtocolError>, text: Result<Request, ProtocolError>) {
            let bytes = Array(line.utf8).withUnsafeBytes { buffer in
                Result { () throws(ProtocolError) in try RequestParser.parse(plain: buffer) }
            }
            return (bytes, Result { () throws(ProtocolError) in try RequestParser.parse(line) })
        }
        let pieces = ["PING", "ping", "Complete", "SEARCH", "search", "GET", "STATS", "RELOAD", "QUIT", "FLY", "x",
                      " ", "  ", "\t", "\u{0B}", "\u{0C}", "\r", "\u{1C}", "\u{1F}", "\u{7F}", "pika", "chu", "mr", "mime",
                      "LIMIT(3)", "limit(", "LANG(fr)", "KIND(move,item)", "kind(pet)", "SORT(-hp)", "sort(hp:desc)",
                      "OFFSET(2)", "(", ")", "()", "LIMIT", "porygon(z)", "type:fire", "hp>100", "\"", "25", "move:thunderbolt",
                      String(repeating: "A", count: 40), "ピカチュウ", "ぴか", "피카츄", "皮卡丘", "é", "Flabébé", "ß", "ÿ", "ɏ", "LIMIT(é)"]
        var random = SplitMix64(seed: 20261130)
        for _ in 0..<5000 {
            let count = Int(random.next() % 7) + 1
            let line = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let (bytes, text) = both(line)
            #expect(bytes == text, "\(line.debugDescription)")
        }
        for line in ["", " ", "PING", " PING \t", "COMPLETE pika LIMIT(3)", "COMPLETE pikachu ", "SEARCH fire  dragon limit(5) LANG(fr) SORT(-hp)",
                     "GET  mr-mime  ", "SEARCH porygon(z)", "COMPLETE a LIMIT(3) x", "COMPLETE LIMIT(3)", "search", "PING x",
                     "COMPLETE ピカ LIMIT(3)", "SEARCH 피카츄 LANG(ko)", "GET  flabébé "] {
            #expect(Array(line.utf8).withUnsafeBytes(RequestParser.isPlain), "\(line.debugDescription)")
            let (bytes, text) = both(line)
            #expect(bytes == text, "\(line.debugDescription)")
        }
        // Lines whose bytes would read otherwise than their characters are not plain: Unicode
        // whitespace beyond ASCII, a combining mark joining a space or a parenthesis into one
        // character, a voicing mark, a character outside the common scripts, malformed UTF-8.
        for line in ["COMPLETE\u{3000}pika", "COMPLETE pika\u{A0}LIMIT(3)", "COMPLETE pika \u{301}LIMIT(3)", "SEARCH x LIMIT(\u{301}3)",
                     "COMPLETE か\u{3099}", "COMPLETE 🐉", "COMPLETE ピカ（１０％）"] {
            #expect(!Array(line.utf8).withUnsafeBytes(RequestParser.isPlain), "\(line.debugDescription)")
        }
        for bytes: [UInt8] in [[0x43, 0xC3], [0x43, 0xC3, 0x28], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xFF]] {
            #expect(!bytes.withUnsafeBytes(RequestParser.isPlain), "\(bytes)")
        }
    }
}
