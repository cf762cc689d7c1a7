import Foundation

/// Pokémon Showdown's nicknames (its `data/aliases.ts`, MIT) as synonyms of PokeAPI's
/// entities: `ttar` → pokemon:tyranitar, `landot` → pokemon:landorus-therian. Showdown names
/// a target by its own name ("Landorus-Therian", "Necrozma-Dusk-Mane"), which is matched
/// to an entity of the kind its section of the file is about through Showdown's ids (lower
/// case, letters and digits only) of PokeAPI's slugs and English names. Battle formats
/// (targets in `[`brackets`]`) are left out; targets matched to nothing (Pokéstar Studios,
/// Create-a-Pokémon, formes PokeAPI lacks) go into a report.
public enum ShowdownAliases {
    /// One `alias: "Target"` line.
    struct Entry {
        var alias: String
        var target: String
        var section: String
    }

    /// The synonyms `aliasesText` gives over the corpus `tables`, and the report of the
    /// entries it could not map.
    public static func synonyms(from aliasesText: String, corpus tables: CorpusTables) throws -> (synonyms: [Synonym], report: String) {
        let targets = try Targets(tables)
        var synonyms: [Synonym] = []
        var unmapped: [String] = []
        for entry in entries(aliasesText) {
            if entry.target.hasPrefix("[") { continue }
            guard let entity = targets.entity(named: entry.target, kind: kindOf(section: entry.section)) else {
                unmapped.append("\(entry.alias)\t\(entry.target)\t\(entry.section)")
                continue
            }
            // "shelloseast" → "Shellos": Showdown files a cosmetic forme under its species,
            // PokeAPI has it as an entity of its own, whose slug the nickname already is.
            if let own = targets.entity(withID: showdownID(entry.alias)), own.slug != entity.slug || own.kind != entity.kind {
                unmapped.append("\(entry.alias)\t\(entry.target)\t\(entry.section): names \(own.kind):\(own.slug)")
                continue
            }
            // "taurospaldeafire", "tr14metronome": another thing's name inside a nickname run
            // together would make it a name holding "fire" or "metronome" for every search
            // of them.
            let variants = hyphenated(entry.alias, target: entry.target)
            if variants.isEmpty, let inside = targets.otherID(inside: showdownID(entry.alias), besides: entity) {
                unmapped.append("\(entry.alias)\t\(entry.target)\t\(entry.section): holds \(inside) inside")
                continue
            }
            // Showdown's Japanese names are names in romaji, as foreign as PokeAPI's.
            let source = entry.section.hasPrefix("japanese") ? "showdown-japanese" : "showdown"
            for term in [entry.alias] + variants {
                synonyms.append(Synonym(term: term, kind: entity.kind, slug: entity.slug, source: source))
            }
        }
        let report = """
            # Pokémon Showdown aliases (data/aliases.ts) whose target pokesearch-corpus found no
            # PokeAPI entity for, that are themselves another entity's slug run together
            # (": names kind:slug"), or that hold another type's, move's, item's or ability's
            # slug inside without a hyphen to set it apart (": holds kind:slug inside"):
            # alias, Showdown's target, the section of aliases.ts.
            # Battle formats are left out without being listed here.

            """ + unmapped.map { $0 + "\n" }.joined()
        return (synonyms, report)
    }

    /// The entity kind a section of aliases.ts is about, from its comment ("// abilities").
    static func kindOf(section: String) -> String {
        if section.contains("abilit") { return "ability" }
        if section.contains("item") { return "item" }
        if section.contains("move") { return "move" }
        return "pokemon"
    }

    /// A nickname of a forme written the way players type it with its hyphen: "landot"
    /// (Landorus-Therian) is also "lando-t", "zardx" (Charizard-Mega-X) "zard-x", when the
    /// nickname ends with the start of the forme's last word.
    static func hyphenated(_ alias: String, target: String) -> [String] {
        let parts = target.split(separator: "-")
        guard parts.count > 1, let last = parts.last.map({ showdownID(String($0)) }), !last.isEmpty else { return [] }
        for length in stride(from: min(last.count, alias.count - 2), through: 1, by: -1) {
            let head = alias.dropLast(length), tail = alias.suffix(length)
            if last.hasPrefix(tail) && head.count >= 2 { return ["\(head)-\(tail)"] }
        }
        return []
    }

