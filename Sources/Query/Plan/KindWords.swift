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

extension SearchEngine {
    /// For a query read with the ability kind (`kindWordsAsFilters`) that finds no ability,
    /// whose other words are a Pokémon's whole name ("garchomp ability", "pikachu
    /// abilities"): that Pokémon's abilities, as a Pokédex page lists them. Nil otherwise.
    func abilitiesOfAPokemon(_ narrowed: ParsedQuery, options: SearchOptions) throws -> RankedWindow? {
        guard let kindClause = narrowed.clauses.firstIndex(where: {
            if case .filter(.kind(.ability), _, _) = $0.clause { return !$0.negated } else { return false }
        }) else { return nil }
        var named = narrowed
        named.clauses[kindClause].clause = .filter(.kind(.pokemon), position: 0, part: "")
        let lease = hitMaps.lease()
        defer { lease.release() }
        let (ranked, _) = try rank(named, options: options, completion: false, lease: lease)
        // The best Pokémon, named whole, with no typo and in no other language.
        guard let best = ranked.min(by: { $0.key < $1.key }) else { return nil }
        let key = RankingKey(raw: best.key)
        guard key.value(.words) == 0, key.value(.typo) == 0, key.value(.language) == 0,
              key.value(.position) >> 1 <= UInt64(Position.nameStart.rawValue) else { return nil }
        let rank = HitRank.of(miss: 0, whole: true, position: Position.field.rawValue)
        // Each ability, hidden where it is only that (an ability may be both, in two slots).
        var hidden: [Int: Bool] = [:]
        for ability in index.abilities(best.doc) {
            guard let doc = index.doc(kind: .ability, slug: ability.slug) else { continue }
            hidden[doc] = (hidden[doc] ?? true) && ability.hidden
        }
        guard !hidden.isEmpty else { return nil }
        let keyed = hidden.keys.map { (key: RankingKey.single(rank, doc: $0).raw, doc: $0) }
        var related: [Int: TermExplanation] = [:]
        if options.explain {
            // (The words that named the Pokémon, as typed.)
            let words = named.clauses.compactMap { entry -> String? in
                guard case .term(let term) = entry.clause, !entry.negated else { return nil }
                return term.raw
            }.joined(separator: " ")
            let pokemon = index.displayName(best.doc, language: options.language)
            for (doc, isHidden) in hidden {
                related[doc] = TermExplanation(term: words, matchClass: .field, position: .field, wholeWord: true, typos: 0,
                                               language: nil, role: "\(pokemon)'s \(isHidden ? "hidden ability" : "ability")",
                                               transliterated: false, related: true)
            }
        }
        return RankedWindow(window: window(keyed, options), total: keyed.count, related: related, route: .parsedRanked)
    }
}
