/// The kinds of entity pokesearch finds, in the order mixed results rank them. `form` is
/// a cosmetic form (a `pokemon_forms` row with no `pokemon` row of its own: `unown-j`,
/// `shellos-east`), numbered by its pokemon-form id: those ids overlap the Pokémon's, so
/// only `(kind, id)` names one entity.
public enum Kind: String, CaseIterable, Sendable, Codable, Comparable {
    case pokemon, form, move, ability, item, type

    /// Its place in `allCases` (how the index stores it). A switch, not a search of
    /// `allCases`: that array is made anew at each use, and results are read by the
    /// thousand a second.
    @inlinable public var rank: Int {
        switch self {
        case .pokemon: 0
        case .form: 1
        case .move: 2
        case .ability: 3
        case .item: 4
        case .type: 5
        }
    }

    /// The kind of a rank (see `rank`); nil past the last.
    @inlinable public init?(rank: Int) {
        switch rank {
        case 0: self = .pokemon
        case 1: self = .form
        case 2: self = .move
        case 3: self = .ability
        case 4: self = .item
        case 5: self = .type
        default: return nil
        }
    }

    public static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
}

/// The languages PokeAPI carries names in, in a fixed order (their index is stored).
public enum Language {
    public static let codes = ["en", "fr", "de", "es", "it", "ja", "ja-hrkt", "ja-roma", "ko", "zh-hans", "zh-hant",
                               "cs", "pt-br", "es-419"]
    public static func index(of code: String) -> Int? { codes.firstIndex(of: code.lowercased()) }

    /// The codes of names that are no language's and match alike whatever the display
    /// language: an entity's slug (`rotom-wash`) and its synonyms (`ttar`, a user's own,
    /// a name with a form word swapped, "Alola Raticate"). They are searched, never shown.
    public static let slug = "slug"
    public static let synonym = "synonym"
    public static let neutralCodes: Set<String> = [slug, synonym]
}

/// An alternative name from corpus/synonyms.tsv or a user: `term` also finds the entity
/// `kind`:`slug`; of kind `word`, the word `term` stands for the word `slug` in every
/// Pokémon's name and the other way round (form words: "alola" and "alolan").
public struct Synonym: Sendable, Equatable, Hashable {
    public var term: String
    public var kind: String
    public var slug: String
    /// Where it comes from: `showdown` (Pokémon Showdown's nicknames), `showdown-japanese`
    /// (its Japanese names in romaji), `form-word`, `pokesearch` (`CuratedSynonyms`), or `user`.
    public var source: String

    public static let wordKind = "word"

    /// The language of the name it gives its entity: `ja-roma` for Showdown's Japanese names
    /// ("derubiru"), which rank as PokeAPI's romaji names do; else none (`Language.synonym`).
    public var language: String { source == "showdown-japanese" ? "ja-roma" : Language.synonym }

    public init(term: String, kind: String, slug: String, source: String) {
        self.term = term
        self.kind = kind
        self.slug = slug
        self.source = source
    }
}

public struct Stats: Sendable, Equatable, Codable {
    public var hp, attack, defense, specialAttack, specialDefense, speed: Int
    public var total: Int { hp + attack + defense + specialAttack + specialDefense + speed }
    public static let names = ["hp", "attack", "defense", "special-attack", "special-defense", "speed"]
    public var values: [Int] { [hp, attack, defense, specialAttack, specialDefense, speed] }
}

public struct Pokemon: Sendable, Equatable {
    /// PokeAPI's pokemon id; for a cosmetic form (no pokemon row of its own), its pokemon-form id.
    public var id: Int
    public var slug: String
    public var speciesID: Int
    /// For a cosmetic form: the pokemon id it is a form of.
    public var formOf: Int?
    /// `.form` for a cosmetic form, else `.pokemon`: the kind of entity it is.
    public var kind: Kind { formOf == nil ? .pokemon : .form }
    public var isDefault: Bool
    public var form: String
    public var isMega: Bool
    public var isBattleOnly: Bool
    /// Decimetres and hectograms, as PokeAPI gives them.
    public var height: Int
    public var weight: Int
    public var types: [String]
    public var abilities: [String]
    public var hiddenAbility: String?
    public var stats: Stats
    /// The generation of the version group that introduced this form (nil: the species').
    public var generation: Int? = nil
    public var baseExperience: Int? = nil
    /// Effort values given when defeated: stat slug and points, in stat order.
    public var evYield: [(stat: String, value: Int)] = []

