import Catalog
import Corpus
import Query
import Terminal

/// The interactive mode's state and what each key does to it; `frame` draws it. Searches
/// go to the catalog's engine on every change of the query (the engine ranks, this only
/// shows); pages are `show`'s, rendered by ShowCommand into this screen.
final class InteractiveSession {
    enum Outcome: Equatable {
        case stay
        /// Draw everything again (Ctrl-L).
        case redraw
        /// Stop the process as Ctrl-Z does in a shell.
        case suspend
        /// Leave, printing `picked` on standard output when there is one.
        case quit(picked: String?)
    }

    /// An entity's page being read.
    struct Page {
        var doc: Int
        var lines: [String]
        var top = 0
    }

    let context: CommandContext
    let catalog: Catalog
    let language: Int
    /// Colour as the rest of the CLI decides it (NO_COLOR, TERM), for the terminal drawn on.
    let style: Output
    private(set) var query: QueryLine
    private(set) var kind: Kind?
    private(set) var rows = 24
    private(set) var columns = 80
    /// The selected result (its rank, from 0) and the first shown.
    private(set) var selected = 0
    private(set) var top = 0
    private(set) var results: [SearchResult] = []
    private(set) var total = 0
    private(set) var page: Page?
    /// The bad query's message, while the query is one.
    private var queryError: String?
    /// A line saying what the last key did (a favourite added), until the next key.
    private var message: String?
    private var favourites: Set<Int>
    private var highlighter = MatchHighlighter(query: "")

    init(context: CommandContext, catalog: Catalog, query: String) throws {
        self.context = context
        self.catalog = catalog
        language = try context.arguments.languageIndex(environment: context.environment)
        style = Output(environment: context.environment, isTerminal: true, captures: true)
        self.query = QueryLine(query)
        kind = context.arguments.kinds.first
        favourites = catalog.favouriteDocs()
        search()
    }

    /// Rows of results the screen has room for (below the query and status lines, above the
    /// keys line).
    var listRows: Int { max(1, rows - 3) }

    func resize(rows: Int, columns: Int) {
        self.rows = max(1, rows)
        self.columns = max(1, columns)
        if let page { open(page.doc, keepingTop: page.top) }
        scrollToSelection()
        search()
    }

    // MARK: Keys

    func handle(_ key: Key) -> Outcome {
        message = nil
        switch key {
        case .control("c"): return .quit(picked: nil)
        case .control("z"): return .suspend
        case .control("l"): return .redraw
        case .control("o"):
            guard let doc = page?.doc ?? selectedDoc else { return .stay }
            return .quit(picked: pick(doc))
        case .control("f"):
            if let doc = page?.doc ?? selectedDoc { toggleFavourite(doc) }
            return .stay
        default:
            return page == nil ? handleInList(key) : handleOnPage(key)
        }
    }

    private func handleInList(_ key: Key) -> Outcome {
        let before = query
        switch key {
        case .text(let text): query.insert(text)
        case .backspace: query.deleteBackward()
        case .delete, .control("d"): query.deleteForward()
        case .control("w"), .alt("\u{7F}"): query.deleteWordBackward()
        case .control("u"): query.deleteToStart()
        case .control("k"): query.deleteToEnd()
        case .left, .control("b"): query.moveLeft()
        case .right: query.moveRight()
        case .home, .control("a"): query.moveHome()
        case .end, .control("e"): query.moveEnd()
        case .alt("b"): query.moveWordLeft()
        case .alt("f"): query.moveWordRight()
        case .up, .control("p"): move(by: -1)
        case .down, .control("n"): move(by: 1)
        case .pageUp: move(by: -listRows)
        case .pageDown: move(by: listRows)
        case .tab: cycleKind(forward: true)
        case .backTab: cycleKind(forward: false)
        case .enter:
            if let doc = selectedDoc {
                context.recordHistory(query.text)
                open(doc, keepingTop: 0)
            }
        case .escape:
            if query.text.isEmpty { return .quit(picked: nil) }
            query = QueryLine()
        default: break
        }
        if query.text != before.text {
            selected = 0
            top = 0
            search()
        }
        return .stay
    }

