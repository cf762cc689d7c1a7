import Catalog
import Corpus
import Foundation
import Query
import Server

/// `pokesearch QUERY...`: the query language over the index, as a table or JSON Lines.
enum SearchCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let query = context.arguments.positional.joined(separator: " ")
        // White space as the query parser reads it (Unicode's), without Foundation's
        // CharacterSet: bridging to NSString was 0.6 ms of a one-shot search.
        guard !query.allSatisfy(\.isWhitespace) else {
            throw CLIError.usage("nothing to search for; try `pokesearch \"fire dragon\"` or see `pokesearch --help`")
        }
        var options = try context.searchOptions()
        let wantsFavourites = query.contains("is:fav") || query.contains("is:favourite") || query.contains("is:favorite")
        let page: ResultPage
        // Favourites and explanations live only in the local database and engine.
        if !wantsFavourites && !options.explain, let served = try askServer(query, options, context) {
            page = served
        } else {
            let catalog = try context.catalog()
            if wantsFavourites { options.favourites = catalog.favouriteDocs() }
            options.database = try catalog.databaseFilters()
            let response = try catalog.engine.search(query, options: options)
            page = ResultPage(Array(response.results), total: response.total)
        }
        ResultPrinter.print(page, context: context)
        // The answer first: recording it waits for the database's writer (an ingest holds
        // it for seconds) and for the disk.
        context.output.flush()
        context.recordHistory(query)
        return page.rows.isEmpty ? 1 : 0
    }

    /// The same page from a running server, or nil to search locally.
    static func askServer(_ query: String, _ options: SearchOptions, _ context: CommandContext) throws -> ResultPage? {
        guard !RequestSyntax.endsWithOption(query) else { return nil }
        var request = "SEARCH \(query) LIMIT(\(options.limit)) OFFSET(\(options.offset)) LANG(\(Language.codes[options.language]))"
        request += " SORT(\(options.sort.rawValue)\(options.descending ? ":desc" : ""))"
        if !options.kinds.isEmpty { request += " KIND(\(options.kinds.map(\.rawValue).sorted().joined(separator: ",")))" }
        guard let answer = try ServerClient.ask(request, elementsKey: "results", context: context),
              let total = answer.fields["total"] as? Int else { return nil }
        var rows: [ResultRow] = []
        for element in answer.elements {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(element.utf8))) as? [String: Any],
                  let kind = (object["kind"] as? String).flatMap(Kind.init(rawValue:)),
                  let id = object["id"] as? Int, let name = object["name"] as? String else { return nil }
            rows.append(ResultRow(kind: kind, id: id, slug: object["slug"] as? String ?? "", name: name, types: object["types"] as? [String] ?? [],
                                  json: element, explanation: []))
        }
        return ResultPage(rows: rows, total: total)
    }
}

/// One result as the printer needs it, from the local engine or from the server.
struct ResultRow {
    var kind: Kind
    var id: Int
    var slug: String
    var name: String
    var types: [String]
    /// The `--json` line: `JSONText.result`, as the server also sends it.
    var json: String
    var explanation: [String]

    init(kind: Kind, id: Int, slug: String, name: String, types: [String], json: String, explanation: [String]) {
        self.kind = kind
        self.id = id
        self.slug = slug
        self.name = name
        self.types = types
        self.json = json
        self.explanation = explanation
    }

    init(_ result: SearchResult) {
        self.init(kind: result.kind, id: result.id, slug: result.slug, name: result.name, types: result.types,
                  json: JSONText.result(result), explanation: result.explanation.map(\.summary))
    }
}

/// A window of results and how many matched in all.
struct ResultPage {
    var rows: [ResultRow]
    var total: Int

    init(rows: [ResultRow], total: Int) {
        self.rows = rows
        self.total = total
    }

    init(_ results: [SearchResult], total: Int) {
        self.init(rows: results.map(ResultRow.init), total: total)
    }
}

/// Prints search results: JSON Lines with --json, else an aligned table.
enum ResultPrinter {
    static func print(_ page: ResultPage, context: CommandContext) {
        let output = context.output
        let rows = page.rows
        if context.arguments.json {
            for row in rows { output.line(row.json) }
            return
        }
        if rows.isEmpty {
            Output.error("nothing found")
            return
        }
        let mixedKinds = Set(rows.map(\.kind)).count > 1
        let numberWidth = rows.map { "#\($0.id)".count }.max() ?? 4
        let nameWidth = min(32, rows.map { displayWidth($0.name) }.max() ?? 10)
        // A name the page shows for two things of a kind ("Poké Ball": the standard ball and
        // the Hisuian one) is followed by each one's slug, which tells them apart.
        var shown: [String: Int] = [:]
        for row in rows { shown["\(row.kind.rawValue):\(row.name)", default: 0] += 1 }
        for row in rows {
            var line = pad("#\(row.id)", numberWidth) + "  " + output.bold(pad(row.name, nameWidth))
            if mixedKinds { line += "  " + output.dim(pad(row.kind.rawValue, 7)) }
            if !row.types.isEmpty { line += "  " + row.types.map { output.paint($0, TypeColors.code($0)) }.joined(separator: "/") }
            if shown["\(row.kind.rawValue):\(row.name)", default: 0] > 1 { line += "  " + output.dim(row.slug) }
            output.line(line)
            for summary in row.explanation { output.line(String(repeating: " ", count: numberWidth + 4) + output.dim(summary)) }
        }
        if page.total > rows.count + context.arguments.offset && output.isTerminal {
            output.line(output.dim("(\(rows.count) of \(page.total); --offset and --limit page through the rest)"))
        }
    }

    /// Terminal columns a string takes (wide for CJK and full-width forms).
    static func displayWidth(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { width, scalar in
            let v = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark { return width }
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            return width + (wide ? 2 : 1)
        }
    }

    static func pad(_ s: String, _ width: Int) -> String {
        let w = displayWidth(s)
        return w >= width ? s : s + String(repeating: " ", count: width - w)
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
