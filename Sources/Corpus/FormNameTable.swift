import Foundation

/// The `form_names` table: the names PokeAPI gives a form (`pokemon_form_names`) that the
/// `names` table, one display name per language, leaves out. A default form's full name
/// ("Zero Form Palafin", "Red Flabébé", "Male Indeedee") beside its species name, and the
/// species name with the form's ("Cherrim (Overcast Form)", and in English "Overcast Form
/// Cherrim") where the full name does not hold the form's words: what people type for a
/// form, searched but never displayed.
enum FormNameTable {
    static let columns = ["kind", "id", "slug", "lang", "name"]

    /// Species id → language id → name, from `pokemon_species_names`.
    static func speciesNames(_ table: CSVTable) -> [Int: [Int: String]] {
        var names: [Int: [Int: String]] = [:]
        for row in table.records {
            guard let id = row.int("pokemon_species_id"), let lang = row.int("local_language_id"), !row["name"].isEmpty else { continue }
            names[id, default: [:]][lang] = row["name"]
        }
        return names
    }

    /// Pokémon-form id → language id → its form name and full name, from `pokemon_form_names`.
    static func formNames(_ table: CSVTable) -> [Int: [Int: (form: String, pokemon: String)]] {
        var names: [Int: [Int: (form: String, pokemon: String)]] = [:]
        for row in table.records {
            guard let id = row.int("pokemon_form_id"), let lang = row.int("local_language_id") else { continue }
            names[id, default: [:]][lang] = (row["form_name"], row["pokemon_name"])
        }
        return names
    }

    /// `csv` reads one PokeAPI table; `languages` maps its language ids to our codes.
    static func build(languages: [Int: String], csv: (String) throws -> CSVTable) throws -> Table {
        let pokemon = try csv("pokemon")
        let forms = try csv("pokemon_forms")
        try forms.require("id", "identifier", "pokemon_id", "is_default")
        let speciesNames = Self.speciesNames(try csv("pokemon_species_names"))
        let formNames = Self.formNames(try csv("pokemon_form_names"))
        // The same forms, in the same order and with the same ids, as the `pokemon` table.
        var pokemonSlugs: [Int: String] = [:]
        for row in pokemon.records { if let id = row.int("id") { pokemonSlugs[id] = row["identifier"] } }
        var ownForm: [Int: Int] = [:]
        var cosmetic: [Int: [(id: Int, slug: String)]] = [:]
        for row in forms.records {
            guard let pokemonID = row.int("pokemon_id"), let id = row.int("id") else { continue }
            if row["is_default"] == "1" || row["identifier"] == pokemonSlugs[pokemonID] { ownForm[pokemonID] = id }
        }
        for row in forms.records {
            guard let pokemonID = row.int("pokemon_id"), let id = row.int("id"), ownForm[pokemonID] != id else { continue }
            cosmetic[pokemonID, default: []].append((id, row["identifier"]))
        }

        var table = Table(columns: columns)
        func add(kind: Kind, id: Int, slug: String, formID: Int?, species: Int, isDefault: Bool) {
            guard let formID, let names = formNames[formID] else { return }
            let speciesName = speciesNames[species] ?? [:]
            // What the `names` table already has in each language.
            let shown = isDefault ? speciesName : FormNames.displayNames(species: speciesName, form: names)
            for lang in names.keys.sorted() {
                guard let code = languages[lang], let (form, full) = names[lang] else { continue }
                let withForm = form.isEmpty ? nil : speciesName[lang].map { "\($0) (\(form))" }
                var candidates: [String] = []
                if !full.isEmpty { candidates.append(full) }
                if let withForm, !full.lowercased().contains(form.lowercased()) || full.isEmpty {
                    candidates.append(withForm)
                    // In English, the form's name before the species', as PokeAPI writes "Zero
                    // Form Palafin": what players type for "Zen Darmanitan" ("Zen Mode
                    // Darmanitan"). (Other languages order a form's words otherwise.)
                    if code == "en", let species = speciesName[lang], !species.isEmpty,
                       !form.lowercased().contains(species.lowercased()) {
                        candidates.append("\(form) \(species)")
                    }
                }
                var seen: Set<String> = shown[lang].map { [$0] } ?? []
                for name in candidates where seen.insert(name).inserted {
                    table.rows.append([kind.rawValue, String(id), slug, code, NameCollector.clean(name)])
                }
            }
        }
        for row in pokemon.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id"), let species = row.int("species_id") else { continue }
            add(kind: .pokemon, id: id, slug: row["identifier"], formID: ownForm[id], species: species, isDefault: row["is_default"] == "1")
            for form in (cosmetic[id] ?? []).sorted(by: { $0.id < $1.id }) {
                add(kind: .form, id: form.id, slug: form.slug, formID: form.id, species: species, isDefault: false)
            }
        }
        return table
    }
}
