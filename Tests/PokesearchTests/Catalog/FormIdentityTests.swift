import Catalog
import Corpus
import Foundation
import Query
import Store
import Testing

/// Cosmetic forms (`unown-j`, `shellos-east`) are entities of kind `form` numbered by their
/// pokemon-form ids, which repeat Pokémon ids: `(kind, id)` names one entity, every entity
/// is reachable by number, and tables show Pokémon and forms by national dex number.
@Suite("Form identity")
struct FormIdentityTests {
    let db = Fixture.database

    @Test func noTwoEntitiesShareKindAndID() {
        let entities = Fixture.documents.entities
        var seen: [String: String] = [:]
        for e in entities {
            let key = "\(e.kind.rawValue):\(e.id)"
            #expect(seen[key] == nil, "\(key) is \(seen[key] ?? "") and \(e.slug)")
            seen[key] = e.slug
        }
        // 228 cosmetic forms, each of kind form; ids that a Pokémon also has among them.
        let forms = entities.filter { $0.kind == .form }
        #expect(forms.count == 228)
        let pokemonIDs = Set(entities.filter { $0.kind == .pokemon }.map(\.id))
        #expect(forms.filter { pokemonIDs.contains($0.id) }.count == 159)
        #expect(forms.contains { $0.slug == "unown-j" && $0.id == 10009 })
        #expect(entities.contains { $0.kind == .pokemon && $0.slug == "rotom-wash" && $0.id == 10009 })
    }

    /// Every Pokémon ranks before every form, forms before moves (the kind rule's order).
    @Test func documentsAreInKindOrder() {
        let kinds = Fixture.documents.entities.map(\.kind)
        #expect(kinds == kinds.sorted())
    }

