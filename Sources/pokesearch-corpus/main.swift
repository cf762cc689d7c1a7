// pokesearch-corpus: rebuilds the bundled corpus from a PokeAPI CSV checkout.
//   swift run pokesearch-corpus PATH/TO/pokeapi/data/v2/csv [OUT_DIR (default: corpus)]
import Corpus
import Foundation

let usage = """
    usage: pokesearch-corpus CSV_DIR [OUT_DIR]
      Converts PokeAPI's CSV tables (data/v2/csv of a PokeAPI checkout) into the compact corpus
      that pokesearch bundles (default OUT_DIR: corpus). See corpus/FORMAT.md.

    """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage, terminator: "")
    exit(0)
}
guard (1...2).contains(arguments.count) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
do {
    let tables = try Converter.convert(csvDirectory: URL(fileURLWithPath: arguments[0]))
    let output = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "corpus")
    try TSV.writeCorpus(tables, to: output)
    let counts = CorpusTables.fileStems.map { "\($0) \(tables.tables[$0]?.rows.count ?? 0)" }.joined(separator: ", ")
    print("wrote \(output.path): \(counts)")
} catch {
    FileHandle.standardError.write(Data("pokesearch-corpus: \(error)\n".utf8))
    exit(3)
}
