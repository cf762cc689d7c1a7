import Foundation
import Testing
import Terminal

/// The Pokédex page (`show`, `show --json`) over real entities: the facts the CSVs have,
/// prose, missing values as —, and lines no wider than the terminal.
@Suite struct PokedexPageTests {
    func field(_ run: PokedexHarness.Run, _ label: String) -> String? {
        run.lines.first { $0.hasPrefix(label + " ") }.map { String($0.dropFirst(label.count)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func pikachuFacts() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "pikachu"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(field(run, "Gender") == "50% female, 50% male")
        #expect(field(run, "Egg groups") == "Field, Fairy")
        #expect(field(run, "Capture rate") == "190")
        #expect(field(run, "EV yield") == "2 Speed")
        #expect(field(run, "Friendship") == "70")
        #expect(field(run, "Growth rate") == "Medium")
        #expect(field(run, "Regional dex")?.hasPrefix("Kanto 25 ") == true)
        let json = try #require(try harness.run(["show", "pikachu", "--json"]).jsonLines().first)
        #expect(json["gender_rate"] as? Int == 4 && json["capture_rate"] as? Int == 190)
        #expect(json["egg_groups"] as? [String] == ["ground", "fairy"])
        #expect((json["ev_yield"] as? [String: Int]) == ["speed": 2])
        #expect((json["dex_numbers"] as? [String: Int])?["kanto"] == 25)
    }

    @Test func thunderbolt() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "move:thunderbolt"])
        #expect(field(run, "Ailment") == "10% chance to cause Paralysis")
        #expect(field(run, "Target") == "Selected Pokémon")
        #expect(field(run, "TM24")?.hasPrefix("Red / Blue, Yellow") == true)
        #expect(field(run, "TR08") == "Sword / Shield")
        #expect(run.stdout.contains("Has a 10% chance to paralyze the target."))
        let json = try #require(try harness.run(["show", "move:thunderbolt", "--json"]).jsonLines().first)
        #expect(json["target"] as? String == "selected-pokemon" && json["effect_chance"] as? Int == 10)
        #expect((json["meta"] as? [String: Any])?["ailment"] as? String == "paralysis")
        #expect((json["machines"] as? [String: [String]])?["TM24"]?.first == "red-blue")
        #expect((json["prose"] as? [String: String])?["short"] == "Has a 10% chance to paralyze the target.")
    }

    @Test func missingValuesAreDashesNeverZero() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let bulwark = harness.run(["show", "move:burning-bulwark"])
        #expect(field(bulwark, "Power") == "—" && field(bulwark, "Accuracy") == "—")
        let ball = harness.run(["show", "master-ball"])
        #expect(field(ball, "Cost") == "not sold")
        let json = try #require(try harness.run(["show", "master-ball", "--json"]).jsonLines().first)
        #expect(json["cost"] is NSNull)
    }

    @Test func abilityPokemonInColumnsWithHiddenMarked() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let levitate = harness.run(["show", "levitate"], environment: ["COLUMNS": "80"])
        #expect(levitate.stdout.contains("Pokémon: 44"))
        #expect(levitate.stdout.contains("immune to Ground-type moves"))
        #expect(levitate.lines.contains { $0.hasPrefix("  Gastly ") && $0.contains("Haunter") })
        let rod = harness.run(["show", "lightning-rod"])
        #expect(rod.lines.contains { $0.contains("Pikachu *") })
        #expect(rod.stdout.contains("marked *"))
        #expect(!rod.lines.contains { $0.contains("Rhyhorn *") })
    }

    @Test func evolutionConditionsInFull() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let tyrogue = harness.run(["show", "tyrogue"])
        #expect(tyrogue.lines.contains { $0.contains("Tyrogue → Hitmontop: level 20, Attack = Defense") })
        #expect(tyrogue.lines.contains { $0.contains("Tyrogue → Hitmonlee: level 20, Attack > Defense") })
        let shedinja = harness.run(["show", "shedinja"], environment: ["COLUMNS": "200"])
        #expect(shedinja.lines.contains { $0.contains("Nincada → Shedinja: appears when Nincada evolves into Ninjask, with an empty party slot and a Poké Ball in the bag") })
    }

    @Test func aFormsOwnGeneration() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        #expect(field(harness.run(["show", "charizard-mega-x"]), "Generation") == "6")
        #expect(field(harness.run(["show", "charizard"]), "Generation") == "1")
    }

    @Test func proseInTheDisplayLanguageElseEnglishSayingSo() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let french = harness.run(["show", "move:thunderbolt", "--lang", "fr"])
        #expect(french.stdout.contains("A 10\u{A0}% de chances de paralyser la cible."))
        #expect(!french.stdout.contains("chance to paralyze"))
        // Italian has no move effects: English, and the page says so.
        let italian = harness.run(["show", "move:thunderbolt", "--lang", "it"])
        #expect(italian.stdout.contains("Has a 10% chance to paralyze the target."))
        #expect(italian.lines.contains { $0.hasPrefix("Effect (English: none in Italian)") })
    }

    @Test func itemTeachesAndFlags() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let tm = harness.run(["show", "item:tm24"], environment: ["COLUMNS": "200"])
        #expect(tm.lines.contains { $0.hasPrefix("Thunderbolt ") && $0.contains("Red / Blue") })
        let ball = harness.run(["show", "master-ball"])
        #expect(ball.stdout.contains("Consumable"))
    }

    @Test func typeListsItsPokemon() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let fairy = harness.run(["show", "type:fairy"])
        #expect(fairy.lines.contains { $0.contains("Clefairy") })
    }

    /// (Each page in each language at each width in a full run; otherwise each page at each
    /// width, in one of the languages, another at the next width.)
    @Test(.tags(.exhaustive), arguments: [40, 80, 120])
    func noLineIsWiderThanTheTerminal(columns: Int) throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let languages = ["en", "ja", "fr"], turn = columns / 40
        for (n, entity) in ["pikachu", "move:thunderbolt", "master-ball", "levitate", "type:fairy", "tyrogue", "shedinja", "item:tm24",
                            "charizard-mega-x", "unown", "lightning-rod"].enumerated() {
            for language in Exhaustive.sample(languages.indices.map { languages[($0 + n + turn) % languages.count] }, oneIn: 3) {
                let run = harness.run(["show", entity, "--lang", language], environment: ["COLUMNS": String(columns)])
                #expect(run.status == 0, "\(entity): \(run.stderr)")
                for line in run.lines { #expect(DisplayWidth.of(line) <= columns, "\(entity) at \(columns): '\(line)'") }
            }
        }
    }
}
