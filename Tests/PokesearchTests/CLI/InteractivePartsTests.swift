import Catalog
import Corpus
import Foundation
@testable import PokesearchCLI
import Query
import Terminal
import Testing

/// The interactive mode's parts (keys, the query line, the screen), without a terminal.
@Suite("Interactive mode: keys, query line, screen")
struct InteractivePartsTests {
    @Test func keysDecodeFromTheTerminalsBytes() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("pika".utf8)) == [.text("pika")])
        #expect(decoder.feed([0x7F, 0x17, 0x15, 0x06, 0x0F, 0x03, 0x09, 0x0D]) ==
                [.backspace, .control("w"), .control("u"), .control("f"), .control("o"), .control("c"), .tab, .enter])
        #expect(decoder.feed(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[Z".utf8)) ==
                [.up, .down, .right, .left, .home, .end, .pageUp, .pageDown, .home, .end, .delete, .backTab])
        // A modifier does not change which key it is (Ctrl-Right is still Right here).
        #expect(decoder.feed(Array("\u{1B}[1;5C".utf8)) == [.right])
        #expect(decoder.feed(Array("\u{1B}b".utf8)) == [.alt("b")])
    }

    @Test func aLoneEscapeWaitsForWhatFollowsAndCharactersMayArriveInPieces() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty && decoder.hasPending)
        #expect(decoder.feed(Array("[B".utf8)) == [.down] && !decoder.hasPending, "the rest of a cursor key came later")
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flushPending() == [.escape] && !decoder.hasPending, "nothing followed: the Escape key")
        let kana = Array("ピカ".utf8)
        #expect(decoder.feed(kana.prefix(2)).isEmpty, "half a character")
        #expect(decoder.feed(kana.dropFirst(2)) == [.text("ピカ")])
        #expect(decoder.feed([0xFF, 0x41]) == [.text("A")], "a byte that starts nothing is skipped")
    }

    @Test func theQueryLineEditsAsReadlineDoes() {
        var line = QueryLine("fire dragon")
        line.deleteWordBackward()
        #expect(line.text == "fire " && line.cursor == 5)
        line.insert("ピカ")
        line.moveLeft()
        line.moveLeft()
        line.insert("x")
        #expect(line.text == "fire xピカ" && line.cursor == 6)
        line.moveHome()
        line.deleteForward()
        #expect(line.text == "ire xピカ" && line.cursor == 0)
        line.moveEnd()
        line.deleteBackward()
        #expect(line.text == "ire xピ")
        line.moveWordLeft()
        #expect(line.cursor == 4)
        line.deleteToStart()
        #expect(line.text == "xピ" && line.cursor == 0)
        line.moveRight()
        line.deleteToEnd()
        #expect(line.text == "x" && line.cursor == 1)
    }

    @Test func aFrameWritesOnlyTheRowsThatChanged() {
        var painter = ScreenPainter(rows: 4, columns: 10)
        let first = String(decoding: painter.paint(Frame(rows: ["> pi", "a", "b"], cursor: (0, 4))), as: UTF8.self)
        #expect(first.contains("\u{1B}[2J") && first.contains("a") && first.hasSuffix("\u{1B}[1;5H\u{1B}[?25h"))
        #expect(painter.paint(Frame(rows: ["> pi", "a", "b"], cursor: (0, 4))).isEmpty, "nothing changed: nothing written")
        let second = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "c"], cursor: (0, 5))), as: UTF8.self)
        #expect(second.contains("\u{1B}[1;1H> pik") && second.contains("\u{1B}[3;1Hc") && !second.contains("\u{1B}[2;1H"))
        #expect(!second.contains("\u{1B}[2J"))
        // A row as wide as the screen is not erased after (that would take its last column).
        let full = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "0123456789xyz"], cursor: (0, 5))), as: UTF8.self)
        #expect(full.contains("0123456789\u{1B}[0m") && !full.contains("0123456789\u{1B}[0m\u{1B}[K") && !full.contains("x"))
        painter.invalidate(rows: 2, columns: 10)
        let resized = String(decoding: painter.paint(Frame(rows: ["> pik", "a", "c"], cursor: (0, 5))), as: UTF8.self)
        #expect(resized.contains("\u{1B}[2J") && !resized.contains("\u{1B}[3;1H"), "two rows now")
    }

    @Test func styledTextIsMeasuredAndCutByWhatShows() {
        let red = "\u{1B}[31mリザード\u{1B}[0m x"
        #expect(StyledText.width(red) == 10)
        #expect(StyledText.fit(red, to: 10) == red)
        #expect(StyledText.fit(red, to: 5) == "\u{1B}[31mリザ\u{1B}[0m", "a wide character does not straddle the edge; the colour is reset")
        #expect(StyledText.fit("a\tb\u{07}c", to: 10) == "a bc", "a tab is a space, a bell nothing")
        #expect(StyledText.width("\u{1B}]8;;https://pokeapi.co\u{1B}\\link\u{1B}]8;;\u{07}") == 4)
    }

    @Test func theMatchedPartOfANameIsLit() {
        func lit(_ query: String, _ name: String) -> String {
            let flags = MatchHighlighter(query: query).matched(in: name)
            return String(zip(name, flags).map { $1 ? $0 : "." })
        }
        #expect(lit("pika", "Pikachu") == "Pika...")
        #expect(lit("chu", "Pikachu") == "....chu")
        #expect(lit("mrmime", "Mr. Mime") == "Mr. Mime")
        #expect(lit("pokeball", "Poké Ball") == "Poké Ball")
        #expect(lit("ball type:water", "Dive Ball") == ".....Ball", "filters light nothing")
        #expect(lit("-ball fire", "Fire Stone") == "Fire......")
        #expect(lit("*meleon", "Charmeleon") == "....meleon")
        #expect(lit("zzz", "Pikachu") == ".......")
        // A word's start is preferred to an earlier place inside a word.
        #expect(lit("ma", "Mega Mawile") == ".....Ma....")
    }
}
