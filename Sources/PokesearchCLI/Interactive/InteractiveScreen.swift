import Terminal

/// What the interactive mode wants on screen: a row of text (with colour escapes) for each
/// screen row, and where the cursor goes.
struct Frame: Equatable {
    var rows: [String]
    /// Zero-based row and column; nil hides the cursor.
    var cursor: (row: Int, column: Int)?

    static func == (a: Frame, b: Frame) -> Bool {
        a.rows == b.rows && a.cursor?.row == b.cursor?.row && a.cursor?.column == b.cursor?.column
    }
}

/// The screen as last drawn, and the bytes that turn it into the next frame: only the rows
/// that changed are written (so nothing flickers), and the whole frame goes out in one write.
struct ScreenPainter {
    private(set) var rows: Int
    private(set) var columns: Int
    /// The rows as drawn; nil when the screen's content is unknown (first frame, resize,
    /// resume), which makes the next frame clear and draw everything.
    private var shown: [String]?
    private var shownCursor: (row: Int, column: Int)?

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// A new size, or a screen someone else drew on: the next frame draws every row.
    mutating func invalidate(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        shown = nil
    }

    /// The bytes to write for `frame` (none when the screen already shows it).
    mutating func paint(_ frame: Frame) -> [UInt8] {
        var out = ""
        let clearFirst = shown == nil
        if clearFirst { out += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        var drawn = [String](repeating: "", count: rows)
        for row in 0..<rows {
            let line = row < frame.rows.count ? StyledText.fit(frame.rows[row], to: columns) : ""
            drawn[row] = line
            if !clearFirst, let shown, shown[row] == line { continue }
            if clearFirst && line.isEmpty { continue }
            out += "\u{1B}[\(row + 1);1H" + line
            // A full row leaves the cursor in the last column, where erasing would take that
            // column's character too.
            if StyledText.width(line) < columns { out += "\u{1B}[0m\u{1B}[K" } else { out += "\u{1B}[0m" }
        }
        let cursor = frame.cursor.map { (row: min($0.row, rows - 1), column: min($0.column, columns - 1)) }
        let cursorMoved = cursor?.row != shownCursor?.row || cursor?.column != shownCursor?.column
        shown = drawn
        guard !out.isEmpty || cursorMoved else { return [] }
        shownCursor = cursor
        // The cursor is hidden while rows are written (it would be seen jumping across them).
        var bytes = "\u{1B}[?25l" + out
        if let cursor { bytes += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h" }
        return Array(bytes.utf8)
    }

    /// Written last in every frame that has a cursor: the end of a frame, for whoever
    /// watches the bytes (the tests counting frames).
    static let frameEnd = "\u{1B}[?25h"
}