    private func handleOnPage(_ key: Key) -> Outcome {
        guard var page else { return .stay }
        let room = max(1, rows - 1)
        let last = max(0, page.lines.count - room)
        switch key {
        case .escape, .text("q"), .backspace: self.page = nil; return .stay
        case .up, .control("p"): page.top -= 1
        case .down, .control("n"): page.top += 1
        case .pageUp: page.top -= room
        case .pageDown, .text(" "): page.top += room
        case .home: page.top = 0
        case .end: page.top = last
        default: break
        }
        page.top = max(0, min(page.top, last))
        self.page = page
        return .stay
    }

    private var selectedDoc: Int? {
        let position = selected - top
        return results.indices.contains(position) ? results[position].doc : nil
    }

    private func move(by step: Int) {
        guard total > 0 else { return }
        selected = max(0, min(total - 1, selected + step))
        let topBefore = top
        scrollToSelection()
        if top != topBefore { search() }
    }

    private func scrollToSelection() {
        if selected < top { top = selected }
        if selected >= top + listRows { top = selected - listRows + 1 }
        top = max(0, min(top, max(0, total - listRows)))
    }

    private func cycleKind(forward: Bool) {
        let cycle: [Kind?] = [nil] + Kind.allCases.map { $0 }
        let current = cycle.firstIndex(of: kind) ?? 0
        kind = cycle[(current + (forward ? 1 : cycle.count - 1)) % cycle.count]
        selected = 0
        top = 0
        search()
    }

    // MARK: Actions

    /// The shown window of results for the query, ranked by the engine.
    private func search() {
        highlighter = MatchHighlighter(query: query.text)
        queryError = nil
        guard !query.text.allSatisfy(\.isWhitespace) else {
            results = []
            total = 0
            return
        }
        var options = SearchOptions()
        options.limit = min(listRows, SearchOptions.maxLimit)
        options.offset = min(top, SearchOptions.maxOffset)
        options.language = language
        options.kinds = kind.map { [$0] } ?? []
        options.favourites = favourites
        do {
            let response = try catalog.engine.search(query.text, options: options)
            results = Array(response.results)
            total = response.total
        } catch {
            results = []
            total = 0
            queryError = "\(error)"
        }
    }

    /// `show`'s page of `doc` at this screen's width, in lines.
    private func open(_ doc: Int, keepingTop top: Int) {
        var arguments = context.arguments
        arguments.positional = [reference(doc)]
        arguments.json = false
        var environment = context.environment
        environment["COLUMNS"] = String(columns)
        let pageContext = CommandContext(arguments: arguments, environment: environment, output: style, catalog: catalog)
        _ = style.takeText()
        do {
            _ = try ShowCommand.run(pageContext)
            var lines = style.takeText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            page = Page(doc: doc, lines: lines, top: min(top, max(0, lines.count - (rows - 1))))
        } catch {
            _ = style.takeText()
            message = (error as? CLIError)?.message ?? "\(error)"
        }
    }

    /// `kind:slug`, which names exactly one entity.
    private func reference(_ doc: Int) -> String {
        "\(catalog.index.kind(doc).rawValue):\(catalog.index.slug(doc))"
    }

    /// What Ctrl-O prints: the slug, or `kind:slug` when another kind has the same slug (so
    /// that `pokesearch show "$(pokesearch -i)"` shows the one chosen).
    func pick(_ doc: Int) -> String {
        let slug = catalog.index.slug(doc)
        let shared = Kind.allCases.contains { $0 != catalog.index.kind(doc) && catalog.index.doc(kind: $0, slug: slug) != nil }
        return shared ? reference(doc) : slug
    }

    private func toggleFavourite(_ doc: Int) {
        let kind = catalog.index.kind(doc), slug = catalog.index.slug(doc)
        let name = catalog.index.displayName(doc, language: language)
        guard catalog.isWritable else {
            message = "the database \(context.databasePath) is read-only; favourites cannot change"
            return
        }
        do {
            if favourites.contains(doc) {
                _ = try catalog.write { try $0.removeFavourite(kind: kind, slug: slug) }
                favourites.remove(doc)
                message = "removed \(name) from favourites"
            } else {
                _ = try catalog.write { try $0.addFavourite(kind: kind, slug: slug) }
                favourites.insert(doc)
                message = "added \(name) to favourites"
            }
        } catch {
            message = "favourites cannot change: \(error)"
        }
    }

