import Catalog
import Corpus
import Foundation
import Query
import Server
import Terminal

/// `pokesearch QUERY...`: the query language over the index, as a table or JSON Lines.
enum SearchCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let query = context.arguments.positional.joined(separator: " ")
        // White space as the query parser reads it (Unicode's), without Foundation's
        // CharacterSet: bridging to NSString was a noticeable part of a one-shot search.
        guard !query.allSatisfy(\.isWhitespace) else {
            throw CLIError.usage("nothing to search for; try `pokesearch \"fire dragon\"` or see `pokesearch --help`")
        }
        var options = try context.searchOptions()
        var page: ResultPage
        // Explanations come only from the local engine.
        if !options.explain, let served = try askServer(query, options, context) {
            page = served
        } else {
            let catalog = try context.catalog()
            if QueryParser.filtersFavourites(query) { options.favourites = catalog.favouriteDocs() }
            options.database = try catalog.databaseFilters()
            let response = try catalog.engine.search(query, options: options)
            if response.total == 0, let impossible = catalog.engine.impossibleFilter(query) { throw impossible }
            page = ResultPage(Array(response.results), total: response.total)
            page.sortValues = catalog.engine.sortValues(of: response.results, sort: options.sort)
            // (English names are the slugs, as the server leaves them.)
            if options.language != 0 { page.typeNames = catalog.engine.typeNames(response.results.lazy.flatMap(\.types), language: options.language) }
        }
        page.query = query
        page.sort = options.sort
        let status = ResultPrinter.print(page, context: context)
        // The answer first: recording it waits for the database's writer (an ingest holds
        // it for seconds) and for the disk.
        context.output.flush()
        context.recordHistory(query)
        return status
    }

    /// The same page from a running server, or nil to search locally.
    static func askServer(_ query: String, _ options: SearchOptions, _ context: CommandContext) throws -> ResultPage? {
        let request = Request.search(query: query, options: SearchRequestOptions(
            limit: options.limit, offset: options.offset, language: options.language, kinds: options.kinds,
            sort: options.sort, descending: options.descending))
        guard let answer = try ServerClient.ask(request, elementsKey: "results", context: context),
              let total = answer.fields["total"] as? Int else { return nil }
        var page = ResultPage(rows: [], total: total)
        for element in answer.elements {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(element.utf8))) as? [String: Any],
                  let kind = (object["kind"] as? String).flatMap(Kind.init(rawValue:)),
                  let id = object["id"] as? Int, let name = object["name"] as? String else { return nil }
            page.rows.append(ResultRow(kind: kind, id: id, dex: object["dex"] as? Int, slug: object["slug"] as? String ?? "", name: name,
                                       types: object["types"] as? [String] ?? [], json: element, explanation: []))
        }
        page.sortValues = (answer.fields["sort_values"] as? [Any]).map { $0.map { $0 as? Int } }
        page.typeNames = answer.fields["type_names"] as? [String: String] ?? [:]
        return page
    }
}

/// One result as the printer needs it, from the local engine or from the server.
struct ResultRow {
    var kind: Kind
    var id: Int
    /// A Pokémon's or form's national dex number, which the table shows it by.
    var dex: Int?
    var slug: String
    var name: String
    var types: [String]
    /// The `--json` line: `JSONText.result`, as the server also sends it.
    var json: String
    var explanation: [String]

    init(kind: Kind, id: Int, dex: Int?, slug: String, name: String, types: [String], json: String, explanation: [String]) {
        self.kind = kind
        self.id = id
        self.dex = dex
        self.slug = slug
        self.name = name
        self.types = types
        self.json = json
        self.explanation = explanation
    }

    init(_ result: SearchResult) {
        self.init(kind: result.kind, id: result.id, dex: result.dex, slug: result.slug, name: result.name, types: result.types,
                  json: JSONText.result(result), explanation: result.explanationLines)
    }
}

/// A window of results, how many matched in all, and what the table shows beside them.
struct ResultPage {
    var rows: [ResultRow]
    var total: Int
    /// The query that found them (nil for lists that are no search: favourites, random).
    var query: String?
    /// Each row's value of the field sorted by, when sorted by a value.
    var sortValues: [Int?]?
    var sort = SortField.relevance
    /// Type names in the display language, by slug (slugs stand for themselves).
    var typeNames: [String: String] = [:]

    init(rows: [ResultRow], total: Int) {
        self.rows = rows
        self.total = total
    }

    init(_ results: [SearchResult], total: Int) {
        self.init(rows: results.map(ResultRow.init), total: total)
    }
}

