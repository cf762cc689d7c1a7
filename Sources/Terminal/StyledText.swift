/// Text that may hold ANSI escape sequences (colours, bold: `ESC [ … m`), measured and cut
/// by what shows on screen: the escapes take no column and are kept whole.
public enum StyledText {
    /// Columns the text takes on screen.
    public static func width(_ text: String) -> Int {
        var width = 0
        forEachPiece(of: text) { piece, isEscape in
            if !isEscape { width += DisplayWidth.of(piece) }
            return true
        }
        return width
    }

    /// The text cut to at most `width` columns (no "…": a screen row ends where the screen
    /// does), its escapes kept, and a reset added when one was cut off after a style began.
    /// A wide character that would straddle the last column is left out. Control characters
    /// other than the escapes are left out too (a tab becomes a space): they would move the
    /// cursor where the screen does not expect it.
    public static func fit(_ text: String, to width: Int) -> String {
        var result = ""
        var used = 0
        var styled = false
        var cut = false
        forEachPiece(of: text) { piece, isEscape in
            if isEscape {
                result += piece
                styled = true
                return true
            }
            if piece == "\t" {
                guard used < width else { cut = true; return false }
                result += " "
                used += 1
                return true
            }
            if piece.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) { return true }
            let columns = DisplayWidth.of(piece)
            guard used + columns <= width else { cut = true; return false }
            result += piece
            used += columns
            return true
        }
        return cut && styled ? result + "\u{1B}[0m" : result
    }

    /// Calls `body` with each escape sequence and each other character of `text`, in order,
    /// until it returns false. An escape is CSI (`ESC [` parameters, a final byte from `@`
    /// to `~`), OSC (`ESC ]` up to BEL or `ESC \`), or ESC and one character.
    static func forEachPiece(of text: String, _ body: (String, _ isEscape: Bool) -> Bool) {
        var characters = text[...]
        while let first = characters.first {
            guard first == "\u{1B}" else {
                guard body(String(first), false) else { return }
                characters = characters.dropFirst()
                continue
            }
            var end = characters.index(after: characters.startIndex)
            if end < characters.endIndex {
                let introducer = characters[end]
                end = characters.index(after: end)
                if introducer == "[" {
                    while end < characters.endIndex, !isFinalByte(characters[end]) { end = characters.index(after: end) }
                    if end < characters.endIndex { end = characters.index(after: end) }
                } else if introducer == "]" {
                    while end < characters.endIndex, characters[end] != "\u{07}", characters[end] != "\u{1B}" { end = characters.index(after: end) }
                    if end < characters.endIndex {
                        let terminator = characters[end]
                        end = characters.index(after: end)
                        if terminator == "\u{1B}", end < characters.endIndex, characters[end] == "\\" { end = characters.index(after: end) }
                    }
                }
            }
            guard body(String(characters[..<end]), true) else { return }
            characters = characters[end...]
        }
    }

    private static func isFinalByte(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        return (0x40...0x7E).contains(scalar.value)
    }
}
