import Folding
import Query

/// Which characters of a shown name the query's terms matched, to highlight them. The terms
/// are the parser's (filters and negated terms highlight nothing), folded as the index
/// folds; each is looked for in the name folded character by character with its spaces and
/// punctuation left out (so `mrmime` lights "Mr. Mime" and `pokeball` "Poké Ball"), at the
/// start of a word when it occurs there. A name matched only by a typo or through its
/// transliteration has nothing to light.
struct MatchHighlighter {
    /// The terms' folded text without spaces, as scalars.
    let needles: [[Unicode.Scalar]]

    init(query: String) {
        var needles: [[Unicode.Scalar]] = []
        for clause in (try? QueryParser.parse(query, lenient: true))?.clauses ?? [] where !clause.negated {
            guard case .term(let term) = clause.clause else { continue }
            if case .wildcard(let pieces) = term.shape {
                for case .literal(let scalars) in pieces {
                    needles.append(scalars.compactMap(Unicode.Scalar.init).filter { $0 != " " })
                }
            } else {
                needles.append(Folding.compact(term.text).unicodeScalars.map { $0 })
            }
        }
        self.needles = needles.filter { !$0.isEmpty }
    }

    /// One flag a character of `name`: whether a term matched it.
    func matched(in name: String) -> [Bool] {
        let folded = FoldedCharacters(name)
        var lit = [Bool](repeating: false, count: folded.characterCount)
        for needle in needles {
            guard let start = folded.bestOccurrence(of: needle) else { continue }
            // The characters between, a space or a dot left out of the folding, too.
            for character in folded.source[start]...folded.source[start + needle.count - 1] { lit[character] = true }
        }
        return lit
    }
}

/// A name folded one character at a time, its spaces left out, each folded scalar knowing
/// the character it came from and whether a word starts there.
struct FoldedCharacters {
    var scalars: [Unicode.Scalar] = []
    /// The name's character each scalar came from.
    var source: [Int] = []
    var wordStart: [Bool] = []
    let characterCount: Int

    init(_ name: String) {
        var count = 0
        var afterBreak = true
        for character in name {
            let folded = Folding.fold(String(character))
            if folded.first == " " { afterBreak = true }
            var any = false
            for scalar in folded.unicodeScalars where scalar != " " {
                scalars.append(scalar)
                source.append(count)
                wordStart.append(afterBreak && !any)
                any = true
            }
            if !any || folded.last == " " { afterBreak = true } else { afterBreak = false }
            count += 1
        }
        characterCount = count
    }

    /// Where `needle` occurs: its first occurrence at a word's start, else its first.
    func bestOccurrence(of needle: [Unicode.Scalar]) -> Int? {
        guard needle.count <= scalars.count else { return nil }
        var first: Int?
        for start in 0...(scalars.count - needle.count) where scalars[start] == needle[0] {
            guard scalars[start..<start + needle.count].elementsEqual(needle) else { continue }
            if wordStart[start] { return start }
            if first == nil { first = start }
        }
        return first
    }
}
