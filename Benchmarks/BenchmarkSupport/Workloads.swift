import Corpus
import Folding
import Foundation

/// The kinds of query the benchmark times, each like something a person types.
public enum Workload: String, CaseIterable, Sendable {
    case shortPrefix = "prefix-1-2"
    case prefix = "prefix-3-6"
    case wholeName = "whole-name"
    case accentsStripped = "accents-stripped"
    case accentsAdded = "accents-added"
    case twoTerms = "two-terms"
    case threeTerms = "three-terms"
    case typoInsert = "typo-insert"
    case typoDelete = "typo-delete"
    case typoSubstitute = "typo-substitute"
    case typoTranspose = "typo-transpose"
    case french
    case german
    case japaneseKana = "japanese-kana"
    case japaneseRomaji = "japanese-romaji"
    case korean
    case chinese
    case filters

    /// Whether completion is timed on it too (everything a person types into a search box;
    /// filter syntax is searched, not completed).
    public var isCompleted: Bool { self != .filters }

    /// Workloads whose recall has a goal (typos and foreign names: at least 99% in the top 20).
    public var hasRecallGoal: Bool {
        switch self {
        case .typoInsert, .typoDelete, .typoSubstitute, .typoTranspose,
             .french, .german, .japaneseKana, .japaneseRomaji, .korean, .chinese: return true
        default: return false
        }
    }
}

/// One query and the entity it was made from (`kind:slug`), which recall looks for.
public struct BenchmarkQuery: Equatable, Hashable, Sendable {
    public var workload: Workload
    public var text: String
    public var expected: String

    public init(workload: Workload, text: String, expected: String) {
        self.workload = workload
        self.text = text
        self.expected = expected
    }
}

/// Makes the workloads from a corpus, deterministically: the same corpus and seed give the
/// same queries, in the same order.
public struct WorkloadGenerator: Sendable {
    public static let defaultSeed: UInt64 = 0x706F_6B65_6265_6E63 // "pokebenc"

    /// One searchable thing and its names by language code.
    struct Named: Sendable {
        var kind: Kind
        var slug: String
        var names: [String: String]
        var key: String { "\(kind.rawValue):\(slug)" }
    }

    let seed: UInt64
    /// Entities with names, by kind, in corpus order.
    let entitiesByKind: [Kind: [Named]]
    let pokemonBySlug: [String: Pokemon]
    let speciesByID: [Int: Species]
    let movesBySlug: [String: Move]
    /// English names of types (lower-case) and the first word of abilities', by slug.
    let typeNames: [String: String]
    let abilityNames: [String: String]
    /// Every run of 4 or more Latin letters inside a folded name, compact name,
    /// transliteration or slug: a typo is only a typo if it is none of these.
    let knownSubstrings: Set<String>
    /// How many entities have each folded word in a name: a typo of a word of more than 20
    /// ("unown") cannot bring back a given one of them.
    let wordOwners: [String: Int]

