/// The ranking: the contract's named rules, in order, and the one place that packs and
/// compares what they read (docs/RANKING.md). The index's best-first lists and every
/// query's results are ordered by these functions alone.
///
/// A rule is a field of `RankingKey`: the key is one integer whose fields, from the most
/// significant, are the rules in `RankingRule.allCases` order, each smaller is better, so
/// that comparing keys applies the first rule that tells two results apart. Adding a rule:
/// a case of `RankingRule` (in its place), its width and shift, where `RankingKey` packs
/// it, and a test.
public enum RankingRule: Int, CaseIterable, Sendable {
    /// Fewer terms matched with typos (a term found only inside a word of a name in another
    /// language than the display language counts as a typo: weak evidence).
    case words
    /// Fewer typos.
    case typo
    /// Fewer terms matched outside the display language.
    case language
    /// Fewer terms matched other than as a whole word (of a name or of a field).
    case exactness
    /// Where the best term matched (`Position`; of two at one position, the one in the
    /// display language first).
    case position
    /// Kind order when mixed: Pokémon (default forms first), forms, moves, abilities, items,
    /// types. Documents are numbered in that order (`Documents`): the document field holds it.
    case kind
    /// Smaller id (within a kind, documents are numbered by id).
    case id

    /// Bits of the key the rule's field takes (kind and id share the document's).
    @inlinable @inline(__always) public var width: UInt64 {
        switch self {
        case .words: return 6
        case .typo: return 7
        case .language: return 6
        case .exactness: return 6
        case .position: return 4
        case .kind, .id: return 32
        }
    }

    /// Where the rule's field starts in the key: above every later rule's.
    @inlinable @inline(__always) public var shift: UInt64 {
        switch self {
        case .words: return 55
        case .typo: return 48
        case .language: return 42
        case .exactness: return 36
        case .position: return 32
        case .kind, .id: return 0
        }
    }

    public var name: String {
        switch self {
        case .words: return "words"
        case .typo: return "typo"
        case .language: return "language"
        case .exactness: return "exactness"
        case .position: return "position"
        case .kind: return "kind"
        case .id: return "id"
        }
    }
}

/// Where a term matched a document (the position rule), best first.
public enum Position: UInt32, Sendable, Comparable, CaseIterable {
    /// The whole name exactly (as written or compact; a synonym of it or the slug is a name).
    case wholeName = 0
    /// The name starts with the query's words (a one-word query: its first word; several
    /// terms: together, as a phrase).
    case nameStart = 1
    /// A later whole word of the name.
    case laterWholeWord = 2
    /// The start of the name (not a whole word).
    case namePrefix = 3
    /// The start of a later word of the name.
    case laterWordPrefix = 4
    /// Inside a word of the name.
    case substring = 5
    /// A type, ability or other field.
    case field = 6
    /// A field, by one term among several (see `amongTerms`).
    case fieldAmongTerms = 7

    @inlinable public static func < (a: Position, b: Position) -> Bool { a.rawValue < b.rawValue }

    /// A term's position when the query has several terms: one step down, since only the
    /// terms together (the phrase) are the whole name or its start: one term equal to a name
    /// ranks as the name's start, a first word as a later whole word, and so on.
    @inlinable @inline(__always) public static func amongTerms(_ position: UInt32) -> UInt32 { position + 1 }

    /// The position of a phrase's hit (the terms together): a whole name equal to them, or
    /// one they start (`namePrefix` for a hit on a longer key) as `nameStart`.
    @inlinable @inline(__always) public static func ofPhrase(_ position: UInt32) -> UInt32 {
        position == Position.namePrefix.rawValue ? Position.nameStart.rawValue : position
    }

    /// The position of a posting of `role` (a `KeyRole` raw value) on a key equal to the
    /// term (`exact`) or longer. The positions are the bytes of a constant, one per role
    /// (whole, compact, first word, later word, field): read per posting, a table in an array
    /// cost a runtime call and a retain and release each time.
    @inlinable @inline(__always) public static func of(role: UInt32, exact: Bool) -> UInt32 {
        let positions: UInt64 = exact ? 0x06_02_01_00_00 : 0x06_04_03_03_03
        return UInt32(truncatingIfNeeded: positions >> UInt64((role & 7) * 8)) & 0xFF
    }

