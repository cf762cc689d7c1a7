import Catalog
import Corpus
import Folding
import Query
import Testing

/// Search over the real corpus finds entities by every name people type: forms' other
/// names, slugs, Showdown's nicknames and form words (issue 40, items 1, 3 and 4).
@Suite("Names people type")
struct NamesPeopleTypeSearchTests {
    typealias Case = RelevanceTests.Case

    static func first(_ query: String, _ expected: String, language: String = "en") -> Case {
        RelevanceTests.c(query, .first([expected]), language: language)
    }

    static let cases: [Case] = [
        // Default forms' full names (only their species names were indexed).
        first("Zero Form Palafin", "pokemon:palafin-zero"), first("Red Flabébé", "pokemon:flabebe"),
        first("Incarnate Tornadus", "pokemon:tornadus-incarnate"), first("Male Indeedee", "pokemon:indeedee-male"),
        first("Average Gourgeist", "pokemon:gourgeist-average"), first("Overcast Cherrim", "pokemon:cherrim"),
        first("Solo Wishiwashi", "pokemon:wishiwashi-solo"), first("cherrim overcast form", "pokemon:cherrim"),
        first("Superdofin Forme Ordinaire", "pokemon:palafin-zero", language: "fr"),
        // Slugs as written, run together and with spaces.
        first("rotom-wash", "pokemon:rotom-wash"), first("rotomwash", "pokemon:rotom-wash"), first("rotom wash", "pokemon:rotom-wash"),
        first("charizard-mega-x", "pokemon:charizard-mega-x"), first("charizardmegay", "pokemon:charizard-mega-y"),
        first("landorus-therian", "pokemon:landorus-therian"), first("Raticate-Alola", "pokemon:raticate-alola"),
        first("pikachu-gmax", "pokemon:pikachu-gmax"), first("arceusfire", "form:arceus-fire"),
        first("u-turn", "move:u-turn"), first("shellos-east", "form:shellos-east"),
        // A slug is no language's: it ranks first whatever the display language.
        first("rotom-wash", "pokemon:rotom-wash", language: "fr"), first("charizardmegax", "pokemon:charizard-mega-x", language: "ja"),
        // Showdown's nicknames rank as their entity's whole name.
        first("ttar", "pokemon:tyranitar"), first("lando-t", "pokemon:landorus-therian"), first("zardx", "pokemon:charizard-mega-x"),
        first("rotom-w", "pokemon:rotom-wash"), first("chomp", "pokemon:garchomp"), first("tbolt", "move:thunderbolt"),
        first("thunder bolt", "move:thunderbolt"),
        // Form words, either way.
        first("gmax pikachu", "pokemon:pikachu-gmax"), first("nidoran female", "pokemon:nidoran-f"), first("nidoran ♀", "pokemon:nidoran-f"),
        first("indeedee-f", "pokemon:indeedee-female"), first("alola raticate", "pokemon:raticate-alola"),
        first("galar ponyta", "pokemon:ponyta-galar"), first("gigantamax charizard", "pokemon:charizard-gmax"),
        // Names written like a filter whose value names nothing: the name ("type:lava" is
        // still an unknown type, ParserTests).
        first("Type:Null", "pokemon:type-null"), first("Type:0", "pokemon:type-null", language: "fr"),
        first("Type:Null", "pokemon:type-null", language: "ja-roma"),
    ]

    @Test(arguments: cases)
    func findsItFirst(_ c: Case) throws { try RelevanceTests.check(c) }

    @Test(arguments: [("rotom-w", "pokemon:rotom-wash"), ("ttar", "pokemon:tyranitar"), ("zero form pal", "pokemon:palafin-zero"),
                      ("landorus-th", "pokemon:landorus-therian")])
    func completesIt(_ prefix: String, _ expected: String) throws {
        let suggestions = try Fixture.engine.complete(prefix, limit: 5).map { "\($0.kind.rawValue):\($0.slug)" }
        #expect(suggestions.contains(expected), "\(prefix): \(suggestions)")
    }

    /// Searched names are never shown: a form keeps its one display name a language.
    @Test func searchedNamesAreNotDisplayed() throws {
        let index = Fixture.engine.index
        let doc = try #require(index.doc(kind: .pokemon, slug: "palafin-zero"))
        #expect(index.displayName(doc, language: 0) == "Palafin")
        #expect(!index.names(doc).contains { $0.text == "Zero Form Palafin" || $0.text == "palafin-zero" })
    }

    /// The documents carry each slug and synonym as a language-less name, once.
    @Test func documentsCarrySlugsAndSynonymsOnce() throws {
        let documents = Documents(corpus: Fixture.corpus,
                                  userSynonyms: [Synonym(term: "sparky", kind: "pokemon", slug: "pikachu", source: "user")])
        let doc = try #require(documents.entities.first { $0.slug == "rotom-wash" }?.doc)
        let pikachu = try #require(documents.entities.first { $0.slug == "pikachu" }?.doc)
        let names = documents.names.filter { $0.doc == doc }
        #expect(names.contains { $0.language == Language.slug && $0.folded == "rotom wash" })
        #expect(names.contains { $0.language == Language.synonym && $0.folded == "rotom w" })
        // "pikachu" is its English name too, but a slug has no language: it is a name in
        // every display language (with `--lang ja`, "pikachu" is Pikachu's whole name).
        #expect(documents.names.filter { $0.doc == pikachu && $0.language == Language.slug }.map(\.folded) == ["pikachu"])
        #expect(documents.names.contains { $0.doc == pikachu && $0.language == Language.synonym && $0.raw == "sparky" })
        let all = documents.names.filter { Language.neutralCodes.contains($0.language) }.map { "\($0.doc) \($0.folded)" }
        #expect(Set(all).count == all.count)
    }
}

extension Fixture {
    /// The names an entity is searched by beside its displayed ones: its slug, its forms'
    /// other names and its shipped synonyms.
    static func searchedNames(_ kind: Kind, _ slug: String) -> [String] {
        [slug] + corpus.formNames.filter { $0.kind == kind.rawValue && $0.slug == slug }.map(\.text)
            + corpus.synonyms.filter { $0.kind == kind.rawValue && $0.slug == slug }.map(\.term)
    }
}
