import Foundation

// The parts of PokeAPI's REST responses that pokesearch reads (shapes: ../shared/pokeapi-openapi.yml).
// Decoding into these types validates a response; encoding them again gives the trimmed body
// kept in `http_cache` (a full `pokemon` response is ~100 times larger than what we use).

/// A link to another resource: `{"name": "static", "url": ".../ability/9/"}`.
struct APIRef: Codable, Sendable {
    var name: String?
    var url: String

    /// The id at the end of the url (`.../ability/9/` → 9).
    var id: Int? { url.split(separator: "/").last.flatMap { Int($0) } }
}

struct APIName: Codable, Sendable {
    var name: String
    var language: APIRef
}

struct APIGenus: Codable, Sendable {
    var genus: String
    var language: APIRef
}

/// One page of a list endpoint.
struct APIPage: Codable, Sendable {
    var count: Int
    var next: String?
    var results: [APIRef]
}

struct APITypeSlot: Codable, Sendable {
    var slot: Int
    var type: APIRef
}

struct APIPokemon: Codable, Sendable {
    struct AbilitySlot: Codable, Sendable {
        var ability: APIRef?
        var is_hidden: Bool
        var slot: Int
    }
    struct Stat: Codable, Sendable {
        var base_stat: Int
        var effort: Int?
        var stat: APIRef
    }
    var id: Int
    var name: String
    var species: APIRef
    var is_default: Bool
    var height: Int
    var weight: Int
    var types: [APITypeSlot]
    var abilities: [AbilitySlot]
    var stats: [Stat]
    var forms: [APIRef]
    var base_experience: Int?
}

struct APISpecies: Codable, Sendable {
    var id: Int
    var name: String
    var generation: APIRef
    var evolves_from_species: APIRef?
    var evolution_chain: APIRef?
    var color: APIRef?
    var habitat: APIRef?
    var shape: APIRef?
    var is_baby: Bool
    var is_legendary: Bool
    var is_mythical: Bool
    var capture_rate: Int?
    var gender_rate: Int?
    var names: [APIName]
    var genera: [APIGenus]
    var base_happiness: Int?
    var hatch_counter: Int?
    var growth_rate: APIRef?
    var egg_groups: [APIRef]?
    var pokedex_numbers: [DexNumber]?
    var flavor_text_entries: [APIText]?
    var form_descriptions: [APIText]?

    struct DexNumber: Codable, Sendable {
        var entry_number: Int
        var pokedex: APIRef
    }
}

/// A piece of prose in one language: a flavour text (`flavor_text`, or `text` for items), an
/// effect entry (`effect`, `short_effect`) or a form description (`description`).
struct APIText: Codable, Sendable {
    var flavor_text: String?
    var text: String?
    var effect: String?
    var short_effect: String?
    var description: String?
    var language: APIRef
}

struct APIForm: Codable, Sendable {
    var id: Int
    var name: String
    var form_name: String
    var is_default: Bool
    var is_battle_only: Bool
    var is_mega: Bool
    var pokemon: APIRef
    var types: [APITypeSlot]
    /// The full name of the form ("Wash Rotom"): the CSV's `pokemon_name`.
    var names: [APIName]
    /// The form's own name ("Wash"): the CSV's `form_name`.
    var form_names: [APIName]
}

struct APIMove: Codable, Sendable {
    var id: Int
    var name: String
    var generation: APIRef
    var type: APIRef
    var damage_class: APIRef?
    var power: Int?
    var accuracy: Int?
    var pp: Int?
    var priority: Int
    var names: [APIName]
    var target: APIRef?
    var effect_chance: Int?
    var meta: Meta?
    var stat_changes: [StatChange]?
    var effect_entries: [APIText]?
    var flavor_text_entries: [APIText]?

    struct Meta: Codable, Sendable {
        var ailment: APIRef?
        var category: APIRef?
        var min_hits, max_hits, min_turns, max_turns: Int?
        var drain, healing, crit_rate, ailment_chance, flinch_chance, stat_chance: Int?
    }
    struct StatChange: Codable, Sendable {
        var change: Int
        var stat: APIRef
    }
}

struct APIItem: Codable, Sendable {
    struct Price: Codable, Sendable {
        var currency: APIRef?
        var purchase_price: Int?
        var sell_price: Int?
    }
    var id: Int
    var name: String
    var category: APIRef
    /// The shape before PokeAPI#1431: one price.
    var cost: Int?
    /// The shape since: prices per version group, empty for most items.
    var prices: [Price]?
    var fling_power: Int?
    var names: [APIName]
    var fling_effect: APIRef?
    var attributes: [APIRef]?
    var effect_entries: [APIText]?
    var flavor_text_entries: [APIText]?

