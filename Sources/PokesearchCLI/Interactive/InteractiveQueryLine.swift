/// The query being typed and the cursor in it, edited as readline edits a line. The cursor
/// counts characters (grapheme clusters), so an accented or wide character is one step.
struct QueryLine: Equatable {
    private(set) var text: String
    /// Characters before the cursor.
    private(set) var cursor: Int

    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    private var cursorIndex: String.Index { text.index(text.startIndex, offsetBy: cursor) }

    /// The text before the cursor (what the cursor's column is measured on).
    var beforeCursor: Substring { text[..<cursorIndex] }

    mutating func insert(_ typed: String) {
        let before = String(text[..<cursorIndex]) + typed
        text = before + text[cursorIndex...]
        cursor = min(before.count, text.count)
    }

    /// Backspace: the character before the cursor.
    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        remove(from: cursor - 1, to: cursor)
    }

    /// Delete: the character under the cursor.
    mutating func deleteForward() {
        guard cursor < text.count else { return }
        remove(from: cursor, to: cursor + 1)
    }

    /// Ctrl-W: the word before the cursor and the spaces after it (readline's
    /// unix-word-rubout: words are what white space separates).
    mutating func deleteWordBackward() {
        remove(from: wordStart(before: cursor), to: cursor)
    }

    /// Ctrl-U: everything before the cursor.
    mutating func deleteToStart() { remove(from: 0, to: cursor) }

    /// Ctrl-K: everything from the cursor on.
    mutating func deleteToEnd() { remove(from: cursor, to: text.count) }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(text.count, cursor + 1) }
    mutating func moveHome() { cursor = 0 }
    mutating func moveEnd() { cursor = text.count }
    mutating func moveWordLeft() { cursor = wordStart(before: cursor) }

    mutating func moveWordRight() {
        let characters = Array(text)
        var position = cursor
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        while position < characters.count, !characters[position].isWhitespace { position += 1 }
        cursor = position
    }

    private func wordStart(before position: Int) -> Int {
        let characters = Array(text)
        var start = position
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }

    private mutating func remove(from start: Int, to end: Int) {
        guard start < end else { return }
        let characters = Array(text)
        text = String(characters[..<start]) + String(characters[end...])
        cursor = start
    }
}
