import Corpus

/// What a result line shows of a document, its "card", in one place: kind, types, id, the
/// name in the default display language (English, else the slug) and the slug. A result
/// then reads one or two cache lines instead of one from each of the arrays those facts
/// live in (on a busy machine, a cache miss each can cost as much as the whole rest of
/// a completion).
///
/// Layout of card `doc` in `pool`: kind (1 byte), two type indexes (255 = none), one unused
/// byte, the id (Int32, little-endian), the name's byte count (UInt16, little-endian), the
/// name's bytes, the slug's bytes.
public struct DocCards: Sendable {
    public let pool: StringPool
    static let headerSize = 10

    public init(pool: StringPool) { self.pool = pool }

    static func build(docKind: [UInt8], docID: [Int32], docTypes: [UInt8], slugs: StringPool,
                      nameStart: [UInt32], nameLanguage: [UInt8], nameTexts: StringPool) -> DocCards {
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(docKind.count + 1)
        for doc in 0..<docKind.count {
            let english = displayEntry(of: doc, language: 0, nameStart: nameStart, nameLanguage: nameLanguage)
            let name = english.map { Array(nameTexts.bytes[nameTexts.range($0)]) } ?? Array(slugs.bytes[slugs.range(doc)])
            let nameBytes = name.prefix(Int(UInt16.max))
            bytes += [docKind[doc], docTypes[doc * 2], docTypes[doc * 2 + 1], 0]
            withUnsafeBytes(of: docID[doc].littleEndian) { bytes += $0 }
            withUnsafeBytes(of: UInt16(nameBytes.count).littleEndian) { bytes += $0 }
            bytes += nameBytes
            bytes += slugs.bytes[slugs.range(doc)]
            offsets.append(UInt32(bytes.count))
        }
        return DocCards(pool: StringPool(bytes: bytes, offsets: offsets))
    }

    /// The entry of `doc`'s display name in `language` (a Language index): its name in that
    /// language, else its first English one; nil when it has neither (the slug stands in).
    static func displayEntry(of doc: Int, language: Int, nameStart: [UInt32], nameLanguage: [UInt8]) -> Int? {
        var english: Int?
        for entry in Int(nameStart[doc])..<Int(nameStart[doc + 1]) {
            if Int(nameLanguage[entry]) == language { return entry }
            if nameLanguage[entry] == 0 { english = english ?? entry }
        }
        return english
    }

    /// Every card long enough for its header and name, with a known kind and types.
    func isConsistent(docCount: Int, typeCount: Int) -> Bool {
        guard pool.count == docCount else { return false }
        for doc in 0..<docCount {
            let range = pool.range(doc)
            guard range.count >= Self.headerSize, Int(pool.bytes[range.lowerBound]) < Kind.allCases.count,
                  pool.bytes[range.lowerBound + 1] == 255 || Int(pool.bytes[range.lowerBound + 1]) < typeCount,
                  pool.bytes[range.lowerBound + 2] == 255 || Int(pool.bytes[range.lowerBound + 2]) < typeCount else { return false }
            let nameLength = Int(pool.bytes[range.lowerBound + 8]) | Int(pool.bytes[range.lowerBound + 9]) << 8
            guard Self.headerSize + nameLength <= range.count else { return false }
        }
        return true
    }
}

/// One document's card, read.
public struct DocCard {
    public let kind: Kind
    public let id: Int
    public let types: (UInt8, UInt8)
    public let name: String
    public let slug: String
}

/// One document's card as the index holds it: the name and slug are its bytes (UTF-8),
/// valid only inside `withCard`. A front end writing results copies them out as they are,
/// and nothing is decoded or allocated for a result nobody reads.
public struct CardBytes {
    public let kind: Kind
    public let id: Int
    public let types: (UInt8, UInt8)
    public let name: UnsafeBufferPointer<UInt8>
    public let slug: UnsafeBufferPointer<UInt8>
}