    public var label: String {
        switch self {
        case .wholeName: return "whole name"
        case .nameStart: return "first word"
        case .laterWholeWord: return "later whole word"
        case .namePrefix: return "name prefix"
        case .laterWordPrefix: return "later word prefix"
        case .substring: return "inside a word"
        case .field, .fieldAmongTerms: return "field"
        }
    }
}

/// One term's hit on one document as the rules read it, in 7 bits, smaller better:
/// typos (2) | outside the display language (1) | not a whole word (1) | position (3). A
/// query of one term ranks by these bits alone (then the document); the index's best-first
/// lists hold them (`PrefixTops.entry`). Its functions are inlinable, as are `Position`'s and
/// `RankingKey`'s: the query module reads them per posting, where a call each cost a large
/// share of a search's instructions.
public enum HitRank {
    @inlinable static var wholeShift: UInt32 { 3 }
    @inlinable static var languageShift: UInt32 { 4 }
    @inlinable public static var typoShift: UInt32 { 5 }

    /// The bits of a hit: `typos` edits, `miss` 1 outside the display language, `whole` for a
    /// whole word, at `position` (a `Position` raw value). A hit inside a word of a name in
    /// another language, or on the start of a field's word in another language, counts one
    /// typo (the words and typo rules): weak evidence ("arma veil": Donphan's Italian genus
    /// starts with "arma"; "bulk ut": a French item category starts with "ut").
    @inlinable @inline(__always) public static func of(typos: UInt32 = 0, miss: UInt32, whole: Bool, position: UInt32) -> UInt32 {
        let weak: UInt32 = isWeakPlace(whole: whole, position: position) ? miss : 0
        return (typos + weak) << typoShift | miss << languageShift | (whole ? 0 : 1) << wholeShift | position
    }

    /// Whether a hit at `position` is weak evidence when outside the display language: inside
    /// a word of a name, or a field's word that is not whole.
    @inlinable @inline(__always) static func isWeakPlace(whole: Bool, position: UInt32) -> Bool {
        position == Position.substring.rawValue || (position >= Position.field.rawValue && !whole)
    }

    /// The bits of a hit on a posting (`raw`, or any value with a posting's low byte) of a
    /// key equal to the term (`exact`) or longer, for the display language `display`. A name
    /// matched through its transliteration is never a whole word: a transliteration drops
    /// tones and long vowels (破殼 is "po ke", compact "poke"), so a query equal to one is no
    /// closer than a prefix ("poke" ranked Shell Smash above Poké Ball, "cha" Tea (茶) above
    /// Charmander).
    ///
    /// A name of no language (a slug, a synonym) counts as the display language's when the
    /// term is all of it or one of its words, and as another language's when the term only
    /// starts it: "pikachuu" starts Unova Cap Pikachu's slug run together
    /// ("pikachuunovacap"), which says less than Pikachu's romaji name, "pikachuu" whole.
    @inlinable @inline(__always) public static func of(posting raw: UInt32, exact: Bool, display: UInt32, typos: UInt32 = 0) -> UInt32 {
        let exact = exact && raw & 1 == 0
        let role = (raw >> 1) & 7
        let languageless: UInt32 = !exact && role != KeyRole.field.rawValue && (raw >> 4) & 15 == Posting.noLanguage ? 1 : 0
        return of(typos: typos, miss: Posting.languageMiss(raw, display: display) | languageless, whole: exact,
                  position: Position.of(role: role, exact: exact))
    }

    /// The same for a name holding the term further in, at `position` (a later word's start,
    /// or inside a word): never a whole word.
    @inlinable @inline(__always) public static func inside(posting raw: UInt32, position: UInt32, display: UInt32) -> UInt32 {
        of(miss: Posting.languageMiss(raw, display: display), whole: false, position: position)
    }

    @inlinable @inline(__always) public static func typos(_ rank: UInt32) -> UInt32 { rank >> typoShift }
    /// Whether a hit is weak evidence (inside a word of a name, or a field's word not whole,
    /// in another language): counted as a typo.
    @inlinable @inline(__always) public static func isWeak(_ rank: UInt32) -> Bool {
        isWeakPlace(whole: isWhole(rank), position: position(rank)) && miss(rank) != 0
    }
    /// The edits of a hit (its typos but the one a weak hit counts).
    @inlinable @inline(__always) public static func edits(_ rank: UInt32) -> UInt32 { typos(rank) - (isWeak(rank) ? 1 : 0) }
    @inlinable @inline(__always) public static func miss(_ rank: UInt32) -> UInt32 { (rank >> languageShift) & 1 }
    @inlinable @inline(__always) public static func isWhole(_ rank: UInt32) -> Bool { (rank >> wholeShift) & 1 == 0 }
    @inlinable @inline(__always) public static func position(_ rank: UInt32) -> UInt32 { rank & 7 }
    /// Whether a hit is of a field (which the lists keep after their names).
    @inlinable @inline(__always) public static func isField(_ rank: UInt32) -> Bool { rank & 7 >= Position.field.rawValue }
}

