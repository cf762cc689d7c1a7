import Corpus
import Folding
import Index

extension MatchContext {
    /// What matching a word in full reads beside its postings, in postings' worth: for a word
    /// also matched inside names, its occurrences there (as the suffix array's samples bound
    /// them), each found in the suffix array and its key's postings read (a name spelt alike
    /// in many languages has one for each).
    func substringCost(_ term: Term) -> Int {
        guard matchesSubstrings(term) else { return 0 }
        return Self.occurrenceCost * (term.text.utf8.withContiguousStorageIfAvailable(index.substringOccurrenceBound) ?? 0)
    }

    /// Tuned with `SearchEngine.substringReadingCost` on the benchmark's searches (see there).
    static let occurrenceCost = 2

    /// Whether a word term also matches substrings of names (a search's word of three
    /// scalars or more, two in other scripts), or for a completion, names with a later word
    /// where it starts (see `matchesWordStarts`).
    func matchesSubstrings(_ term: Term) -> Bool {
        guard term.shape == .word, !completion || matchesWordStarts(term) else { return false }
        return term.text.utf8.withContiguousStorageIfAvailable(SearchEngine.isLongEnoughForSubstrings)
            ?? SearchEngine.isLongEnoughForSubstrings(term.text.utf8)
    }

    /// A completion's term whose text folds to several words ("(タイプ：ドラゴン)" → "タイプ
    /// ドラゴン", as a form's name is written; or its transliteration) is a prefix of no name
    /// word: it is matched where it starts a later word of a name, as a search would rank it.
    func matchesWordStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { completion && bytes.contains(0x20) }

    func matchesWordStarts(_ term: Term) -> Bool { completion && Folding.hasSeveralWords(term.text) }
}
