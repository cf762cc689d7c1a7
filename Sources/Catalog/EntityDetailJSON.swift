import Corpus

/// The JSON of an entity's details: `show --json` and the server's GET `"entity"`.
extension EntityDetail {
    public var json: String {
        var pairs = JSONText.refPairs(entity)
        pairs.append(("names", JSONText.object(names.map { ($0.language, JSONText.string($0.text)) })))
        switch facts {
        case .pokemon(let p):
            pairs += [
                ("species_id", String(p.speciesID)), ("dex", String(p.speciesID)),
                ("genus", p.genus.map(JSONText.string) ?? "null"),
                ("types", JSONText.array(p.types.map { JSONText.string($0.slug) })),
                ("stats", JSONText.object(zip(Stats.names, p.stats.values).map { ($0, String($1)) } + [("total", String(p.stats.total))])),
                ("abilities", JSONText.array(p.abilities.map { JSONText.object(JSONText.refPairs($0.ability) + [("hidden", JSONText.bool($0.hidden))]) })),
                ("height_dm", String(p.height)), ("weight_hg", String(p.weight)),
                ("color", p.color.map { JSONText.string($0.slug) } ?? "null"),
                ("habitat", p.habitat.map { JSONText.string($0.slug) } ?? "null"),
                ("generation", String(p.generation)),
                ("legendary", JSONText.bool(p.isLegendary)), ("mythical", JSONText.bool(p.isMythical)), ("baby", JSONText.bool(p.isBaby)),
                ("evolution", JSONText.object([
                    ("stages", JSONText.array(p.evolutionStages.map { JSONText.array($0.map(JSONText.ref)) })),
                    ("steps", JSONText.array(p.evolutionSteps.map { step in
                        JSONText.object([("from", JSONText.ref(step.from)), ("into", JSONText.ref(step.into)),
                                         ("method", JSONText.string(step.method))])
                    })),
                ])),
                ("forms", JSONText.array(p.forms.map(JSONText.ref))),
                ("damage_taken", JSONText.matchups(p.matchups)),
                ("shape", p.shape.map { JSONText.string($0.slug) } ?? "null"),
                ("gender_rate", JSONText.number(p.breeding.genderRate)),
                ("egg_groups", JSONText.array(p.breeding.eggGroups.map { JSONText.string($0.slug) })),
                ("hatch_counter", JSONText.number(p.breeding.hatchCounter)),
                ("capture_rate", JSONText.number(p.training.captureRate)),
                ("base_experience", JSONText.number(p.training.baseExperience)),
                ("base_friendship", JSONText.number(p.training.baseFriendship)),
                ("growth_rate", p.training.growthRate.map { JSONText.string($0.slug) } ?? "null"),
                ("ev_yield", JSONText.object(p.training.evYield.map { ($0.stat.slug, String($0.value)) })),
                ("dex_numbers", JSONText.object(p.dexNumbers.map { ($0.pokedex.slug, String($0.number)) })),
            ] + JSONText.prosePairs(p.prose)
        case .move(let m):
            pairs += [
                ("type", JSONText.string(m.type.slug)), ("damage_class", JSONText.string(m.damageClass.slug)),
                ("power", JSONText.number(m.power)), ("accuracy", JSONText.number(m.accuracy)), ("pp", JSONText.number(m.pp)),
                ("priority", String(m.priority)), ("generation", String(m.generation)),
                ("target", m.target.map { JSONText.string($0.slug) } ?? "null"),
                ("effect_chance", JSONText.number(m.effectChance)),
                ("meta", m.meta.map { meta in
                    JSONText.object([
                        ("category", meta.category.map(JSONText.string) ?? "null"), ("ailment", meta.ailment.map(JSONText.string) ?? "null"),
                        ("ailment_chance", String(meta.ailmentChance)), ("flinch_chance", String(meta.flinchChance)),
                        ("crit_rate", String(meta.critRate)), ("drain", String(meta.drain)), ("healing", String(meta.healing)),
                        ("stat_chance", String(meta.statChance)),
                        ("stat_changes", JSONText.object(meta.statChanges.map { ($0.stat, String($0.change)) })),
                        ("min_hits", JSONText.number(meta.minHits)), ("max_hits", JSONText.number(meta.maxHits)),
                        ("min_turns", JSONText.number(meta.minTurns)), ("max_turns", JSONText.number(meta.maxTurns)),
                    ])
                } ?? "null"),
                ("flags", JSONText.array(m.flags.map { JSONText.string($0.slug) })),
                ("machines", JSONText.object(m.machines.map { ($0.label, JSONText.array($0.versionGroups.map { JSONText.string($0.slug) })) })),
            ] + JSONText.prosePairs(m.prose)
        case .item(let i):
            pairs += [
                ("category", JSONText.string(i.category.slug)), ("pocket", JSONText.string(i.pocket.slug)),
                ("cost", JSONText.number(i.cost)), ("fling_power", JSONText.number(i.flingPower)),
                ("flags", JSONText.array(i.flags.map { JSONText.string($0.slug) })),
                ("teaches", JSONText.array(i.teaches.map { teach in
                    JSONText.object([("move", JSONText.ref(teach.move)),
                                     ("version_groups", JSONText.array(teach.versionGroups.map { JSONText.string($0.slug) }))])
                })),
            ] + JSONText.prosePairs(i.prose)
        case .ability(let a):
            pairs += [
                ("generation", String(a.generation)),
                ("pokemon", JSONText.array(a.pokemon.map { JSONText.object(JSONText.refPairs($0.pokemon) + [("hidden", JSONText.bool($0.hidden))]) })),
            ] + JSONText.prosePairs(a.prose)
        case .type(let t):
            pairs += [
                ("generation", String(t.generation)),
                ("damage_dealt", JSONText.matchups(t.attacking)), ("damage_taken", JSONText.matchups(t.defending)),
                ("pokemon_count", String(t.pokemonCount)), ("default_pokemon_count", String(t.defaultPokemonCount)),
                ("pokemon", JSONText.array(t.pokemon.map(JSONText.ref))),
            ]
        }
        return JSONText.object(pairs)
    }
}

extension JSONText {
    static func refPairs(_ r: EntityRef) -> [(String, String)] {
        [("kind", string(r.kind.rawValue)), ("id", String(r.id)), ("slug", string(r.slug)), ("name", string(r.name))]
    }

    public static func ref(_ r: EntityRef) -> String { object(refPairs(r)) }

    /// `prose` (field → text) and `prose_languages` (field → the language it is in).
    static func prosePairs(_ entries: [ProseEntry]) -> [(String, String)] {
        [("prose", object(entries.map { ($0.field, string($0.text)) })),
         ("prose_languages", object(entries.map { ($0.field, string($0.language)) }))]
    }

    /// Type → damage factor in percent.
    static func matchups(_ m: [TypeMatchup]) -> String { object(m.map { ($0.type, String($0.percent)) }) }
}