    public static func == (a: Pokemon, b: Pokemon) -> Bool {
        a.id == b.id && a.slug == b.slug && a.speciesID == b.speciesID && a.formOf == b.formOf && a.isDefault == b.isDefault
            && a.form == b.form && a.isMega == b.isMega && a.isBattleOnly == b.isBattleOnly && a.height == b.height
            && a.weight == b.weight && a.types == b.types && a.abilities == b.abilities && a.hiddenAbility == b.hiddenAbility
            && a.stats == b.stats && a.generation == b.generation && a.baseExperience == b.baseExperience
            && a.evYield.map(\.stat) == b.evYield.map(\.stat) && a.evYield.map(\.value) == b.evYield.map(\.value)
    }
}

public struct Species: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var generation: Int
    public var evolvesFrom: String?
    public var evolutionChain: Int
    public var color: String?
    public var habitat: String?
    public var shape: String?
    public var isBaby, isLegendary, isMythical: Bool
    public var captureRate: Int?
    /// Chance of being female in eighths; -1 genderless.
    public var genderRate: Int?
    public var baseFriendship: Int? = nil
    public var hatchCounter: Int? = nil
    public var growthRate: String? = nil
    public var eggGroups: [String] = []
    /// Regional Pokédex numbers: Pokédex slug and number, in Pokédex order.
    public var dexNumbers: [(pokedex: String, number: Int)] = []

    public static func == (a: Species, b: Species) -> Bool {
        a.id == b.id && a.slug == b.slug && a.generation == b.generation && a.evolvesFrom == b.evolvesFrom
            && a.evolutionChain == b.evolutionChain && a.color == b.color && a.habitat == b.habitat && a.shape == b.shape
            && a.isBaby == b.isBaby && a.isLegendary == b.isLegendary && a.isMythical == b.isMythical
            && a.captureRate == b.captureRate && a.genderRate == b.genderRate && a.baseFriendship == b.baseFriendship
            && a.hatchCounter == b.hatchCounter && a.growthRate == b.growthRate && a.eggGroups == b.eggGroups
            && a.dexNumbers.map(\.pokedex) == b.dexNumbers.map(\.pokedex) && a.dexNumbers.map(\.number) == b.dexNumbers.map(\.number)
    }
}

public struct Evolution: Sendable, Equatable {
    public var species: String
    public var trigger: String
    /// Condition name → value ("min_level" → "16", "item" → "thunder-stone").
    public var conditions: [(key: String, value: String)]
    public var isDefault: Bool

    public static func == (a: Evolution, b: Evolution) -> Bool {
        a.species == b.species && a.trigger == b.trigger && a.isDefault == b.isDefault
            && a.conditions.map(\.key) == b.conditions.map(\.key) && a.conditions.map(\.value) == b.conditions.map(\.value)
    }
}

public struct Move: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var generation: Int
    public var type: String
    public var damageClass: String
    public var power, accuracy, pp: Int?
    public var priority: Int
    public var target: String? = nil
    /// Its effect (PokeAPI's move_effect id), whose prose it has.
    public var effect: Int? = nil
    public var effectChance: Int? = nil
    public var meta: MoveMeta? = nil
    public var flags: [String] = []
}

/// A move's battle metadata (PokeAPI's move_meta): what it does besides damage.
public struct MoveMeta: Sendable, Equatable {
    public var category: String?
    public var ailment: String?
    public var ailmentChance, flinchChance, critRate, drain, healing, statChance: Int
    /// Stat slug and stages, in stat order.
    public var statChanges: [StatChange]
    public var minHits, maxHits, minTurns, maxTurns: Int?
}

