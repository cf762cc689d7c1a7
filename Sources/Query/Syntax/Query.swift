import Corpus
import Folding
import Index

/// A query error: what is wrong, where (a character offset into the query), and the part.
public struct QueryError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String
    public let position: Int
    public let part: String

    public init(_ message: String, position: Int, part: String) {
        self.message = message
        self.position = position
        self.part = part
    }

    public var description: String { "\(message) (at character \(position + 1): '\(part)')" }
}

/// Numeric comparison operators of filters such as `hp>100` and `id:1..151`.
public enum Comparison: Sendable, Equatable {
    case equal(Int), less(Int), lessOrEqual(Int), greater(Int), greaterOrEqual(Int), range(Int, Int)

    /// The values it holds for, as one range (empty, low above high, for none): what a
    /// filter's loop over documents compares each value with, two comparisons and no switch.
    public var bounds: (low: Int, high: Int) {
        switch self {
        case .equal(let n): return (n, n)
        case .less(let n): return n == .min ? (1, 0) : (.min, n - 1)
        case .lessOrEqual(let n): return (.min, n)
        case .greater(let n): return n == .max ? (1, 0) : (n + 1, .max)
        case .greaterOrEqual(let n): return (n, .max)
        case .range(let a, let b): return (a, b)
        }
    }
}

/// One searched term, folded.
public struct Term: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// A word: prefix of a name word, substring of a name, compact name, field prefix.
        case word
        /// Several words (quoted, or a token such as "porygon-z" that folds to several).
        case phrase
        /// A pattern with `*` and `?` (each literal piece folded).
        case wildcard([WildcardPiece])
        /// A word already typed out in a completion: it must equal a word of a name.
        case wholeWord
    }
    public var text: String           // folded
    public var raw: String
    public var shape: Shape
    public var language: Int?         // @fr:term
    public var position: Int
}

public enum WildcardPiece: Sendable, Equatable {
    case literal([UInt32])
    case anyOne
    case anyRun
}

public enum Filter: Sendable, Equatable {
    case kind(Kind)
    case type(String)
    case ability(String)              // folded value; resolved against ability names
    case color(String)
    case habitat(String)
    case flag(String)                 // legendary, mythical, baby, default, mega, fav
    case number(NumericColumn, Comparison, label: String)
    case id(Comparison)
    /// Answered by the database (`DatabaseFilters`): full text of the prose, move metadata.
    case database(DatabaseFilter)
}

public enum Clause: Sendable, Equatable {
    case term(Term)
    /// A bare number; `written`: its digits as typed where they are not the number's own
    /// ("01": "Data Card 01" is a name's words), else empty.
    case id(Int, position: Int, written: String = "")
    case filter(Filter, position: Int, part: String)
    /// `name:value` with an unknown filter name: searched as a phrase ("Typ:Null" is a
    /// German name), an error if that finds nothing.
    case unknownFilter(Term, name: String)
}

extension Clause {
    /// A word term becomes a whole word (a completion's words before the one being typed).
    /// The clause is moved out and back rather than copied: copying a term's clause went
    /// through the enum's outlined copy, retaining its strings, once per earlier word.
    mutating func markWholeWord() {
        var taken = Clause.id(0, position: 0)
        swap(&taken, &self)
        switch consume taken {
        case .term(var term) where term.shape == .word:
            term.shape = .wholeWord
            self = .term(term)
        case let other:
            self = other
        }
    }
}

/// A clause as the query gives it: itself or negated (`-fire`). A struct, not a tuple:
/// arrays of tuples with such payloads are copied and destroyed through the runtime's
/// generic tuple witnesses, a noticeable share of a one-word completion's instructions.
public struct QueryClause: Sendable, Equatable {
    public var clause: Clause
    public var negated: Bool

    public init(_ clause: Clause, negated: Bool = false) {
        self.clause = clause
        self.negated = negated
    }
}

public struct ParsedQuery: Sendable, Equatable {
    public var clauses: [QueryClause]
    public var language: Int?         // lang:fr / @fr:
    public var isEmpty: Bool { clauses.isEmpty }

    /// The term of clause `index`: a term, an unknown filter's text, or an id as a term.
    func term(_ index: Int) -> Term {
        switch clauses[index].clause {
        case .term(let term), .unknownFilter(let term, _): return term
        case .id(let id, let position, let written):
            let text = written.isEmpty ? String(id) : written
            return Term(text: text, raw: text, shape: .word, language: nil, position: position)
        case .filter: preconditionFailure("clause \(index) is a filter, not a term")
        }
    }

    /// Whether clause `index` is a bare number (an id).
    func isID(_ index: Int) -> Bool {
        if case .id = clauses[index].clause { return true }
        return false
    }

    /// Whether two term clauses share a folded text (a term repeated, maybe in another
    /// shape): compared in place, without copying the terms.
    var mayRepeatTerms: Bool {
        for i in clauses.indices {
            guard case .term(let term) = clauses[i].clause else { continue }
            for j in clauses.indices.prefix(i) {
                if case .term(let other) = clauses[j].clause, other.text == term.text { return true }
            }
        }
        return false
    }
}