/// Prints search results: JSON Lines with --json, else a table whose columns fit the
/// terminal. The count goes in a footer (on stderr when stdout is not a terminal).
enum ResultPrinter {
    /// Prints `page`; returns the exit status: 0 when it showed results (or, with
    /// `--limit 0`, counted some), 1 when nothing matched or the page is past the end.
    @discardableResult
    static func print(_ page: ResultPage, context: CommandContext) -> Int32 {
        let output = context.output
        let arguments = context.arguments
        let limit = arguments.limit ?? 20
        if page.rows.isEmpty {
            if page.total == 0 {
                if !arguments.json { Output.error("nothing found") }
                return 1
            }
            let count = counted(page.total)
            if limit == 0 {
                footer("\(count) (--limit 0 shows none)", output: output)
                return 0
            }
            Output.error("page \(arguments.offset / max(limit, 1) + 1) is empty: \(count)")
            return 1
        }
        if !arguments.json {
            let language = (try? arguments.languageIndex(environment: context.environment)) ?? 0
            var typeNames = page.typeNames
            if typeNames.isEmpty && language != 0, let engine = context.openedCatalog?.engine {
                typeNames = engine.typeNames(page.rows.flatMap(\.types), language: language)
            }
            let fixedKind = arguments.kinds.count == 1 || (page.query.flatMap(QueryParser.fixedKind) != nil)
            // Into a pipe or a file, names are not cut (unless COLUMNS asks for a width).
            let width = output.isTerminal || context.environment["COLUMNS"] != nil ? TerminalSize.columns(environment: context.environment) : Int.max / 4
            let table = ResultTable(page: page, typeNames: typeNames, showKind: !fixedKind, language: language, width: width)
            for line in table.lines(output) { output.line(line) }
        } else {
            for row in page.rows { output.line(row.json) }
        }
        if page.query != nil {
            var text = page.rows.count == page.total ? counted(page.total)
                : "\(arguments.offset + 1)–\(arguments.offset + page.rows.count) of \(page.total) results"
            if page.total > page.rows.count, limit > 0 {
                text += " (page \(arguments.offset / limit + 1) of \((page.total + limit - 1) / limit); --offset and --limit page through them)"
            }
            footer(text, output: output)
        }
        return 0
    }

    /// "1 result", "96 results".
    static func counted(_ count: Int) -> String { count == 1 ? "1 result" : "\(count) results" }

