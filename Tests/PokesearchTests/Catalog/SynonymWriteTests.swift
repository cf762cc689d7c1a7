import Catalog
import Foundation
import Store
import Testing

/// `pokesearch synonym add/remove` writes as favourites do (`Catalog.write`): to the database
/// at the path, even when an ingest swapped a new one in since the catalog was opened.
/// (Databases of the small corpus: each synonym written rebuilds the index of the database
/// it goes to, and which database that is does not depend on what it holds.)
@Suite struct SynonymWriteTests {
    @Test func aSynonymGoesToTheDatabaseSwappedIn() throws {
        let path = Fixture.copyOfDatabase("synonym-swap", from: Fixture.smallDatabase)
        let catalog = try Catalog.open(path: path, notice: { _ in })
        // What an ingest does: a new database renamed over the old one.
        let replacement = path + ".new"
        try FileManager.default.copyItem(atPath: Fixture.smallDatabase, toPath: replacement)
        #expect(rename(replacement, path) == 0)
        let pikachu = try #require(catalog.index.doc(kind: .pokemon, slug: "pikachu"))
        try catalog.addSynonym("sparky", docs: [pikachu])
        #expect(try Store(path: path, readOnly: true).userSynonyms().map(\.term) == ["sparky"])
        try catalog.removeSynonym("sparky")
        #expect(try Store(path: path, readOnly: true).userSynonyms().isEmpty)
    }
}
