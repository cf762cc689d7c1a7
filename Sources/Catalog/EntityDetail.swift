import Corpus
import Index

/// A reference to another entity, with its name in the display language.
public struct EntityRef: Sendable, Equatable {
    public var kind: Kind
    public var id: Int
    public var slug: String
    public var name: String
}

extension EntityRef {
    /// Document `doc` of `index`, named in `language`.
    public init(_ doc: Int, in index: IndexSnapshot, language: Int) {
        self.init(kind: index.kind(doc), id: index.id(doc), slug: index.slug(doc), name: index.displayName(doc, language: language))
    }
}

/// A vocabulary value (type, colour, habitat, category…): its slug and display name.
public struct NamedValue: Sendable, Equatable {
    public var slug: String
    public var name: String
}

/// Everything `show` (and the server's GET) tells about one entity, names already in the
/// display language. Front ends only lay it out.
public struct EntityDetail: Sendable {
    public var entity: EntityRef
    /// Every name, as (language code, text), the display language's first.
    public var names: [(language: String, text: String)]
    public var facts: Facts

    public enum Facts: Sendable {
        case pokemon(PokemonFacts)
        case move(MoveFacts)
        case item(ItemFacts)
        case ability(AbilityFacts)
        case type(TypeFacts)
    }
}

public struct PokemonFacts: Sendable {
    public var speciesID: Int
    public var genus: String?
    public var types: [NamedValue]
    public var stats: Stats
    public var abilities: [(ability: EntityRef, hidden: Bool)]
    /// Decimetres and hectograms, as PokeAPI gives them.
    public var height: Int
    public var weight: Int
    public var color: NamedValue?
    public var habitat: NamedValue?
    public var generation: Int
    public var isLegendary, isMythical, isBaby: Bool
    /// The evolution family by stage (each species' default Pokémon).
    public var evolutionStages: [[EntityRef]]
    public var evolutionSteps: [EvolutionMethod]
    /// The species' other Pokémon (megas, regional and cosmetic forms).
    public var forms: [EntityRef]
    /// Each attacking type's damage against this Pokémon.
    public var matchups: [TypeMatchup]
    public var breeding = Breeding()
    public var training = Training()
    public var shape: NamedValue?
    /// Regional Pokédex numbers, in Pokédex order.
    public var dexNumbers: [(pokedex: NamedValue, number: Int)] = []
    /// Form descriptions and (from the live API) Pokédex entries.
    public var prose: [ProseEntry] = []
}

/// A Pokémon's breeding facts (its species').
public struct Breeding: Sendable {
    /// Chance of being female in eighths; -1 genderless; nil unknown.
    public var genderRate: Int?
    public var eggGroups: [NamedValue] = []
    /// Egg cycles: steps to hatch are about 257 times this (255 before Generation 8).
    public var hatchCounter: Int?
}

/// A Pokémon's training facts.
public struct Training: Sendable {
    public var evYield: [(stat: NamedValue, value: Int)] = []
    public var captureRate: Int?
    public var baseFriendship: Int?
    public var baseExperience: Int?
    public var growthRate: NamedValue?
}

/// One piece of prose in the language asked for, or in English when the data has none
/// there (`language` says which it is).
public struct ProseEntry: Sendable, Equatable {
    /// `short`, `effect`, `flavor`, `forms`, `dex` (or `fling` for an item's fling effect).
    public var field: String
    public var language: String
    public var text: String
}

/// One evolution and how it happens, in words.
public struct EvolutionMethod: Sendable {
    public var from: EntityRef
    public var into: EntityRef
    public var method: String
}

public struct MoveFacts: Sendable {
    public var type: NamedValue
    public var damageClass: NamedValue
    public var power, accuracy, pp: Int?
    public var priority: Int
    public var generation: Int
    public var target: NamedValue?
    public var effectChance: Int?
    public var meta: MoveMeta?
    public var ailment: NamedValue?
    public var statChanges: [(stat: NamedValue, change: Int)] = []
    public var flags: [NamedValue] = []
    /// Its machines: item slug and the version groups it has that number in, newest last.
    public var machines: [MachineNumber] = []
    public var prose: [ProseEntry] = []
}

