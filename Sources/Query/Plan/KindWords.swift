import Corpus
import Index

extension SearchEngine {
    /// Words that name a kind of entity as people add them to a name ("levitate ability",
    /// "thunderbolt move", "dragon moves", "fire type pokemon"), folded, singular and plural.
    static let kindWords: [String: Kind] = ["pokemon": .pokemon, "pokemons": .pokemon, "move": .move, "moves": .move,
                                            "ability": .ability, "abilities": .ability, "item": .item, "items": .item,
                                            "type": .type, "types": .type]

    /// A search's query with a word naming a kind (`kindWords`) read as that kind's filter,
    /// as `kind:` would be: its last term, or else its first, where other terms are left to
    /// match and no name starts with the terms' words together ("ability capsule", "pokemon
    /// box link", "type null" are names, and stay words; "ability shield item" reads "item"),
    /// and a "type" right before the last term's kind with it.
    /// Nil where no word is so read. (`evaluate` ranks the words as typed when the filter
    /// finds nothing.)
    func kindWordsAsFilters(_ parsed: ParsedQuery) -> ParsedQuery? {
        // The positive terms' clauses: the first, the last and the one before it, and how many.
        // (Counted in place: this runs for every search of several terms.)
        var first = -1, beforeLast = -1, last = -1, terms = 0
        for i in parsed.clauses.indices {
            guard case .term = parsed.clauses[i].clause, !parsed.clauses[i].negated else { continue }
            if first < 0 { first = i }
            (beforeLast, last) = (last, i)
            terms += 1
        }
        guard terms > 1 else { return nil }
        func kindNamed(_ clause: Int) -> (Kind, Term)? {
            guard case .term(let term) = parsed.clauses[clause].clause, term.shape == .word, term.language == nil,
                  (4...9).contains(term.text.utf8.count), let byte = term.text.utf8.first,
                  byte == UInt8(ascii: "p") || byte == UInt8(ascii: "m") || byte == UInt8(ascii: "a") || byte == UInt8(ascii: "i")
                    || byte == UInt8(ascii: "t") else { return nil }
            return Self.kindWords[term.text].map { ($0, term) }
        }
        guard let (clause, (kind, term)) = kindNamed(last).map({ (last, $0) }) ?? kindNamed(first).map({ (first, $0) }) else { return nil }
        // The terms' words together, as a name would start with them.
        var words: [UInt8] = []
        for entry in parsed.clauses {
            guard case .term(let term) = entry.clause, !entry.negated else { continue }
            if !words.isEmpty { words.append(0x20) }
            words += term.text.utf8
        }
        if words.withUnsafeBufferPointer({ index.prefixNode($0) }) != nil { return nil }
        var narrowed = parsed
        narrowed.clauses[clause].clause = .filter(.kind(kind), position: term.position, part: term.raw)
        // "water type moves", "fire type pokemon": "type" before the kind says what the word
        // before it is (a type, which the kind's fields hold), and goes with it.
        if clause == last, terms > 2, kind != .type, kindNamed(beforeLast)?.0 == .type {
            narrowed.clauses.remove(at: beforeLast)
        }
        return narrowed
    }
}
