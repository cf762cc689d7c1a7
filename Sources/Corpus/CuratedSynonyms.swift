/// Synonyms pokesearch ships of its own (source `pokesearch` in synonyms.tsv): what fans
/// type for an entity, or for each entity of a group they name together, that neither
/// PokeAPI's names nor Showdown's nicknames hold. Each was found missing by the judged query
/// set (Tests/PokesearchTests/Judged): keep it to names players actually use.
public enum CuratedSynonyms {
    static let entries: [(term: String, kind: String, slug: String)] = [
        // Competitive players' abbreviation of the move ("KO" in damage calcs and forums).
        ("ko", "move", "knock-off"),
        // What Chinese fans call Leftovers; PokeAPI's zh-hans name is 吃剩的东西.
        ("剩饭", "item", "leftovers"),
        // "Mr." as it is said and often written ("Mister Mime"): a word, so that it stands
        // for "mr" in each name holding it (Mr. Mime, Mr. Rime, Galarian Mr. Mime).
        ("mister", Synonym.wordKind, "mr"),
        // Fans' name for Eevee's evolutions, each of them (Eevee itself is none).
        ("eeveelution", "pokemon", "vaporeon"), ("eeveelution", "pokemon", "jolteon"), ("eeveelution", "pokemon", "flareon"),
        ("eeveelution", "pokemon", "espeon"), ("eeveelution", "pokemon", "umbreon"), ("eeveelution", "pokemon", "leafeon"),
        ("eeveelution", "pokemon", "glaceon"), ("eeveelution", "pokemon", "sylveon"),
    ]

    /// The synonyms for a corpus whose types are `typeSlugs`: the entries above, and each type
    /// as people name it, "Fire type" or "Fire-type" as the games write it, so that the type
    /// comes before the forms and items of that type.
    public static func synonyms(typeSlugs: [String]) -> [Synonym] {
        (entries + typeSlugs.map { ("\($0) type", "type", $0) }).map {
            Synonym(term: $0.term, kind: $0.kind, slug: $0.slug, source: "pokesearch")
        }
    }
}
