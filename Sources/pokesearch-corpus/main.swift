// pokesearch-corpus: rebuilds the bundled corpus from a PokeAPI CSV checkout.
//   swift run pokesearch-corpus PATH/TO/pokeapi/data/v2/csv [OUT_DIR (default: corpus)] [ALIASES_TS]
import Corpus
import Foundation

let defaultAliases = "../shared/showdown/aliases.ts"
let usage = """
    usage: pokesearch-corpus CSV_DIR [OUT_DIR] [ALIASES_TS]
      Converts PokeAPI's CSV tables (data/v2/csv of a PokeAPI checkout) into the compact corpus
      that pokesearch bundles (default OUT_DIR: corpus). ALIASES_TS is Pokémon Showdown's
      data/aliases.ts, whose nicknames become synonyms (default: \(defaultAliases) when it
      exists); the ones it cannot map go into OUT_DIR/synonyms-unmapped.txt. See corpus/FORMAT.md.

    """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage, terminator: "")
    exit(0)
}
guard (1...3).contains(arguments.count) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
do {
    let aliasesPath = arguments.count > 2 ? arguments[2] : FileManager.default.fileExists(atPath: defaultAliases) ? defaultAliases : nil
    let aliases = try aliasesPath.map { path -> String in
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CorpusError.unreadable(path: path, reason: "not a readable UTF-8 file")
        }
        return text
    }
    let (tables, unmapped) = try Converter.convert(csvDirectory: URL(fileURLWithPath: arguments[0]), showdownAliases: aliases)
    let output = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "corpus")
    try TSV.writeCorpus(tables, to: output)
    let report = output.appendingPathComponent("synonyms-unmapped.txt")
    if aliases != nil { try Data(unmapped.utf8).write(to: report, options: .atomic) }
    let counts = CorpusTables.allStems.map { "\($0) \(tables.tables[$0]?.rows.count ?? 0)" }.joined(separator: ", ")
    print("wrote \(output.path): \(counts)")
    if aliases == nil { print("no Showdown aliases (\(defaultAliases) is missing): synonyms.tsv holds the form words only") }
} catch {
    FileHandle.standardError.write(Data("pokesearch-corpus: \(error)\n".utf8))
    exit(3)
}