    // MARK: Drawing

    func frame() -> Frame {
        if let page { return pageFrame(page) }
        var lines: [String] = []
        let prompt = "> "
        // The query scrolls sideways to keep the cursor on screen.
        var before = String(query.beforeCursor)
        let room = max(1, columns - DisplayWidth.of(prompt) - 1)
        while DisplayWidth.of(before) > room, !before.isEmpty { before.removeFirst() }
        let shownQuery = before + query.text.dropFirst(query.beforeCursor.count)
        lines.append(style.bold(style.paint(prompt, "36")) + shownQuery)
        lines.append(statusLine())
        lines += resultLines()
        while lines.count < rows - 1 { lines.append("") }
        lines.append(style.dim("↵ page  ↑↓ move  tab kind  ^F favourite  ^O print slug  esc quit"))
        return Frame(rows: lines, cursor: (row: 0, column: DisplayWidth.of(prompt) + DisplayWidth.of(before)))
    }

    private func statusLine() -> String {
        var parts: [String] = []
        if let queryError {
            parts.append(style.paint(queryError, "31"))
        } else if query.text.allSatisfy(\.isWhitespace) {
            parts.append(style.dim("type to search"))
        } else {
            parts.append(style.dim(total == 1 ? "1 found" : "\(total) found"))
        }
        parts.append(style.dim("kind: \(kind?.rawValue ?? "all")"))
        if let message { parts.append(style.paint(message, "33")) }
        return "  " + parts.joined(separator: style.dim(" · "))
    }

    private func resultLines() -> [String] {
        let shown = results.prefix(listRows)
        let numberWidth = shown.map { DisplayWidth.of("#\($0.id)") }.max() ?? 0
        let nameWidth = min(32, shown.map { DisplayWidth.of($0.name) }.max() ?? 0)
        return shown.enumerated().map { offset, result in
            let isSelected = top + offset == selected
            var line = isSelected ? style.bold(style.paint("▌", "36")) : " "
            line += favourites.contains(result.doc) ? style.paint("★", "33") : " "
            line += " " + DisplayWidth.pad("#\(result.id)", to: numberWidth) + "  "
            line += highlighted(result.name, width: nameWidth, selected: isSelected)
            line += "  " + style.dim(DisplayWidth.pad(result.kind.rawValue, to: 7))
            if !result.types.isEmpty { line += "  " + result.types.map { style.paint($0, TypeColors.code($0)) }.joined(separator: "/") }
            return line
        }
    }

    /// The name cut or padded to `width`, the characters the query matched underlined (in
    /// bold on the selected row).
    private func highlighted(_ name: String, width: Int, selected: Bool) -> String {
        let cut = DisplayWidth.truncate(name, to: width)
        // A cut name ends in "…", which matched nothing.
        let kept = cut == name ? cut.count : cut.count - 1
        let lit = highlighter.matched(in: name)
        var text = ""
        var run = ""
        var runLit = false
        func flush() {
            guard !run.isEmpty else { return }
            text += runLit ? style.paint(run, "1;4") : selected ? style.bold(run) : run
            run = ""
        }
        for (position, character) in cut.enumerated() {
            let isLit = position < kept && lit[position]
            if isLit != runLit { flush(); runLit = isLit }
            run.append(character)
        }
        flush()
        return text + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }

    private func pageFrame(_ page: Page) -> Frame {
        let room = max(1, rows - 1)
        var lines = Array(page.lines.dropFirst(page.top).prefix(room))
        while lines.count < room { lines.append("") }
        let end = min(page.lines.count, page.top + room)
        var keys = (favourites.contains(page.doc) ? style.paint("★ ", "33") : "")
            + style.dim("esc back  ↑↓ PgUp PgDn scroll  ^F favourite  ^O print slug  ^C quit  (\(page.top + 1)–\(end) of \(page.lines.count))")
        if let message { keys = style.paint(message, "33") + "  " + keys }
        lines.append(keys)
        return Frame(rows: lines, cursor: nil)
    }
}
