import Corpus
import Foundation
import Testing

/// Inputs the fuzz targets (Fuzz/) crashed on, kept as they were found.
@Suite struct FuzzRegressionTests {
    /// fuzz-corpus: a types.tsv naming `flying` twice trapped in IndexBuilder (a dictionary
    /// with unique keys, `Duplicate values for key: 'flying'`) during ingest. The corpus
    /// reader now refuses it with the file and line.
    @Test func repeatedTypeSlugIsACorpusError() throws {
        var tables = Fixture.corpusTables
        tables.tables["types"] = try TSV.decode("id\tslug\tgeneration\tdamage_class\n1\tnormal\t1\tphysical\n3\tflying\t1\tphysical\n"
                                                + "4\tpoison\t1\tphysical\n3\tflying\t1\tphysical\n", file: "types.tsv")
        #expect(throws: CorpusError.format(file: "types.tsv", line: 5, message: "repeated type slug 'flying'")) {
            try Corpus(tables: tables)
        }
    }

    /// The same trap waits for colours and habitats (numbered by slug), and for abilities
    /// and types looked up by id.
    @Test func otherRepeatsTheIndexCannotHoldAreCorpusErrors() throws {
        var vocab = Fixture.corpusTables
        vocab.tables["vocab"]?.rows.append(["color", "999", "red"])
        #expect(throws: CorpusError.self) { try Corpus(tables: vocab) }
        var abilities = Fixture.corpusTables
        var repeatedID = abilities.tables["abilities"]!.rows[0]
        repeatedID[1] = "another"
        abilities.tables["abilities"]?.rows.append(repeatedID)
        #expect(throws: CorpusError.self) { try Corpus(tables: abilities) }
        // The real corpus repeats an item slug (roseli-berry): that stays allowed.
        #expect(throws: Never.self) { try Corpus(tables: Fixture.corpusTables) }
    }
}