/// A TM/TR/HM number and the version groups it is in.
public struct MachineNumber: Sendable, Equatable {
    /// `TM24`, `TR08`, `HM01`.
    public var label: String
    public var versionGroups: [NamedValue]
}

public struct ItemFacts: Sendable {
    public var category: NamedValue
    public var pocket: NamedValue
    public var cost: Int?
    public var flingPower: Int?
    public var flags: [NamedValue] = []
    /// For a TM/TR/HM: the move it teaches in each version group.
    public var teaches: [(move: EntityRef, versionGroups: [NamedValue])] = []
    /// Effects, and the fling effect as field `fling`.
    public var prose: [ProseEntry] = []
}

public struct AbilityFacts: Sendable {
    public var generation: Int
    /// The Pokémon (not cosmetic forms) that can have it.
    public var pokemon: [(pokemon: EntityRef, hidden: Bool)]
    public var prose: [ProseEntry] = []
}

public struct TypeFacts: Sendable {
    public var generation: Int
    /// Its damage against each type, and each type's damage against it.
    public var attacking: [TypeMatchup]
    public var defending: [TypeMatchup]
    /// Pokémon with this type: all of them (forms included), and default forms only.
    public var pokemonCount: Int
    public var defaultPokemonCount: Int
    /// The Pokémon with this type (default forms).
    public var pokemon: [EntityRef] = []
}

/// Builds entity details from the typed corpus and the index: the whole corpus, or just
/// what one entity's details need with names read on demand (`DetailReader`).
public struct Pokedex: Sendable {
    public let corpus: Corpus
    public let index: IndexSnapshot
    public let names: CorpusNames
    public let chart: TypeChart

    public init(corpus: Corpus, index: IndexSnapshot) {
        self.init(corpus: corpus, index: index, names: CorpusNames(corpus.names))
    }

    public init(corpus: Corpus, index: IndexSnapshot, names: CorpusNames) {
        self.corpus = corpus
        self.index = index
        self.names = names
        chart = TypeChart(corpus: corpus)
    }

    /// A reference to document `doc`.
    public func ref(_ doc: Int, language: Int) -> EntityRef {
        EntityRef(doc, in: index, language: language)
    }

    /// The details of document `doc`, or nil if the corpus lacks it.
    public func detail(_ doc: Int, language: Int) -> EntityDetail? {
        let entity = ref(doc, language: language)
        let code = Language.codes[language]
        func order(_ language: String) -> Int { language == code ? -1 : Language.index(of: language) ?? Language.codes.count }
        let names = index.names(doc).sorted { order($0.language) < order($1.language) }
        let facts: EntityDetail.Facts?
        switch entity.kind {
        // A cosmetic form's page is its Pokémon's facts (with the form's own types).
        case .pokemon, .form: facts = pokemonFacts(entity, language: language).map { .pokemon($0) }
        case .move: facts = corpus.moves.first { $0.id == entity.id && $0.slug == entity.slug }.map { .move(moveFacts($0, language: language)) }
        case .item: facts = corpus.items.first { $0.id == entity.id && $0.slug == entity.slug }.map { .item(itemFacts($0, language: language)) }
        case .ability: facts = corpus.abilities.first { $0.id == entity.id && $0.slug == entity.slug }.map { .ability(abilityFacts($0, language: language)) }
        case .type: facts = corpus.types.first { $0.id == entity.id && $0.slug == entity.slug }.map { .type(typeFacts($0, language: language)) }
        }
        return facts.map { EntityDetail(entity: entity, names: names, facts: $0) }
    }

    func term(_ kind: String, _ slug: String, _ language: Int) -> NamedValue {
        NamedValue(slug: slug, name: names.name(kind, slug, language: language))
    }

    func pokemonRef(_ p: Pokemon, _ language: Int) -> EntityRef {
        EntityRef(kind: p.kind, id: p.id, slug: p.slug, name: names.name(p.kind.rawValue, p.slug, language: language))
    }