/// Reads cards with the index's arrays entered once: a page of results reads several, and
/// entering the arrays for each card counted references to them each time. Valid only
/// inside `withCardReader`.
public struct CardReader {
    fileprivate let index: IndexSnapshot
    fileprivate let language: Int
    fileprivate let cardBytes: UnsafeBufferPointer<UInt8>
    fileprivate let cardOffsets: UnsafeBufferPointer<UInt32>
    fileprivate let slugBytes: UnsafeBufferPointer<UInt8>
    fileprivate let nameBytes: UnsafeBufferPointer<UInt8>

    /// The card of `doc` with its name in the reader's language (a Language index; else
    /// English, else the slug, as `displayName`). English, the default, is read from the
    /// cards: one or two cache lines; another language from the columns.
    public func withCard<R>(_ doc: Int, _ body: (CardBytes) -> R) -> R {
        if language != 0 {
            let slug = UnsafeBufferPointer(rebasing: slugBytes[index.slugs.range(doc)])
            let entry = DocCards.displayEntry(of: doc, language: language, nameStart: index.nameStart, nameLanguage: index.nameLanguage)
            let name = entry.map { UnsafeBufferPointer(rebasing: nameBytes[index.nameTexts.range($0)]) } ?? slug
            return body(CardBytes(kind: index.kind(doc), id: index.id(doc), types: (index.docTypes[doc * 2], index.docTypes[doc * 2 + 1]),
                                  name: name, slug: slug))
        }
        let start = Int(cardOffsets[doc]), end = Int(cardOffsets[doc + 1])
        let id = Int32(bitPattern: UInt32(cardBytes[start + 4]) | UInt32(cardBytes[start + 5]) << 8
                       | UInt32(cardBytes[start + 6]) << 16 | UInt32(cardBytes[start + 7]) << 24)
        let nameEnd = start + DocCards.headerSize + (Int(cardBytes[start + 8]) | Int(cardBytes[start + 9]) << 8)
        return body(CardBytes(kind: Kind(rank: Int(cardBytes[start]))!, id: Int(id), types: (cardBytes[start + 1], cardBytes[start + 2]),
                              name: UnsafeBufferPointer(rebasing: cardBytes[(start + DocCards.headerSize)..<nameEnd]),
                              slug: UnsafeBufferPointer(rebasing: cardBytes[nameEnd..<end])))
    }
}

extension IndexSnapshot {
    /// Calls `body` with a reader of cards in `language` (see `CardReader.withCard`).
    public func withCardReader<R>(language: Int, _ body: (CardReader) -> R) -> R {
        cards.pool.bytes.withUnsafeBufferPointer { cardBytes in
            cards.pool.offsets.withUnsafeBufferPointer { cardOffsets in
                slugs.bytes.withUnsafeBufferPointer { slugBytes in
                    nameTexts.bytes.withUnsafeBufferPointer { nameBytes in
                        body(CardReader(index: self, language: language, cardBytes: cardBytes, cardOffsets: cardOffsets,
                                        slugBytes: slugBytes, nameBytes: nameBytes))
                    }
                }
            }
        }
    }

    /// The card of `doc` with its name in `language` (see `CardReader.withCard`).
    public func withCard<R>(_ doc: Int, language: Int, _ body: (CardBytes) -> R) -> R {
        withCardReader(language: language) { $0.withCard(doc, body) }
    }

    /// The card of `doc` with its name in `language`, decoded.
    public func card(_ doc: Int, language: Int = 0) -> DocCard {
        withCard(doc, language: language) { card in
            DocCard(kind: card.kind, id: card.id, types: card.types,
                    name: String(decoding: card.name, as: UTF8.self), slug: String(decoding: card.slug, as: UTF8.self))
        }
    }

    /// Type slugs of a pair of type indexes (255 = none).
    public func typeSlugs(of types: (UInt8, UInt8)) -> [String] {
        if types.0 == 255 { return types.1 == 255 ? [] : [typeSlugs[Int(types.1)]] }
        return types.1 == 255 ? [typeSlugs[Int(types.0)]] : [typeSlugs[Int(types.0)], typeSlugs[Int(types.1)]]
    }
}