public struct StatChange: Sendable, Equatable {
    public var stat: String
    public var change: Int
}

/// A TM, TR or HM of a version group and the move it teaches.
public struct Machine: Sendable, Equatable {
    public var move: String
    public var versionGroup: String
    /// The machine's item slug (`tm24`, `hm01`, `tr12`).
    public var item: String
}

/// One piece of prose: `kind` is `move-effect`, `ability`, `item`, `species` (a form
/// description), `fling-effect` (or, from the live API, `move`); `field` is `short`, `effect`, `flavor`, `forms` (or, from the live
/// API, `dex` for a species' Pokédex entry).
public struct Prose: Sendable, Equatable {
    public var kind: String
    public var id: Int
    public var slug: String
    public var language: String
    public var field: String
    public var text: String

    public init(kind: String, id: Int, slug: String, language: String, field: String, text: String) {
        self.kind = kind
        self.id = id
        self.slug = slug
        self.language = language
        self.field = field
        self.text = text
    }
}

public struct Item: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var category: String
    public var pocket: String
    public var cost: Int?
    public var flingPower: Int?
    public var flingEffect: Int? = nil
    public var flags: [String] = []
}

public struct Ability: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var generation: Int
    public var isMainSeries: Bool
}

public struct PokemonType: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var generation: Int
    public var damageClass: String?
}

/// One name of one thing in one language. `kind` is an entity kind or a vocabulary
/// (`genus`, `color`, `habitat`, `item-category`, `damage-class`, `generation`, …).
public struct Name: Sendable, Equatable {
    public var kind: String
    /// The id of the thing named within its kind (a pokemon-form id for a `form`).
    public var id: Int
    public var slug: String
    public var language: String
    public var text: String

    public init(kind: String, id: Int, slug: String, language: String, text: String) {
        self.kind = kind
        self.id = id
        self.slug = slug
        self.language = language
        self.text = text
    }
}

/// The whole bundled (or converted, or synced) data set, typed.
public struct Corpus: Sendable {
    public var pokemon: [Pokemon]
    public var species: [Species]
    public var evolutions: [Evolution]
    public var moves: [Move]
    public var items: [Item]
    public var abilities: [Ability]
    public var types: [PokemonType]
    /// Attacking type → defending type → damage factor in percent (0, 50, 100, 200).
    public var typeEfficacy: [String: [String: Int]]
    /// Vocabulary group → id → slug (colours, habitats, generations, …).
    public var vocabulary: [String: [Int: String]]
    public var names: [Name]
    /// More names of Pokémon and forms, searched but never displayed: a form's full name
    /// beside its species name ("Zero Form Palafin"), the species name with the form's
    /// ("Cherrim (Overcast Form)").
    public var formNames: [Name]
    /// Shipped synonyms (Showdown's nicknames, form words).
    public var synonyms: [Synonym]
    public var machines: [Machine] = []
    public var prose: [Prose] = []

    public init(pokemon: [Pokemon], species: [Species], evolutions: [Evolution], moves: [Move], items: [Item],
                abilities: [Ability], types: [PokemonType], typeEfficacy: [String: [String: Int]],
                vocabulary: [String: [Int: String]], names: [Name], formNames: [Name] = [], synonyms: [Synonym] = []) {
        self.pokemon = pokemon
        self.species = species
        self.evolutions = evolutions
        self.moves = moves
        self.items = items
        self.abilities = abilities
        self.types = types
        self.typeEfficacy = typeEfficacy
        self.vocabulary = vocabulary
        self.names = names
        self.formNames = formNames
        self.synonyms = synonyms
    }
}

/// One searchable thing and its document number (its position in ranking order:
/// kind, default Pokémon forms first, then id).
public struct Entity: Sendable, Equatable {
    public var doc: Int
    public var kind: Kind
    public var id: Int
    public var slug: String
    public init(doc: Int, kind: Kind, id: Int, slug: String) {
        self.doc = doc
        self.kind = kind
        self.id = id
        self.slug = slug
    }
}