    @Test func unownJAndWashRotomAreEachReachableByNumber() throws {
        let form = try pokesearch(["show", "form:10009", "--json", "--db", db])
        #expect(form.status == 0 && form.stdout.contains(#""kind":"form","id":10009,"slug":"unown-j""#), "\(form.stdout)\(form.stderr)")
        let pokemon = try pokesearch(["show", "pokemon:10009", "--json", "--db", db])
        #expect(pokemon.status == 0 && pokemon.stdout.contains(#""kind":"pokemon","id":10009,"slug":"rotom-wash""#), "\(pokemon.stdout)")
        // A bare number several kinds share: the Pokémon, and a note naming the others.
        let bare = try pokesearch(["show", "10009", "--json", "--db", db])
        #expect(bare.status == 0 && bare.stdout.contains(#""slug":"rotom-wash""#))
        #expect(bare.stderr.contains("form:unown-j") && bare.stderr.contains("show KIND:10009"), "\(bare.stderr)")
        // By slug, and by the kind forms had before they had their own.
        for name in ["unown-j", "pokemon:unown-j", "form:unown-j"] {
            let run = try pokesearch(["show", name, "--json", "--db", db])
            #expect(run.status == 0 && run.stdout.contains(#""kind":"form","id":10009,"slug":"unown-j""#), "\(name): \(run.stderr)")
        }
        // Searched by number: both, each with its kind.
        let search = try pokesearch(["id:10009", "--json", "--db", db])
        let found = search.lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return "\(object["kind"] ?? ""):\(object["slug"] ?? "")"
        }
        // (Shadow Rave and Jagged Edge, of ids PokeAPI numbers from 10001 too, after them.)
        #expect(found == ["pokemon:rotom-wash", "form:unown-j", "move:shadow-rave", "ability:jagged-edge"], "\(search.stdout)")
        // A kind prefix with a number is that kind's id; `kind:form` keeps forms alone.
        #expect(try Fixture.engine.search("form:10009").results.map(\.slug) == ["unown-j"])
        #expect(try Fixture.engine.search("pokemon:10009").results.map(\.slug) == ["rotom-wash"])
        var options = SearchOptions()
        options.limit = 100
        let unown = try Fixture.engine.search("unown kind:form", options: options).results
        #expect(unown.count == 27 && unown.allSatisfy { $0.kind == .form }, "\(unown.map(\.slug))")
    }

    @Test func getReachesEachOverTheSocket() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        for (key, slug) in [("form:10009", "unown-j"), ("pokemon:10009", "rotom-wash"), ("10009", "rotom-wash"), ("unown-j", "unown-j")] {
            let entity = try client.requestJSON("GET \(key)")["entity"] as? [String: Any]
            #expect(entity?["slug"] as? String == slug && entity?["dex"] as? Int == (slug == "unown-j" ? 201 : 479), "GET \(key)")
        }
        // A number other kinds also have: they are named beside the entity.
        let also = try client.requestJSON("GET 10009")["also"] as? [[String: Any]] ?? []
        #expect(also.map { "\($0["kind"] ?? ""):\($0["slug"] ?? "")" } == ["form:unown-j", "move:shadow-rave", "ability:jagged-edge"])
        #expect(try client.requestJSON("GET form:10009")["also"] == nil)
        let search = try client.requestJSON("SEARCH id:10009")["results"] as? [[String: Any]] ?? []
        #expect(search.prefix(2).map { "\($0["kind"] ?? ""):\($0["dex"] ?? "")" } == ["pokemon:479", "form:201"])
        #expect(server.stop().status == 0)
    }

    /// A cosmetic form has a sprite of its own (PokeAPI's pokemon-form one): `sprite` takes
    /// forms as it takes Pokémon. Offline, so the error is the download's, not the name's.
    @Test func spriteTakesForms() throws {
        let run = try pokesearch(["sprite", "unown-j", "--api", "http://127.0.0.1:9/api/v2", "--db", db],
                                 environment: ["POKESEARCH_HTTP_ATTEMPTS": "1"])
        #expect(run.status == 3 && run.stderr.contains("cannot download the sprite of unown-j"), "\(run.stderr)")
    }

    /// A form's Pokédex page is its Pokémon's (its species' facts, its own types).
    @Test func aFormsPageHasItsPokemonsFacts() throws {
        let run = try pokesearch(["show", "shellos-east", "--db", db], environment: ["COLUMNS": "80"])
        #expect(run.status == 0 && run.stdout.hasPrefix("#422 East Shellos"), "\(run.stdout)")
        #expect(run.stdout.contains("Water") && run.stdout.contains("Sea Slug Pokémon"), "\(run.stdout)")
    }

    @Test func tablesShowPokemonByNationalDexNumber() throws {
        let run = try pokesearch(["charizard-mega-x", "-n", "1", "--db", db], environment: ["COLUMNS": "80"])
        #expect(run.lines.first?.hasPrefix("#6  Mega Charizard X") == true || run.lines.first?.hasPrefix("#6 Mega Charizard X") == true,
                "\(run.stdout)")
        let form = try pokesearch(["unown-j", "-n", "1", "--db", db], environment: ["COLUMNS": "80"])
        #expect(form.lines.first?.hasPrefix("#201") == true && form.lines.first?.contains("Unown J") == true, "\(form.stdout)")
        // Other kinds keep their ids.
        let move = try pokesearch(["move:thunderbolt", "--db", db], environment: ["COLUMNS": "80"])
        #expect(move.lines.first?.hasPrefix("#85") == true, "\(move.stdout)")
    }

    @Test func jsonKeepsTheIDAndAddsTheDexNumber() throws {
        let run = try pokesearch(["charizard-mega-x", "-n", "1", "--json", "--db", db])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [String: Any])
        #expect(object["id"] as? Int == 10034 && object["dex"] as? Int == 6, "\(run.stdout)")
        let form = try pokesearch(["form:10009", "--json", "--db", db])
        #expect(form.stdout.contains(#""kind":"form","id":10009,"dex":201,"#), "\(form.stdout)")
        let move = try pokesearch(["move:thunderbolt", "--json", "--db", db])
        #expect(move.status == 0 && !move.stdout.contains(#""dex""#))
    }

    /// A database today's release made (schema 3, documents 6, cosmetic forms of kind
    /// pokemon) opens, migrates, and keeps a favourite on a cosmetic form pointing at it.
    @Test func aSchemaThreeDatabaseKeepsFavouriteForms() throws {
        let path = try Fixture.olderDatabase("schema-three", Fixture.downgradeToSchemaThree, userData: """
            INSERT INTO favourite (kind, slug, added_at) VALUES ('pokemon', 'unown-j', 0), ('pokemon', 'pikachu', 1);
            INSERT INTO user_synonym (term, kind, slug, added_at) VALUES ('jay', 'pokemon', 'unown-j', 0);
            INSERT INTO history (query, searched_at) VALUES ('show pokemon:unown-j', 0);
            """)
        let fav = try pokesearch(["fav", "--json", "--db", path])
        #expect(fav.stderr.contains("made by an older pokesearch"), "\(fav.stderr)")
        #expect(fav.status == 0 && fav.lines.count == 2, "\(fav.stdout)\(fav.stderr)")
        #expect(fav.lines.first?.contains(#""kind":"form","id":10009,"dex":201,"slug":"unown-j""#) == true, "\(fav.stdout)")
        let store = try Store(path: path, readOnly: true)
        #expect(store.meta("schema_version") == "4")
        #expect(try store.favourites().map { "\($0.kind.rawValue):\($0.slug)" } == ["form:unown-j", "pokemon:pikachu"])
        #expect(try store.history().contains("show pokemon:unown-j"))
        // The user's synonym and `is:fav` reach the form; the old history entry still runs.
        #expect(try pokesearch(["jay", "-n", "1", "--json", "--db", path]).stdout.contains(#""slug":"unown-j""#))
        #expect(try pokesearch(["is:fav", "kind:form", "--json", "--db", path]).lines.count == 1)
        #expect(try pokesearch(["show", "pokemon:unown-j", "--db", path]).status == 0)
        let table = try pokesearch(["fav", "--db", path], environment: ["COLUMNS": "80"])
        #expect(table.lines.contains { $0.hasPrefix("#201") && $0.contains("Unown J") && $0.contains("form") }, "\(table.stdout)")
    }
}

extension Fixture {
    /// A copy of the test database made older by `downgrade`, with `userData` (SQL) written
    /// into it as that older pokesearch would have.
    static func olderDatabase(_ label: String, _ downgrade: (Store) throws -> Void, userData: String, from source: String = database) throws -> String {
        let path = copyOfDatabase(label, from: source)
        let store = try Store(path: path)
        try downgrade(store)
        try store.database.execute(userData)
        return path
    }

    /// Turns a database of this version back into one today's release made: schema 3,
    /// documents 6, cosmetic forms of kind `pokemon` everywhere, an index of format 13.
    static func downgradeToSchemaThree(_ store: Store) throws {
        try store.database.execute("""
            UPDATE names SET kind = 'pokemon' WHERE kind = 'form';
            UPDATE form_names SET kind = 'pokemon' WHERE kind = 'form';
            UPDATE synonyms SET kind = 'pokemon' WHERE kind = 'form';
            UPDATE entity SET kind = 'pokemon' WHERE kind = 'form';
            DELETE FROM index_snapshot;
            UPDATE meta SET value = '3' WHERE key = 'schema_version';
            UPDATE meta SET value = '6' WHERE key = 'documents_version';
            """)
    }
}