    /// The count under a table: dimmed on the terminal, else on stderr (where a pipe's
    /// reader does not take it for a result).
    static func footer(_ text: String, output: Output) {
        if output.isTerminal {
            output.line(output.dim(text))
        } else {
            output.flush()
            let line = text + "\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Terminal columns a string takes (wide for CJK and full-width forms).
    static func displayWidth(_ s: String) -> Int { DisplayWidth.of(s) }

    static func pad(_ s: String, _ width: Int) -> String { DisplayWidth.of(s) >= width ? s : DisplayWidth.pad(s, to: width) }
}

/// The columns of a results table: number (a Pokémon's or form's national dex number, else
/// the id: `#6 Mega Charizard X`), name, kind (when several kinds may show),
/// the sorted-by value, types (and a slug where two rows share a name), each as wide as
/// the page needs, the name cut with "…" when the terminal is too narrow for it.
struct ResultTable {
    let page: ResultPage
    let typeNames: [String: String]
    let showKind: Bool
    let language: Int
    let width: Int

    func lines(_ output: Output) -> [String] {
        let rows = page.rows
        let numbers = rows.map { "#\($0.dex ?? $0.id)" }
        let kinds = rows.map { KindNames.name($0.kind, language: language) }
        let values: [String]? = page.sortValues.map { values in
            rows.indices.map { i in i < values.count ? values[i].map(page.sort.formatted) ?? "—" : "—" }
        }
        // A name the page shows for two things of a kind ("Poké Ball": the standard ball and
        // the Hisuian one) is followed by each one's slug, which tells them apart.
        var shown: [String: Int] = [:]
        for row in rows { shown["\(row.kind.rawValue):\(row.name)", default: 0] += 1 }
        let tails = rows.map { row in
            (types: row.types.map { typeNames[$0] ?? $0 }, slug: shown["\(row.kind.rawValue):\(row.name)", default: 0] > 1 ? row.slug : nil)
        }
        func tailText(_ tail: (types: [String], slug: String?)) -> String {
            ([tail.types.joined(separator: "/")].filter { !$0.isEmpty } + [tail.slug].compactMap { $0 }).joined(separator: "  ")
        }
        let numberWidth = numbers.map(DisplayWidth.of).max() ?? 0
        let kindWidth = showKind ? kinds.map(DisplayWidth.of).max() ?? 0 : 0
        let valueWidth = values?.map(DisplayWidth.of).max() ?? 0
        let tailWidth = tails.map { DisplayWidth.of(tailText($0)) }.max() ?? 0
        let fixed = numberWidth + (showKind ? 2 + kindWidth : 0) + (values != nil ? 2 + valueWidth : 0)
        let naturalName = rows.map { DisplayWidth.of($0.name) }.max() ?? 0
        // The name gives way first (down to a few columns), then the types.
        let nameWidth = max(min(naturalName, width - fixed - 2 - (tailWidth > 0 ? 2 + tailWidth : 0)), min(naturalName, 6))
        let tailRoom = max(0, width - fixed - 2 - nameWidth - 2)
        return rows.indices.map { i in
            var line = DisplayWidth.pad(numbers[i], to: numberWidth) + "  " + output.bold(DisplayWidth.pad(rows[i].name, to: nameWidth))
            if showKind { line += "  " + output.dim(DisplayWidth.pad(kinds[i], to: kindWidth)) }
            if let values { line += "  " + String(repeating: " ", count: valueWidth - DisplayWidth.of(values[i])) + values[i] }
            let tail = tailText(tails[i])
            if !tail.isEmpty && tailRoom > 0 {
                if DisplayWidth.of(tail) <= tailRoom {
                    let types = zip(rows[i].types, tails[i].types).map { output.paint($1, TypeColors.code($0)) }.joined(separator: "/")
                    line += "  " + ([types].filter { !$0.isEmpty } + [tails[i].slug.map(output.dim)].compactMap { $0 }).joined(separator: "  ")
                } else {
                    line += "  " + DisplayWidth.truncate(tail, to: tailRoom)
                }
            }
            var lines = [trimmingTrailingSpaces(line)]
            for summary in rows[i].explanation {
                lines.append(String(repeating: " ", count: numberWidth + 2)
                             + output.dim(DisplayWidth.truncate(summary, to: max(1, width - numberWidth - 2))))
            }
            return lines.joined(separator: "\n")
        }
    }

    private func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}

/// The kinds' names in the display languages (the data names types, not kinds).
enum KindNames {
    static let names: [String: [String]] = [
        // pokemon, form, move, ability, item, type
        "fr": ["Pokémon", "forme", "capacité", "talent", "objet", "type"],
        "de": ["Pokémon", "Form", "Attacke", "Fähigkeit", "Item", "Typ"],
        "es": ["Pokémon", "forma", "movimiento", "habilidad", "objeto", "tipo"],
        "it": ["Pokémon", "forma", "mossa", "abilità", "strumento", "tipo"],
        "ja": ["ポケモン", "すがた", "わざ", "とくせい", "どうぐ", "タイプ"],
        "ja-roma": ["pokemon", "sugata", "waza", "tokusei", "dougu", "taipu"],
        "ko": ["포켓몬", "모습", "기술", "특성", "도구", "타입"],
        "zh-hans": ["宝可梦", "样子", "招式", "特性", "道具", "属性"],
        "zh-hant": ["寶可夢", "樣子", "招式", "特性", "道具", "屬性"],
        "cs": ["Pokémon", "forma", "útok", "schopnost", "předmět", "typ"],
        "pt-br": ["Pokémon", "forma", "golpe", "habilidade", "item", "tipo"],
    ]

    /// Languages that name kinds as another does.
    static let sameNames = ["es-419": "es", "ja-hrkt": "ja"]

    static func name(_ kind: Kind, language: Int) -> String {
        let code = Language.codes[language]
        return names[sameNames[code] ?? code]?[kind.rank] ?? kind.rawValue
    }
}

/// ANSI colours for types, as the games colour them (approximately, in 256 colours).
enum TypeColors {
    static let codes: [String: String] = [
        "normal": "38;5;187", "fire": "38;5;208", "water": "38;5;75", "electric": "38;5;220", "grass": "38;5;113",
        "ice": "38;5;159", "fighting": "38;5;160", "poison": "38;5;133", "ground": "38;5;179", "flying": "38;5;147",
        "psychic": "38;5;205", "bug": "38;5;148", "rock": "38;5;143", "ghost": "38;5;97", "dragon": "38;5;99",
        "dark": "38;5;95", "steel": "38;5;152", "fairy": "38;5;218", "stellar": "38;5;81",
    ]
    static func code(_ type: String) -> String { codes[type] ?? "0" }
}
