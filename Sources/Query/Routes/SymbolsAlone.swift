import Corpus
import Folding
import Index

extension SearchEngine {
    /// A query of symbols alone ("???", "★", "!"), which folding leaves with nothing to
    /// search for, as written (trimmed); nil when it has a letter or a digit (a filter
    /// without a value), is blank, or is `*` alone ("anything"): errors.
    static func symbolsAlone(_ query: String) -> String? {
        let scalars = query.unicodeScalars
        guard let first = scalars.firstIndex(where: { !QueryParser.isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !QueryParser.isWhitespace($0) }),
              !scalars[first...last].contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }),
              scalars[first...last].contains(where: { $0 != "*" && !QueryParser.isWhitespace($0) })
        else { return nil }
        return String(scalars[first...last])
    }

    /// Documents with a name holding `symbols` as written, ranked as a term's hits are (the
    /// whole name, its start, a later word's start, further in; the display language
    /// first). Such names are few ("??? Arceus", "★And458", "Unown !"): those holding the
    /// query's rarest symbol are read (the index lists them by symbol).
    func namesHolding(_ symbols: String, options: SearchOptions, completion: Bool) -> [(key: UInt64, doc: Int)] {
        let needle = Array(symbols.utf8)
        let kindMask = options.kinds.reduce(0) { $0 | (1 << $1.rank) }
        // Each document's best hit, in a pooled map.
        let best = hitMaps.take()
        defer { hitMaps.giveBack(best) }
        index.forEachNameHolding(symbols: needle) { doc, entry, offset in
            guard kindMask == 0 || kindMask & (1 << Int(index.docKind[doc])) != 0 else { return }
            let name = index.nameTexts.range(entry)
            let position: Position = offset == 0 ? (name.count == needle.count ? .wholeName : .namePrefix)
                : IndexSnapshot.containment(offset: offset, afterSpace: index.nameTexts.bytes[name.lowerBound + offset - 1] == 0x20)!
            if completion && position == .substring { return }
            let miss: UInt32 = Int(index.nameLanguage[entry]) == options.language ? 0 : 1
            best.record(doc, Hit(raw: Hit.raw(rank: HitRank.of(miss: miss, whole: position == .wholeName, position: position.rawValue),
                                              postingByte: 0)))
        }
        return best.docs.map { doc in (key: RankingKey.single(Hit(raw: best.best[Int(doc)]).rank, doc: Int(doc)).raw, doc: Int(doc)) }
    }
}