    /// Showdown's id of a name: lower case, without diacritics, letters and digits only.
    static func showdownID(_ text: String) -> String {
        String(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// The entries of aliases.ts in file order, each with the section comment above it.
    static func entries(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var section = ""
        // `CompoundWordNames` ("Char-mander", "Thunder-bolt") is not a list of nicknames: as
        // names, its parts would be whole words ("char" a word of Charmander's name) and
        // outrank the names they only start, where the contract ranks a split word below
        // the query as typed. It is left out.
        var compound = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("export") { compound = line.hasPrefix("export const CompoundWordNames"); continue }
            if line.hasPrefix("//") {
                section = String(line.dropFirst(2)).components(separatedBy: "---")[0].trimmingCharacters(in: .whitespaces).lowercased()
                continue
            }
            if compound { continue }
            guard let colon = keyEnd(line) else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let alias = quoted(key[...])?.text ?? key
            guard let target = quoted(line[line.index(after: colon)...])?.text, !alias.isEmpty else { continue }
            entries.append(Entry(alias: alias, target: target, section: section))
        }
        return entries
    }

    /// Where an entry's key ends: its colon outside quotes.
    static func keyEnd(_ line: String) -> String.Index? {
        var quote: Character? = nil
        for index in line.indices {
            let c = line[index]
            if let open = quote { if c == open { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ":" { return index }
        }
        return nil
    }

    /// The first string literal in `text` (double or single quotes, `\` escapes).
    static func quoted(_ text: Substring) -> (text: String, end: String.Index)? {
        guard let start = text.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return nil }
        let quote = text[start]
        var value = ""
        var index = text.index(after: start)
        while index < text.endIndex {
            let c = text[index]
            if c == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                value.append(text[index])
            } else if c == quote {
                return (value, index)
            } else {
                value.append(c)
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// PokeAPI's entities by Showdown id: of their slugs, English names and form names.
    struct Targets {
        struct Candidate { var kind: String; var slug: String; var rank: Int }
        /// kind → Showdown id → the best candidate (a slug before a name, a default form first).
        /// Pokémon and cosmetic forms share one kind here (`bucket`): Showdown's Pokémon
        /// section names both.
        var byID: [String: [String: Candidate]] = [:]
        /// Where names' ranks start: after every slug's.
        static let nameRank = 2_000_000
        /// Pokémon and cosmetic forms that are not their species' default, by Showdown id of
        /// their slug, with their kind.
        var formIDs: [(id: String, kind: String, slug: String)] = []
        /// The same forms' slugs as words ("meowstic", "female"), in corpus order.
        var formSlugWords: [(words: [String], kind: String, slug: String)] = []

        /// The Showdown ids of the slugs of every type, move, item and ability (not Pokémon:
        /// a forme's nickname holds its species), of four letters or more.
        var otherIDs: [(id: String, kind: String, slug: String)] = []

        init(_ tables: CorpusTables) throws {
            for (stem, kind) in [("types", "type"), ("moves", "move"), ("items", "item"), ("abilities", "ability")] {
                let table = try tables.table(stem)
                let column = try table.index(of: "slug", in: "\(stem).tsv")
                otherIDs += table.rows.map { (showdownID($0[column]), kind, $0[column]) }.filter { $0.0.count >= 4 }
            }
            let pokemon = try tables.table("pokemon")
            let slugColumn = try pokemon.index(of: "slug", in: "pokemon.tsv")
            let defaultColumn = try pokemon.index(of: "is_default", in: "pokemon.tsv")
            let formOfColumn = try pokemon.index(of: "form_of", in: "pokemon.tsv")
            for (order, row) in pokemon.rows.enumerated() {
                let isDefault = row[defaultColumn] == "1" && row[formOfColumn].isEmpty
                let kind = row[formOfColumn].isEmpty ? "pokemon" : "form"
                add(kind, id: showdownID(row[slugColumn]), slug: row[slugColumn], rank: isDefault ? order : 1_000_000 + order)
                if !isDefault {
                    formIDs.append((showdownID(row[slugColumn]), kind, row[slugColumn]))
                    formSlugWords.append((row[slugColumn].split(separator: "-").map(String.init), kind, row[slugColumn]))
                }
            }
            for (stem, kind) in [("moves", "move"), ("items", "item"), ("abilities", "ability")] {
                let table = try tables.table(stem)
                let column = try table.index(of: "slug", in: "\(stem).tsv")
                for (order, row) in table.rows.enumerated() { add(kind, id: showdownID(row[column]), slug: row[column], rank: order) }
            }
            // English names rank after every slug: a name repeated by forms names the first.
            for stem in ["names", "form_names"] {
                let table = try tables.table(stem)
                let kind = try table.index(of: "kind", in: "\(stem).tsv"), slug = try table.index(of: "slug", in: "\(stem).tsv")
                let lang = try table.index(of: "lang", in: "\(stem).tsv"), name = try table.index(of: "name", in: "\(stem).tsv")
                for (order, row) in table.rows.enumerated() where row[lang] == "en" {
                    add(row[kind], id: showdownID(row[name]), slug: row[slug], rank: Self.nameRank + order)
                }
            }
        }

        mutating func add(_ kind: String, id: String, slug: String, rank: Int) {
            guard !id.isEmpty else { return }
            let bucket = Self.bucket(kind)
            if let known = byID[bucket]?[id], known.rank <= rank { return }
            byID[bucket, default: [:]][id] = Candidate(kind: kind, slug: slug, rank: rank)
        }

        /// The kind `byID` keeps candidates of `kind` under.
        static func bucket(_ kind: String) -> String { kind == "form" ? "pokemon" : kind }

        /// The first type, or move, item or ability of another kind than a Pokémon or item
        /// `target`, whose id is inside `id` after its start, as "kind:slug". (A move's
        /// nickname may hold another move's name, "tspikes"; an ability's a move's, "mbounce".)
        func otherID(inside id: String, besides target: Candidate) -> String? {
            let rest = id.dropFirst()
            return otherIDs.first { other in
                (other.kind == "type" || other.kind != target.kind && (Self.bucket(target.kind) == "pokemon" || target.kind == "item"))
                    && rest.contains(other.id)
            }.map { "\($0.kind):\($0.slug)" }
        }

        /// The entity whose slug is `id` once run together, of any kind.
        func entity(withID id: String) -> Candidate? {
            byID.keys.sorted().compactMap { byID[$0]?[id] }.first { $0.rank < Self.nameRank }
        }

        /// The entity Showdown's `name` is, of `kind` (its section's) if any, else of the one
        /// other kind that has it.
        func entity(named name: String, kind: String) -> Candidate? {
            let id = showdownID(name)
            if let found = byID[Self.bucket(kind)]?[id] { return found }
            if kind == "pokemon", let forme = forme(words: name.split(separator: "-").map { showdownID(String($0)) }) ?? forme(id) {
                return forme
            }
            let others = byID.keys.sorted().compactMap { byID[$0]?[id] }
            return others.count == 1 ? others[0] : nil
        }

        /// A forme Showdown names with fewer or shorter words than PokeAPI: the form of the
        /// same species whose slug has each of Showdown's words in order at the start of one
        /// of its words, with the fewest words ("Meowstic-F" → meowstic-female, "Urshifu-Gmax"
        /// → urshifu-single-strike-gmax, "Greninja-Bond" → greninja-battle-bond).
        func forme(words: [String]) -> Candidate? {
            guard words.count > 1, let species = words.first else { return nil }
            var best: (words: Int, kind: String, slug: String)? = nil
            for form in formSlugWords where form.words.first == species {
                var next = 1
                for word in form.words.dropFirst() where next < words.count && word.hasPrefix(words[next]) { next += 1 }
                if next == words.count && form.words.count < best?.words ?? .max { best = (form.words.count, form.kind, form.slug) }
            }
            return best.map { Candidate(kind: $0.kind, slug: $0.slug, rank: 0) }
        }

        /// A forme Showdown names otherwise than PokeAPI: the one form whose id starts with
        /// Showdown's ("taurospaldeaaqua" → tauros-paldea-aqua-breed), else the longest form
        /// id Showdown's starts with ("necrozmaduskmane" → necrozma-dusk).
        func forme(_ id: String) -> Candidate? {
            let longer = formIDs.filter { $0.id.hasPrefix(id) }
            if longer.count == 1 { return Candidate(kind: longer[0].kind, slug: longer[0].slug, rank: 0) }
            let shorter = formIDs.filter { id.hasPrefix($0.id) }.max { $0.id.count < $1.id.count }
            return shorter.map { Candidate(kind: $0.kind, slug: $0.slug, rank: 0) }
        }
    }
}

/// The form words shipped as synonyms, each group's words interchangeable in the names of
/// Pokémon: what players write for a regional or other form beside PokeAPI's word for it.
public enum FormWords {
    /// The first word of a group is the one the others point to in synonyms.tsv.
    static let groups: [[String]] = [
        ["alola", "alolan"], ["galar", "galarian"], ["hisui", "hisuian"], ["paldea", "paldean"],
        ["gmax", "gigantamax"], ["female", "f", "♀"], ["male", "m", "♂"], ["therian", "t"], ["incarnate", "i"],
    ]

    public static var synonyms: [Synonym] {
        groups.flatMap { group in
            group.dropFirst().map { Synonym(term: $0, kind: Synonym.wordKind, slug: group[0], source: "form-word") }
        }
    }
}

/// corpus/synonyms.tsv.
public enum Synonyms {
    /// The synonyms of a synonyms table, in its order (a row with an empty field left out).
    public static func rows(of table: Table) -> [Synonym] {
        guard let term = table.columns.firstIndex(of: "term"), let kind = table.columns.firstIndex(of: "kind"),
              let slug = table.columns.firstIndex(of: "slug"), let source = table.columns.firstIndex(of: "source") else { return [] }
        return table.rows.compactMap { row in
            row[term].isEmpty || row[kind].isEmpty || row[slug].isEmpty ? nil
                : Synonym(term: row[term], kind: row[kind], slug: row[slug], source: row[source])
        }
    }

    /// The synonyms as a table, each (term, kind, slug) once, in the order given.
    public static func table(_ synonyms: [Synonym]) -> Table {
        var table = Table(columns: CorpusTables.optionalStems["synonyms"] ?? [])
        var seen = Set<[String]>()
        for synonym in synonyms {
            let term = NameCollector.clean(synonym.term)
            guard !term.isEmpty, seen.insert([term.lowercased(), synonym.kind, synonym.slug]).inserted else { continue }
            table.rows.append([term, synonym.kind, synonym.slug, synonym.source])
        }
        return table
    }
}
