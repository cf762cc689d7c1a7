import Corpus
import Folding
import Index

extension MatchContext {
    /// Whole names that equal or start with the terms of a query read as one phrase, and
    /// those whose compact form equals it: "poke ball" as two terms still ranks the Poké
    /// Ball, whose whole name it is, first; "mega sc" ranks the Megas whose names it starts
    /// (Mega Scizor, Mega Sceptile) before those "sc" matched apart from "mega" (Mega
    /// Pinsir, by its French name Méga-Scarabrute). Words and numbers make a phrase
    /// ("zygarde 10"); nil when another kind of term is there. The first term's text located is where the phrase and its compact form are
    /// looked up from (both start with it when it is one word).
    func phraseHits(_ slots: [TermSlot], of parsed: ParsedQuery) -> HitMap? {
        // A slot's text in place (a term's is not copied; a number's is made).
        func withText<R>(_ slot: TermSlot, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            switch parsed.clauses[slot.clause].clause {
            case .term(let term) where term.shape == .word || term.shape == .wholeWord:
                // (Contiguous on Linux, where there are no bridged strings.)
                return term.text.utf8.withContiguousStorageIfAvailable(body) ?? Array(term.text.utf8).withUnsafeBufferPointer(body)
            case .id(let id, _, let written):
                var text = written.isEmpty ? String(id) : written
                return text.withUTF8(body)
            default:
                return nil
            }
        }
        var length = slots.count - 1
        for slot in slots {
            guard let count = withText(slot, \.count) else { return nil }
            length += count
        }
        // The words joined by spaces, written on the stack (no string, no array).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { phrase -> HitMap? in
            var count = 0
            for slot in slots {
                if count > 0 { phrase[count] = 0x20; count += 1 }
                count += withText(slot) { UnsafeMutableBufferPointer(rebasing: phrase[count...]).initialize(fromContentsOf: $0) }!
            }
            let bytes = UnsafeBufferPointer(rebasing: phrase[..<count])
            let start = slots[0].located.flatMap { first in phrase[..<first.length].contains(0x20) ? nil : first }
            // Both forms looked up first: most phrases of a query's terms are no name's start
            // (a type and a name's first letters), and take no map then.
            let located = locate(bytes, after: start)
            let compactLocated = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { compact in
                locate(UnsafeBufferPointer(rebasing: compact[..<Folding.compact(bytes, into: compact)]), after: start)
            }
            guard located.node != nil || compactLocated.node != nil else { return nil }
            let hits = lease.newMap()
            matchText(bytes, located: located, compactLocated: compactLocated, phrase: true, wholeWord: false, inside: false,
                      fields: .none, restriction: languageRestriction, queryTransliterated: false, into: hits)
            return hits
        }
    }
}