    public init(corpus: Corpus, seed: UInt64 = WorkloadGenerator.defaultSeed) {
        self.seed = seed
        var named: [String: Named] = [:]
        var order: [String] = []
        var known: [String] = []
        // Which entities have each folded name and each folded word, in any language.
        var sharing: [String: Set<String>] = [:], owners: [String: Set<String>] = [:]
        var foldedNames: [String: String] = [:] // "kind:slug language" → folded name
        for name in corpus.names {
            let slugWords = name.slug.replacingOccurrences(of: "-", with: " ")
            let folded = Folding.fold(name.text)
            known += [folded, Folding.compact(folded), slugWords]
            if let translit = Folding.transliterate(name.text) { known += [translit, Folding.compact(translit)] }
            let key = "\(name.kind):\(name.slug)"
            sharing[folded, default: []].insert(key)
            for word in Folding.words(folded) { owners[String(word), default: []].insert(key) }
            guard let kind = Kind(rawValue: name.kind) else { continue }
            if named[key] == nil {
                named[key] = Named(kind: kind, slug: name.slug, names: [:])
                order.append(key)
            }
            if named[key]?.names[name.language] == nil {
                named[key]?.names[name.language] = name.text
                foldedNames["\(key) \(name.language)"] = folded
            }
        }
        // A name that folds like the names of more than 20 entities ("Unown ?" and "Unown")
        // cannot find a given one of them in the top 20: such names make no queries.
        for key in order {
            named[key]!.names = named[key]!.names.filter { sharing[foldedNames["\(key) \($0.key)"] ?? "", default: []].count <= 20 }
        }
        wordOwners = owners.mapValues(\.count)
        var byKind: [Kind: [Named]] = [:]
        for key in order { byKind[named[key]!.kind, default: []].append(named[key]!) }
        entitiesByKind = byKind
        pokemonBySlug = Dictionary(corpus.pokemon.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        speciesByID = Dictionary(corpus.species.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        movesBySlug = Dictionary(corpus.moves.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        var types: [String: String] = [:]
        for entity in byKind[.type] ?? [] { types[entity.slug] = entity.names["en"].map { $0.lowercased() } ?? entity.slug }
        typeNames = types
        var abilities: [String: String] = [:]
        for entity in byKind[.ability] ?? [] {
            abilities[entity.slug] = Folding.words(Folding.fold(entity.names["en"] ?? entity.slug)).first.map(String.init)
        }
        abilityNames = abilities
        knownSubstrings = Self.substrings(of: known, minimumLength: 4)
    }

    /// `perWorkload` queries of every workload, grouped by workload in declaration order.
    public func queries(perWorkload: Int) -> [BenchmarkQuery] {
        Workload.allCases.flatMap { queries($0, count: perWorkload) }
    }

    public func queries(_ workload: Workload, count: Int) -> [BenchmarkQuery] {
        var random = SplitMix64.stream(workload.rawValue, seed: seed)
        var seen = Set<String>()
        var result: [BenchmarkQuery] = []
        // Some picks cannot make a query (a name too short for a typo, no French name):
        // they are skipped, within a bound so a corpus without such names ends the loop.
        for _ in 0..<(count * 50) where result.count < count {
            let entity = pickEntity(&random)
            guard let text = make(workload, from: entity, &random)?.trimmingCharacters(in: .whitespaces),
                  !text.isEmpty, seen.insert(text).inserted else { continue }
            result.append(BenchmarkQuery(workload: workload, text: text, expected: entity.key))
        }
        return result
    }

    /// An entity, Pokémon most often, as people search them.
    func pickEntity(_ random: inout SplitMix64) -> Named {
        let roll = random.below(100)
        let kind: Kind = roll < 60 ? .pokemon : roll < 80 ? .move : roll < 90 ? .ability : .item
        let pool = entitiesByKind[kind] ?? entitiesByKind[.pokemon] ?? []
        return random.pick(pool)
    }

    func make(_ workload: Workload, from entity: Named, _ random: inout SplitMix64) -> String? {
        let english = entity.names["en"]
        switch workload {
        case .shortPrefix: return english.map { String($0.prefix(random.int(in: 1...2))) }
        case .prefix:
            guard let english, english.count >= 3 else { return nil }
            return String(english.prefix(random.int(in: 3...min(6, english.count))))
        case .wholeName: return english
        case .accentsStripped:
            let latin = ["fr", "de", "es", "it", "en"].compactMap { entity.names[$0] }.filter { Self.stripAccents($0) != $0 }
            return latin.isEmpty ? nil : Self.stripAccents(random.pick(latin))
        case .accentsAdded: return english.flatMap { Self.addAccent($0, &random) }
        case .twoTerms, .threeTerms: return typeQuery(entity, terms: workload == .twoTerms ? 2 : 3, &random)
        case .typoInsert, .typoDelete, .typoSubstitute, .typoTranspose: return typo(workload, english, &random)
        case .french: return entity.names["fr"]
        case .german: return entity.names["de"]
        case .japaneseKana:
            guard let kana = entity.names["ja-hrkt"] else { return nil }
            // Half of them typed in hiragana: the contract matches kana in both.
            return random.chance(1, in: 2) ? Self.hiragana(kana) : kana
        case .japaneseRomaji: return entity.names["ja-roma"]
        case .korean: return entity.names["ko"]
        case .chinese: return entity.names[random.chance(1, in: 2) ? "zh-hans" : "zh-hant"]
        case .filters: return filterQuery(entity, &random)
        }
    }

    // MARK: Multi-term and filter queries

    /// "fire dragon", "fire char", "fire dragon char": the Pokémon's types and a prefix of its name.
    func typeQuery(_ entity: Named, terms: Int, _ random: inout SplitMix64) -> String? {
        guard entity.kind == .pokemon, let pokemon = pokemonBySlug[entity.slug], let english = entity.names["en"] else { return nil }
        let types = pokemon.types.compactMap { typeNames[$0] }
        let word = Folding.words(Folding.fold(english)).first.map(String.init) ?? ""
        guard !types.isEmpty, word.count >= 3 else { return nil }
        let prefix = String(word.prefix(random.int(in: 3...min(6, word.count))))
        if terms == 2 { return types.count == 2 && random.chance(1, in: 2) ? types.joined(separator: " ") : "\(random.pick(types)) \(prefix)" }
        if types.count == 2 { return "\(types[0]) \(types[1]) \(prefix)" }
        // One type: the first word of an ability's name is the third term ("fire char blaze").
        guard let ability = pokemon.abilities.first.flatMap({ abilityNames[$0] }) else { return nil }
        return "\(types[0]) \(prefix) \(ability)"
    }

    /// Filters the entity satisfies: `type:fire gen:1`, `hp>=78 type:fire`, `bst>=534`…
    func filterQuery(_ entity: Named, _ random: inout SplitMix64) -> String? {
        if entity.kind == .move, let move = movesBySlug[entity.slug] {
            if let power = move.power, random.chance(1, in: 2) { return "kind:move type:\(move.type) power>=\(power)" }
            return "move:\(Folding.words(Folding.fold(entity.names["en"] ?? entity.slug)).first ?? "") type:\(move.type)"
        }
        guard entity.kind == .pokemon, let pokemon = pokemonBySlug[entity.slug], let type = pokemon.types.first,
              let species = speciesByID[pokemon.speciesID] else { return nil }
        let word = Folding.words(Folding.fold(entity.names["en"] ?? entity.slug)).first.map(String.init) ?? ""
        let stats = pokemon.stats
        switch random.below(7) {
        case 0: return "type:\(type) gen:\(species.generation)"
        case 1: return "type:\(type) hp>=\(stats.hp)"
        case 2: return word.count >= 3 ? "\(word.prefix(random.int(in: 3...min(5, word.count)))) type:\(type)" : nil
        case 3: return "bst>=\(stats.total) type:\(type)"
        case 4: return "atk>=\(stats.attack) gen:\(species.generation)"
        case 5: return species.color.map { "color:\($0) \(word.prefix(3))" }
        default: return "id:\(max(1, pokemon.id - 20))..\(pokemon.id + 20) type:\(type)"
        }
    }

    // MARK: Typos

    /// One or two edits of one kind to a one-word English name, within the contract's budget
    /// (1 edit from 4 characters, 2 from 8, for the name and the typo alike). A result that
    /// is itself a substring of some name is not a typo (it has exact hits of its own) and
    /// is rejected.
    func typo(_ workload: Workload, _ english: String?, _ random: inout SplitMix64) -> String? {
        guard let english else { return nil }
        let word = Folding.fold(english)
        guard word.count >= 5, word.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), wordOwners[word, default: 0] <= 20 else { return nil }
        var letters = Array(word)
        let edits = letters.count >= 9 && random.chance(1, in: 3) ? 2 : 1
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        var done = 0
        while done < edits {
            switch workload {
            case .typoInsert: letters.insert(random.pick(alphabet), at: random.below(letters.count + 1))
            case .typoDelete: letters.remove(at: random.below(letters.count))
            case .typoSubstitute:
                let at = random.below(letters.count)
                var replacement = random.pick(alphabet)
                while replacement == letters[at] { replacement = random.pick(alphabet) }
                letters[at] = replacement
            default:
                let at = random.below(letters.count - 1)
                guard letters[at] != letters[at + 1] else { return nil }
                letters.swapAt(at, at + 1)
            }
            done += 1
        }
        let result = String(letters)
        let budget = { (length: Int) in length >= 8 ? 2 : length >= 4 ? 1 : 0 }
        guard edits <= budget(min(word.count, result.count)), !knownSubstrings.contains(result) else { return nil }
        return result
    }

    /// Every substring of at least `minimumLength` letters a–z of the texts' letter runs.
    static func substrings(of texts: [String], minimumLength: Int) -> Set<String> {
        var runs = Set<[UInt8]>()
        for text in texts {
            for run in text.utf8.split(whereSeparator: { $0 < 0x61 || $0 > 0x7A }) where run.count >= minimumLength {
                runs.insert(Array(run))
            }
        }
        var result = Set<String>()
        for run in runs {
            for start in 0...(run.count - minimumLength) {
                for end in (start + minimumLength)...run.count { result.insert(String(decoding: run[start..<end], as: UTF8.self)) }
            }
        }
        return result
    }

    // MARK: Script and accent helpers

    /// The text with its combining marks removed ("Flabébé" → "Flabebe").
    public static func stripAccents(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark { scalars.append(scalar) }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    static let accented: [Character: [Character]] = [
        "a": ["á", "à", "â", "ä"], "e": ["é", "è", "ê", "ë"], "i": ["í", "î", "ï"], "o": ["ó", "ô", "ö"], "u": ["ú", "ù", "û", "ü"],
    ]

    /// The name with one of its vowels accented ("pikachu" → "pikáchu").
    static func addAccent(_ text: String, _ random: inout SplitMix64) -> String? {
        var characters = Array(text)
        let vowels = characters.indices.filter { accented[characters[$0]] != nil }
        guard !vowels.isEmpty else { return nil }
        let at = random.pick(vowels)
        characters[at] = random.pick(accented[characters[at]]!)
        return String(characters)
    }

    /// Katakana written as hiragana (the block is 0x60 lower).
    static func hiragana(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x30A1...0x30F6).contains(scalar.value), let kana = Unicode.Scalar(scalar.value - 0x60) {
                scalars.append(kana)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}

/// The committed query file: `workload TAB query TAB kind:slug`, one header line.
public enum QueryFile {
    public static let header = "workload\tquery\texpected"

    public static func encode(_ queries: [BenchmarkQuery]) -> String {
        header + "\n" + queries.map { "\($0.workload.rawValue)\t\($0.text)\t\($0.expected)\n" }.joined()
    }

    public static func decode(_ text: String, file: String) throws -> [BenchmarkQuery] {
        var queries: [BenchmarkQuery] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if offset == 0 {
                guard line == header else { throw BenchmarkError.badQueryFile("\(file):1: expected the header '\(header)'") }
                continue
            }
            if line.isEmpty { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let workload = Workload(rawValue: String(fields[0])), !fields[1].isEmpty,
                  fields[2].contains(":") else {
                throw BenchmarkError.badQueryFile("\(file):\(offset + 1): expected a known workload, a query and kind:slug")
            }
            queries.append(BenchmarkQuery(workload: workload, text: String(fields[1]), expected: String(fields[2])))
        }
        return queries
    }
}

public enum BenchmarkError: Error, CustomStringConvertible, Equatable {
    case badQueryFile(String)
    case badReport(String)
    case usage(String)
    case failed(String)

    public var description: String {
        switch self {
        case .badQueryFile(let message): return "bad query file: \(message); rewrite it with --regenerate-queries"
        case .badReport(let message): return message
        case .usage(let message): return message
        case .failed(let message): return message
        }
    }
}
