import Foundation
import Testing

/// `pokesearch show`, end to end on the bundled corpus.
@Suite struct PokedexShowTests {
    @Test func pikachuPage() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "pikachu"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = run.stdout
        #expect(page.hasPrefix("#25 Pikachu"))
        #expect(page.contains("Mouse Pokémon"))
        #expect(run.lines.contains { $0.hasPrefix("Types") && $0.contains("Electric") })
        #expect(run.lines.contains { $0.hasPrefix("Abilities") && $0.contains("Static") && $0.contains("Lightning Rod (hidden)") })
        #expect(page.contains("Pichu → Pikachu → Raichu"))
        #expect(run.lines.contains { $0.contains("Pikachu → Raichu: Thunder Stone") })
        #expect(run.lines.contains { $0.contains("Pichu → Pikachu: friendship 220") })
        #expect(run.lines.contains { $0.range(of: #"^\s+HP\s+35\s+█+$"#, options: .regularExpression) != nil })
        #expect(run.lines.contains { $0.range(of: #"^\s+Speed\s+90 \+2 EV\s+█+$"#, options: .regularExpression) != nil })
        #expect(run.lines.contains { $0.range(of: #"^\s+Total\s+320$"#, options: .regularExpression) != nil })
        #expect(page.contains("0.4 m (1′04″)"))
        #expect(page.contains("6.0 kg (13.2 lb)"))
        #expect(page.contains("Gigantamax Pikachu"))
        #expect(run.lines.contains { $0.hasPrefix("  x2") && $0.contains("Ground") })
    }

    @Test func charizardMatchups() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "charizard"])
        #expect(run.status == 0, "\(run.stderr)")
        func group(_ label: String) -> String? { run.lines.first { $0.hasPrefix("  \(label) ") } }
        #expect(group("x4")?.contains("Rock") == true)
        #expect(group("x0")?.contains("Ground") == true)
        #expect(group("x1/4")?.contains("Grass") == true)
        #expect(group("x2")?.contains("Rock") == false)
    }

    @Test func displayLanguage() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "pikachu", "--lang", "fr"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Pokémon Souris"))
        #expect(run.lines.contains { $0.hasPrefix("Types") && $0.contains("Électrik") })
        #expect(run.stdout.contains("Paratonnerre (hidden)"))
    }

    @Test func idPrefersThePokemonAndNamesTheOthers() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "25"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("#25 Pikachu"))
        #expect(run.stdout.contains("move:mega-kick"))
        let move = harness.run(["show", "move:25"])
        #expect(move.stdout.hasPrefix("#25 Mega Kick"))
    }

    @Test func move() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "move:thunderbolt"])
        #expect(run.status == 0, "\(run.stderr)")
        for (label, value) in [("Type", "Electric"), ("Class", "special"), ("Power", "90"), ("Accuracy", "100%"), ("PP", "15"), ("Generation", "1")] {
            #expect(run.lines.contains { $0.hasPrefix(label) && $0.hasSuffix(" " + value) }, "\(label) \(value)")
        }
    }

    @Test func typeAbilityAndItem() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let fire = harness.run(["show", "type:fire"])
        #expect(fire.stdout.contains("Damage dealt"))
        let dealt = fire.stdout.components(separatedBy: "Damage taken")
        #expect(dealt.count == 2)
        func group(_ text: String, _ label: String) -> [String] {
            text.split(separator: "\n").first { $0.hasPrefix("  \(label) ") }.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        #expect(Set(group(dealt[0], "x2")) == ["x2", "Bug", "Steel", "Grass", "Ice"])
        #expect(Set(group(dealt[1], "x2")) == ["x2", "Ground", "Rock", "Water"])
        let levitate = harness.run(["show", "levitate"])
        #expect(levitate.lines.contains { $0.hasPrefix("  Gastly ") })
        let stone = harness.run(["show", "Thunder Stone"])
        #expect(stone.lines.contains { $0.hasPrefix("Cost") && $0.contains("3000") })
        #expect(stone.lines.contains { $0.hasPrefix("Category") && $0.contains("Evolution") })
    }

    @Test func ambiguousNameListsTheCandidates() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "metronome"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("move:metronome"))
        #expect(run.stderr.contains("item:metronome"))
        #expect(run.stderr.contains("pokesearch show move:metronome"))
        #expect(harness.run(["show", "item:metronome"]).stdout.hasPrefix("#254 Metronome"))
    }

    @Test func unknownNameSuggests() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "charizzard"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("did you mean pokemon:charizard (Charizard)"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        let nothing = harness.run(["show", "qqqqzzzz"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("nothing is named 'qqqqzzzz'"))
        // A filter is no name: no suggestion drawn from what it matches.
        let filter = harness.run(["show", "hp>100"])
        #expect(filter.status == 1)
        #expect(!filter.stderr.contains("did you mean"))
        #expect(filter.stderr.contains("`pokesearch 'hp>100'`"))
        #expect(harness.run(["show"]).status == 2)
    }

    @Test func namesInOtherLanguagesAndSyntaxLookalikes() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        #expect(harness.run(["show", "Dracaufeu"]).stdout.hasPrefix("#6 Charizard"))
        #expect(harness.run(["show", "ピカチュウ"]).stdout.hasPrefix("#25 Pikachu"))
        #expect(harness.run(["show", "Type: Null"]).stdout.hasPrefix("#772 Type: Null"))
        #expect(harness.run(["show", "mr. mime"]).stdout.hasPrefix("#122 Mr. Mime"))
        #expect(harness.run(["show", "charizard-mega-x"]).stdout.hasPrefix("#6 Mega Charizard X"))
    }

    /// A slug names its document even where the same text folded is another form's whole
    /// name: "zygarde-10" is also "Zygarde (10%)", the German name of the power-construct
    /// form, which comes first in document order.
    @Test func aSlugNamesItsOwnDocument() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        for text in ["zygarde-10", "pokemon:zygarde-10"] {
            let run = harness.run(["show", text, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.jsonLines().first?["slug"] as? String == "zygarde-10", "show \(text)")
        }
        let named = harness.run(["show", "Zygarde (10%)", "--json"])
        #expect(try named.jsonLines().first?["slug"] as? String == "zygarde-10-power-construct")
    }

    @Test(arguments: [("pikachu", "pokemon", "pikachu"), ("25", "pokemon", "pikachu"), ("move:thunderbolt", "move", "thunderbolt"),
                      ("item:metronome", "item", "metronome"), ("levitate", "ability", "levitate"), ("type:fire", "type", "fire")])
    func jsonParses(name: String, kind: String, slug: String) throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", name, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.jsonLines()
        #expect(objects.count == 1)
        #expect(objects.first?["kind"] as? String == kind)
        #expect(objects.first?["slug"] as? String == slug)
    }

    @Test func pikachuJSON() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let object = try #require(try harness.run(["show", "pikachu", "--json"]).jsonLines().first)
        let stats = try #require(object["stats"] as? [String: Int])
        #expect(stats["total"] == 320)
        #expect(stats["speed"] == 90)
        let abilities = try #require(object["abilities"] as? [[String: Any]])
        #expect(abilities.map { $0["slug"] as? String } == ["static", "lightning-rod"])
        #expect(abilities.map { $0["hidden"] as? Bool } == [false, true])
        let evolution = try #require(object["evolution"] as? [String: Any])
        let steps = try #require(evolution["steps"] as? [[String: Any]])
        #expect(steps.contains { ($0["into"] as? [String: Any])?["slug"] as? String == "raichu" && $0["method"] as? String == "Thunder Stone" })
        let taken = try #require(object["damage_taken"] as? [String: Int])
        #expect(taken["ground"] == 200)
        #expect(taken["flying"] == 50)
        #expect((object["names"] as? [String: String])?["ja"] == "ピカチュウ")
    }
}