    /// `cost` where the response has it; else the last Poké Dollar purchase price listed.
    var effectiveCost: Int? {
        if let cost { return cost }
        return prices?.last { ($0.currency?.name ?? "poke-dollar") == "poke-dollar" && $0.purchase_price != nil }?.purchase_price
    }
}

struct APIAbility: Codable, Sendable {
    var id: Int
    var name: String
    var generation: APIRef
    var is_main_series: Bool
    var names: [APIName]
    var effect_entries: [APIText]?
    var flavor_text_entries: [APIText]?
}

struct APIType: Codable, Sendable {
    struct Relations: Codable, Sendable {
        var double_damage_to: [APIRef]
        var half_damage_to: [APIRef]
        var no_damage_to: [APIRef]
    }
    var id: Int
    var name: String
    var generation: APIRef
    var move_damage_class: APIRef?
    var damage_relations: Relations
    var names: [APIName]
}

struct APIEvolutionChain: Codable, Sendable {
    struct Link: Codable, Sendable {
        var species: APIRef
        var evolution_details: [APIEvolutionDetail]
        var evolves_to: [Link]
    }
    var id: Int
    var chain: Link
}

struct APIEvolutionDetail: Codable, Sendable {
    var trigger: APIRef?
    var is_default: Bool?
    var item, held_item, known_move, known_move_type, party_species, party_type, trade_species, used_move: APIRef?
    var location, region, base_form, evolved_form: APIRef?
    var gender, min_level, min_happiness, min_beauty, min_affection, relative_physical_stats: Int?
    var min_move_count, min_steps, min_damage_taken: Int?
    var time_of_day: String?
    var needs_overworld_rain, turn_upside_down, needs_multiplayer, near_special_rock: Bool?

    /// The conditions as the CSV converter writes them: `name=value` in the column order of
    /// PokeAPI's pokemon_evolution.csv, slugs for named things, ids for locations, regions
    /// and forms, zero and false left out (except a minimum level of 0).
    var conditions: String {
        func flag(_ value: Bool?) -> String? { value == true ? "1" : nil }
        func number(_ value: Int?) -> String? { value.map(String.init) }
        let fields: [(String, String?)] = [
            ("item", item?.name), ("min_level", number(min_level)), ("gender", number(gender)),
            ("location", number(location?.id)), ("held_item", held_item?.name), ("time_of_day", time_of_day),
            ("known_move", known_move?.name), ("known_move_type", known_move_type?.name),
            ("min_happiness", number(min_happiness)), ("min_beauty", number(min_beauty)),
            ("min_affection", number(min_affection)), ("relative_physical_stats", number(relative_physical_stats)),
            ("party_species", party_species?.name), ("party_type", party_type?.name), ("trade_species", trade_species?.name),
            ("needs_overworld_rain", flag(needs_overworld_rain)), ("turn_upside_down", flag(turn_upside_down)),
            ("needs_multiplayer", flag(needs_multiplayer)), ("near_special_rock", flag(near_special_rock)),
            ("region", number(region?.id)), ("base_form", number(base_form?.id)), ("evolved_form", number(evolved_form?.id)),
            ("used_move", used_move?.name), ("min_move_count", number(min_move_count)), ("min_steps", number(min_steps)),
            ("min_damage_taken", number(min_damage_taken)),
        ]
        return fields.compactMap { label, value in
            guard let value, !value.isEmpty, value != "0" || label == "min_level" else { return nil }
            return "\(label)=\(value)"
        }.joined(separator: ";")
    }
}

/// A small vocabulary entry (colour, habitat, item category or pocket, damage class,
/// generation): its names and, for an item category, its pocket.
struct APIVocabulary: Codable, Sendable {
    var id: Int
    var name: String
    var names: [APIName]?
    var pocket: APIRef?
}

extension Decodable where Self: Encodable {
    /// Decodes a response body, or says in one phrase why it is not the JSON expected.
    static func decode(_ body: [UInt8], url: String) throws -> Self {
        do {
            return try JSONDecoder().decode(Self.self, from: Data(body))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            let start = String(decoding: body.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            throw SyncError.badBody(url: url, reason: body.isEmpty ? "empty response, expected JSON"
                                    : "the response is not valid JSON (\(body.count) bytes, starting '\(start)')")
        } catch let error as DecodingError {
            throw SyncError.badBody(url: url, reason: "the JSON is not a PokeAPI response as expected (\(Self.describe(error)))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "bad value at '\(path(context))'"
        @unknown default: return "\(error)"
        }
    }

    /// The body kept in the cache: only the fields above.
    func encoded() throws -> [UInt8] { Array(try JSONEncoder().encode(self)) }
}