    func pokemonFacts(_ entity: EntityRef, language: Int) -> PokemonFacts? {
        guard let p = corpus.pokemon.first(where: { $0.id == entity.id && $0.slug == entity.slug }),
              let species = corpus.species.first(where: { $0.id == p.speciesID }) else { return nil }
        let bySlug = Dictionary(corpus.pokemon.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let defaults = EvolutionChain.defaultPokemon(corpus)
        func speciesRef(_ slug: String) -> EntityRef {
            let pokemonSlug = defaults[slug] ?? slug
            return bySlug[pokemonSlug].map { pokemonRef($0, language) } ?? EntityRef(kind: .pokemon, id: 0, slug: pokemonSlug, name: names.name("pokemon", pokemonSlug, language: language))
        }
        func formRef(_ slug: String) -> EntityRef { bySlug[slug].map { pokemonRef($0, language) } ?? speciesRef(slug) }
        let chain = EvolutionChain(species: species, corpus: corpus)
        let abilities = p.abilities.map { (EntityRef(kind: .ability, id: abilityID($0), slug: $0, name: names.name("ability", $0, language: language)), false) }
            + (p.hiddenAbility.map { [(EntityRef(kind: .ability, id: abilityID($0), slug: $0, name: names.name("ability", $0, language: language)), true)] } ?? [])
        var facts = PokemonFacts(
            speciesID: species.id, genus: names.lookup("genus", species.slug, language: language),
            types: p.types.map { term("type", $0, language) }, stats: p.stats, abilities: abilities,
            height: p.height, weight: p.weight,
            color: species.color.map { term("color", $0, language) }, habitat: species.habitat.map { term("habitat", $0, language) },
            generation: p.generation ?? species.generation, isLegendary: species.isLegendary, isMythical: species.isMythical, isBaby: species.isBaby,
            evolutionStages: chain.stages.map { $0.map(speciesRef) },
            evolutionSteps: chain.steps.map { step in
                EvolutionMethod(from: formRef(step.fromPokemon), into: formRef(step.pokemon),
                                method: step.method(names: names, language: language))
            },
            forms: corpus.pokemon.filter { $0.speciesID == p.speciesID && $0.slug != p.slug }
                .sorted(by: Self.formOrder).map { pokemonRef($0, language) },
            matchups: chart.defensive(p.types))
        addDetails(to: &facts, p, species, language: language)
        return facts
    }

    /// Default forms first, then by id.
    static func formOrder(_ a: Pokemon, _ b: Pokemon) -> Bool { a.isDefault != b.isDefault ? a.isDefault : a.id < b.id }

    func abilityID(_ slug: String) -> Int { corpus.abilities.first { $0.slug == slug }?.id ?? 0 }

    func moveFacts(_ m: Move, language: Int) -> MoveFacts {
        var facts = MoveFacts(type: term("type", m.type, language), damageClass: term("damage-class", m.damageClass, language),
                              power: m.power, accuracy: m.accuracy, pp: m.pp, priority: m.priority, generation: m.generation)
        addDetails(to: &facts, m, language: language)
        return facts
    }

    func itemFacts(_ i: Item, language: Int) -> ItemFacts {
        var facts = ItemFacts(category: term("item-category", i.category, language), pocket: term("item-pocket", i.pocket, language),
                              cost: i.cost, flingPower: i.flingPower)
        addDetails(to: &facts, i, language: language)
        return facts
    }

    func abilityFacts(_ a: Ability, language: Int) -> AbilityFacts {
        let holders = corpus.pokemon.filter { $0.formOf == nil && ($0.abilities.contains(a.slug) || $0.hiddenAbility == a.slug) }
            .sorted(by: Self.formOrder)
        return AbilityFacts(generation: a.generation,
                            pokemon: holders.map { (pokemonRef($0, language), !$0.abilities.contains(a.slug)) },
                            prose: prose("ability", a.id, a.slug, language: language))
    }

    func typeFacts(_ t: PokemonType, language: Int) -> TypeFacts {
        let holders = corpus.pokemon.filter { $0.types.contains(t.slug) }
        return TypeFacts(generation: t.generation, attacking: chart.offensive(t.slug), defending: chart.defensive([t.slug]),
                         pokemonCount: holders.count, defaultPokemonCount: holders.filter { $0.isDefault && $0.formOf == nil }.count,
                         pokemon: holders.filter { $0.isDefault && $0.formOf == nil }.sorted { $0.id < $1.id }.map { pokemonRef($0, language) })
    }
}
