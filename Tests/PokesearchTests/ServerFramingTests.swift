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
}
