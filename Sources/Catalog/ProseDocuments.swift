import Corpus
import Dispatch
import Folding
import Locking

extension Documents {
    /// Each document's prose in each language, its fields one per line, folded for the prose
    /// index: a move's effect (its effect chance filled in) and flavour texts, an ability's
    /// effects and flavour text, an item's effects, and for every Pokémon of a species its
    /// form description and Pokédex entries.
    static func prose(_ corpus: Corpus, entities: [Entity]) -> [(doc: Int, language: String, text: String)] {
        var docOf: [String: Int] = [:]
        var docsOfSpecies: [Int: [Int]] = [:]
        let speciesOf = Dictionary(corpus.pokemon.map { ("\($0.id):\($0.slug)", $0.speciesID) }, uniquingKeysWith: { a, _ in a })
        for e in entities {
            docOf["\(e.kind.rawValue):\(e.id):\(e.slug)"] = e.doc
            if e.kind == .pokemon || e.kind == .form, let species = speciesOf["\(e.id):\(e.slug)"] { docsOfSpecies[species, default: []].append(e.doc) }
        }
        var pieces: [(doc: Int, language: String, text: String)] = []
        // (Grouped by kind and id once: looking through all the prose for each move was most of it.)
        let moveProse = Dictionary(grouping: corpus.prose.filter { $0.kind == "move" || $0.kind == "move-effect" }) { "\($0.kind):\($0.id)" }
        for move in corpus.moves {
            guard let doc = docOf["move:\(move.id):\(move.slug)"] else { continue }
            let candidates = (moveProse["move:\(move.id)"] ?? []) + (move.effect.flatMap { moveProse["move-effect:\($0)"] } ?? [])
            for p in corpus.prose(ofMove: move, among: candidates) { pieces.append((doc, p.language, p.text)) }
        }
        for p in corpus.prose {
            switch p.kind {
            case "ability", "item":
                if let doc = docOf["\(p.kind):\(p.id):\(p.slug)"] { pieces.append((doc, p.language, p.text)) }
            case "species":
                for doc in docsOfSpecies[p.id] ?? [] { pieces.append((doc, p.language, p.text)) }
            default:
                break // moves' above; fling effects belong to no document
            }
        }
        // One row per document and language, in document order.
        var grouped: [String: Int] = [:]
        var rows: [(doc: Int, language: String, text: String)] = []
        for piece in pieces.sorted(by: { ($0.doc, $0.language) < ($1.doc, $1.language) }) {
            let key = "\(piece.doc) \(piece.language)"
            if let row = grouped[key] {
                rows[row].text += "\n" + piece.text
            } else {
                grouped[key] = rows.count
                rows.append(piece)
            }
        }
        let raw = rows.map(\.text)
        let folded = Locked([String](repeating: "", count: raw.count))
        let chunks = max(1, min(16, raw.count / 500))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (raw.count * chunk / chunks)..<(raw.count * (chunk + 1) / chunks)
            let texts = range.map { FullText.fold(raw[$0]) }
            folded.withLock { all in for (offset, text) in zip(range, texts) { all[offset] = text } }
        }
        let texts = folded.withLock { $0 }
        return rows.indices.map { (rows[$0].doc, rows[$0].language, texts[$0]) }
    }
}

/// How prose is indexed and searched (`text:`): folded as names are, and each Japanese or
/// Chinese character a word of its own, since those scripts put no spaces between words
/// (unicode61 would make a whole sentence one token); a query's words are folded the same
/// way, so such a word is the phrase of its characters.
public enum FullText {
    public static func fold(_ text: String) -> String {
        let folded = Folding.fold(text)
        guard folded.unicodeScalars.contains(where: isSpacedApart) else { return folded }
        var result = String.UnicodeScalarView()
        var previousSpaced = false
        for scalar in folded.unicodeScalars {
            let spaced = isSpacedApart(scalar)
            if (spaced || previousSpaced) && !result.isEmpty && result.last != " " && scalar != " " { result.append(" ") }
            result.append(scalar)
            previousSpaced = spaced
        }
        return String(result)
    }

    /// Kana and han: the scripts written without spaces between words.
    static func isSpacedApart(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
            || (0x4E00...0x9FFF).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
    }

    /// The FTS5 query for one `text:` term: its folded words as a phrase whose last word
    /// matches as a prefix ("paralyze" finds "paralyzes"; "speed by two stages" those words
    /// in a row). Nil when folding leaves nothing.
    public static func match(_ text: String) -> String? {
        let folded = fold(text)
        guard !folded.isEmpty else { return nil }
        return "\"" + folded + "\" *" // (folding leaves no quote)
    }
}
