import Testing
import Terminal

@Suite struct DisplayWidthTests {
    @Test func latinKanaHangulAndMarksHaveTheirColumns() {
        #expect(DisplayWidth.of("Pikachu") == 7)
        #expect(DisplayWidth.of("ピカチュウ") == 10)
        #expect(DisplayWidth.of("피카츄") == 6)
        #expect(DisplayWidth.of("皮卡丘") == 6)
        #expect(DisplayWidth.of("Fl\u{61}\u{301}bébé") == 7)   // a combining acute takes no column
        #expect(DisplayWidth.of("ＡＢ") == 4)
    }

    @Test func truncationKeepsWithinTheWidthAndMarksTheCut() {
        #expect(DisplayWidth.truncate("Pikachu", to: 7) == "Pikachu")
        #expect(DisplayWidth.truncate("Pikachu", to: 5) == "Pika…")
        let cut = DisplayWidth.truncate("ピカチュウ", to: 6)
        #expect(cut == "ピカ…")
        #expect(DisplayWidth.of(cut) <= 6)
        #expect(DisplayWidth.of(DisplayWidth.pad("피카츄", to: 9)) == 9)
    }

    @Test func wrappingBreaksAtSpacesAndNeverExceedsTheWidth() {
        let text = "Inflicts regular damage. Has a 10% chance to paralyze the target. ピカチュウピカチュウピカチュウ"
        for width in [8, 20, 40] {
            let lines = DisplayWidth.wrap(text, to: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
            #expect(lines.joined(separator: " ").replacingOccurrences(of: " ", with: "") == text.replacingOccurrences(of: " ", with: ""))
        }
        #expect(DisplayWidth.wrap("a b c", to: 3) == ["a b", "c"])
    }
}