/// A result's ranking key: one field per rule (`RankingRule`), packed so that a smaller key
/// ranks first. Made only here: from the terms' hits (`Terms`) or one hit (`single`).
public struct RankingKey: Sendable, Equatable, Comparable {
    public let raw: UInt64

    @inlinable @inline(__always) public init(raw: UInt64) { self.raw = raw }

    @inlinable public static func < (a: RankingKey, b: RankingKey) -> Bool { a.raw < b.raw }

    @inlinable @inline(__always) static func field(_ value: UInt32, _ rule: RankingRule) -> UInt64 {
        UInt64(min(value, UInt32((1 << rule.width) - 1))) << rule.shift
    }

    /// The key of a query's terms on one document: for each term, its hit's bits (see
    /// `HitRank`), and where the best term matched.
    public struct Terms {
        @usableFromInline var withTypos: UInt32 = 0
        @usableFromInline var typos: UInt32 = 0
        @usableFromInline var outsideLanguage: UInt32 = 0
        @usableFromInline var notWhole: UInt32 = 0
        /// The best term's position << 1 | 1 outside the display language: of two terms at
        /// one position, one in the display language places a result first ("mega sc": Mega
        /// Scizor, which the terms start in English, before Mega Pinsir, Méga-Scarabrute in
        /// French; "echange psy": Psycho Shift, whose French name the terms are, before Skill
        /// Swap, whose French name "echange" is).
        @usableFromInline var position: UInt32

        /// No term yet: a query of filters alone ranks every document at the best position.
        @inlinable @inline(__always) public init(anyTerm: Bool) { position = anyTerm ? 15 : 0 }

        /// Counts one term's hit (`rank`, `HitRank`'s bits), placed `amongTerms` or alone.
        @inlinable @inline(__always) public mutating func add(_ rank: UInt32, amongTerms: Bool) {
            let typos = HitRank.typos(rank)
            withTypos += typos > 0 ? 1 : 0
            self.typos += typos
            outsideLanguage += HitRank.miss(rank)
            notWhole += HitRank.isWhole(rank) ? 0 : 1
            let position = HitRank.position(rank)
            self.position = min(self.position, (amongTerms ? Position.amongTerms(position) : position) << 1 | HitRank.miss(rank))
        }

        /// Where the terms together (the phrase) matched, when they did (`rank`: its hit's bits).
        @inlinable @inline(__always) public mutating func addPhrase(_ rank: UInt32) {
            position = min(position, Position.ofPhrase(HitRank.position(rank)) << 1 | HitRank.miss(rank))
        }

        @inlinable @inline(__always) public func key(doc: Int) -> RankingKey {
            RankingKey(raw: field(withTypos, .words) | field(typos, .typo) | field(outsideLanguage, .language)
                       | field(notWhole, .exactness) | field(position, .position) | UInt64(doc))
        }
    }

    /// The key of a one-term query's hit (`rank`, `HitRank`'s bits) on `doc`.
    @inlinable @inline(__always) public static func single(_ rank: UInt32, doc: Int) -> RankingKey {
        var terms = Terms(anyTerm: true)
        terms.add(rank, amongTerms: false)
        return terms.key(doc: doc)
    }

    /// The value of one rule's field (kind and id: the document).
    @inlinable @inline(__always) public func value(_ rule: RankingRule) -> UInt64 {
        rule.width >= 64 ? raw : (raw >> rule.shift) & ((1 << rule.width) - 1)
    }

    @inlinable public var doc: Int { Int(value(.id)) }

    /// The first rule that tells this key from `other`'s (nil for the same key): what
    /// decided between two results. Kind and id both read the document: `kindOf` says
    /// whether two documents differ in kind (or in being a default form).
    public func decidingRule(against other: RankingKey, kindOf: (Int) -> Int) -> RankingRule? {
        for rule in RankingRule.allCases where value(rule) != other.value(rule) {
            if rule == .kind && kindOf(doc) == kindOf(other.doc) { return .id }
            return rule
        }
        return nil
    }
}
