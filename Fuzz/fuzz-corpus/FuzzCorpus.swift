import Corpus
import FuzzSupport
import Query

// The corpus reader: records separated by NUL bytes, each a selector byte (which corpus
// file) and that file's TSV text. They replace files of a small corpus (the first rows of
// each bundled file); what reads as a corpus is then indexed and searched, as ingest would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCorpus(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    var tables = smallTables
    for record in input.records() where !record.isEmpty {
        let stem = CorpusTables.fileStems[Int(record[0]) % CorpusTables.fileStems.count]
        guard let table = try? TSV.decode(String(decoding: record.dropFirst(), as: UTF8.self), file: "\(stem).tsv") else { return 0 }
        tables.tables[stem] = table
    }
    guard let corpus = try? Corpus(tables: tables) else { return 0 }
    let engine = SearchEngine(index: buildIndex(corpus))
    for query in ["a", "pika", "fire", "type:fire", "bst>300", "*a*"] {
        _ = try? engine.search(query)
        _ = try? engine.complete(query)
    }
    return 0
}

/// The first rows of every bundled corpus file: small enough to index on every input.
let smallTables: CorpusTables = {
    var tables = bundledTables
    for (stem, table) in tables.tables { tables.tables[stem]?.rows = Array(table.rows.prefix(40)) }
    return tables
}()

@_cdecl("fuzz_corpus_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = smallTables // read before the first input, so that its time is not an input's
    return runLibFuzzer(argc, argv, fuzzCorpus)
}
