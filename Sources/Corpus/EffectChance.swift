import Foundation

/// A move effect's prose with the move's effect chance in it. PokeAPI wrote the chance as a
/// placeholder ("Has a $effect_chance% chance to paralyze the target."), which the live
/// API's effect entries still hold; the CSVs say "Has a chance to paralyze the target."
/// where it stood (French "A une chance de paralyser la cible."). Both get the number: the
/// placeholder is replaced by the chance (— when the move has none), and those phrases
/// name it when the move has one.
enum EffectChance {
    static let placeholder = "$effect_chance"

    static func fill(_ text: String, chance: Int?, language: String) -> String {
        var filled = text.replacingOccurrences(of: placeholder, with: chance.map(String.init) ?? "—")
        guard let chance else { return filled }
        for (phrase, replacement) in phrases(chance)[language] ?? [] {
            filled = filled.replacingOccurrences(of: phrase, with: replacement)
        }
        return filled
    }

    /// Each language's phrases for "a chance" where the CSVs dropped the placeholder, with
    /// the chance put in (a space before each, so that "a chance" is not the end of
    /// another word).
    static func phrases(_ chance: Int) -> [String: [(String, String)]] {
        [
            "en": [(" a chance to ", " a \(chance)% chance to "), (" a separate chance to ", " a separate \(chance)% chance to ")],
            // (French puts a no-break space before %.)
            "fr": [(" une chance de ", " \(chance)\u{A0}% de chances de "), (" une chance d'", " \(chance)\u{A0}% de chances d'"),
                   (" une chance d’", " \(chance)\u{A0}% de chances d’"),
                   (" séparée de chances d", " séparée de \(chance)\u{A0}% de chances d")],
        ]
    }
}
