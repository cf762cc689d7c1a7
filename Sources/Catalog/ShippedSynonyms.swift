import Corpus
import Foundation

extension CorpusTables {
    /// The corpus with what one made without Showdown's nicknames lacks (one from the
    /// live-API sync or a PokeAPI CSV directory, or the tables of a database made before
    /// synonyms): the bundled corpus's synonyms beside its own (they name entities by kind
    /// and slug, which outlive PokeAPI updates; one naming nothing is left out of the
    /// documents), else at least the form words; and for a database made from the bundled
    /// corpus before form names, the bundled corpus's form names.
    /// The source an ingest of the bundled corpus records (meta `source`).
    static let bundledSource = "bundled corpus"

    func completed(source: String, bundled: URL? = Paths.bundledCorpus()) -> CorpusTables {
        var tables = self
        let own = (try? table("synonyms")) ?? Table(columns: [])
        let sourceColumn = own.columns.firstIndex(of: "source")
        let hasNicknames = sourceColumn.map { column in own.rows.contains { $0[column] == "showdown" } } ?? false
        let shipped = bundled.flatMap { try? TSV.readCorpus(from: $0) }
        if !hasNicknames {
            let theirs = shipped.flatMap { try? $0.table("synonyms") }.map { Synonyms.rows(of: $0) } ?? FormWords.synonyms
            let mine = Synonyms.rows(of: own)
            tables.tables["synonyms"] = Synonyms.table(mine + theirs)
        }
        if (tables.tables["form_names"]?.rows.isEmpty ?? true), source == Self.bundledSource, let formNames = shipped?.tables["form_names"] {
            tables.tables["form_names"] = formNames
        }
        return tables
    }
}
