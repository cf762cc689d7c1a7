import Catalog
import Corpus
import Index
import Store
import Testing

/// Details read from the database one entity at a time (`show`, GET) are the details the
/// whole typed corpus gives, for every entity.
@Suite struct DetailReaderTests {
    @Test(.tags(.exhaustive)) func everyEntityHasTheDetailsOfTheWholeCorpus() throws {
        let store = try Store(path: Fixture.database, readOnly: true)
        let index = try Catalog.loadIndex(store)
        let reader = try DetailReader(store: store)
        let whole = Pokedex(corpus: Fixture.corpus, index: index)
        var mismatches: [String] = []
        for doc in Exhaustive.sample(0..<index.docCount, oneIn: 26) {
            // English for all, and every seventh entity in another language too.
            for language in doc % 7 == 0 ? [0, 1 + (doc / 7) % (Language.codes.count - 1)] : [0] {
                let expected = whole.detail(doc, language: language)?.json
                let read = try reader.pokedex(for: doc, index: index).detail(doc, language: language)?.json
                if read == nil || read != expected { mismatches.append("\(index.kind(doc).rawValue):\(index.slug(doc)) in \(Language.codes[language])") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, e.g. \(mismatches.prefix(5))")
    }

    /// Read as asked for, and the same when asked again (then from the reader's cache, a
    /// missing name too).
    @Test func namesAreReadAsTheyAreAskedFor() throws {
        let reader = try DetailReader(store: try Store(path: Fixture.database, readOnly: true))
        let names = CorpusNames(source: reader)
        let whole = CorpusNames(Fixture.corpus.names)
        for _ in 0..<2 {
            for (kind, slug) in [("genus", "pikachu"), ("type", "fire"), ("item", "thunder-stone"), ("pokemon", "mr-mime"), ("color", "red")] {
                for language in Language.codes.indices {
                    #expect(names.lookup(kind, slug, language: language) == whole.lookup(kind, slug, language: language))
                }
            }
            #expect(names.lookup("genus", "no-such-thing", language: 0) == nil)
            #expect(names.name("pokemon", "no-such-thing", language: 0) == "no such thing")
        }
    }

    /// A database from before the lookup indexes is read the same without them, and gets
    /// them when a command opens it writable.
    @Test func aDatabaseWithoutLookupIndexes() throws {
        let path = Fixture.copyOfDatabase("no-lookup-indexes")
        let writer = try Store(path: path)
        let indexes = try writer.database.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        for name in indexes.compactMap({ $0.first?.textValue }) where !["entity_id", "folded_name_doc"].contains(name) {
            try writer.database.execute("DROP INDEX \(name)")
        }
        #expect(try writer.hasLookupIndexes() == false)
        let store = try Store(path: path, readOnly: true)
        let index = try Catalog.loadIndex(store)
        let reader = try DetailReader(store: store)
        let whole = Pokedex(corpus: Fixture.corpus, index: index)
        for doc in stride(from: 0, to: index.docCount, by: 97) {
            #expect(try reader.detail(doc, index: index, language: 0)?.json == whole.detail(doc, language: 0)?.json)
        }
        _ = try Catalog.open(path: path) { _ in }
        #expect(try Store(path: path, readOnly: true).hasLookupIndexes())
    }
}
