import Catalog
import Corpus
import Query

/// `pokesearch QUERY...`: the query language over the index, as a table or JSON Lines.
enum SearchCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let query = context.arguments.positional.joined(separator: " ")
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.usage("nothing to search for; try `pokesearch \"fire dragon\"` or see `pokesearch --help`")
        }
        let catalog = try context.catalog()
        var options = try context.searchOptions()
        if query.contains("is:fav") || query.contains("is:favourite") || query.contains("is:favorite") {
            options.favourites = catalog.favouriteDocs()
        }
        let response = try catalog.engine.search(query, options: options)
        context.recordHistory(query)
        ResultPrinter.print(response.results, total: response.total, context: context, explain: options.explain)
        return response.results.isEmpty ? 1 : 0
    }
}

/// Prints search results: JSON Lines with --json, else an aligned table.
enum ResultPrinter {
    static func print(_ results: [SearchResult], total: Int, context: CommandContext, explain: Bool = false) {
        let output = context.output
        if context.arguments.json {
            for result in results { output.line(JSONText.result(result)) }
            return
        }
        if results.isEmpty {
            Output.error("nothing found")
            return
        }
        let mixedKinds = Set(results.map(\.kind)).count > 1
        let numberWidth = results.map { "#\($0.id)".count }.max() ?? 4
        let nameWidth = min(32, results.map { displayWidth($0.name) }.max() ?? 10)
        for result in results {
            var line = pad("#\(result.id)", numberWidth) + "  " + output.bold(pad(result.name, nameWidth))
            if mixedKinds { line += "  " + output.dim(pad(result.kind.rawValue, 7)) }
            if !result.types.isEmpty { line += "  " + result.types.map { output.paint($0, TypeColors.code($0)) }.joined(separator: "/") }
            output.line(line)
            if explain {
                for e in result.explanation { output.line(String(repeating: " ", count: numberWidth + 4) + output.dim(e.summary)) }
            }
        }
        if total > results.count + context.arguments.offset && output.isTerminal {
            output.line(output.dim("(\(results.count) of \(total); --offset and --limit page through the rest)"))
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
