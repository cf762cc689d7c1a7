import Catalog
import Corpus
import Folding
import Foundation
@testable import Index
@testable import Query
import Store
import Testing

/// The trie's best-first lists and the documents' cards are shortcuts: whatever they answer
/// must be exactly what ranking the whole key range answers.
@Suite("Prefix lists and cards")
struct PrefixTopsTests {
    /// Prefixes (1–8 scalars) of the words of every fifth folded name and its
    /// transliteration, Latin and other scripts alike.
    static func prefixes() throws -> [String] {
        let store = try Store(path: Fixture.database, readOnly: true)
        var seen = Set<String>()
        var queries: [String] = []
        for (i, name) in try store.readFoldedNames().enumerated() where i % 5 == 0 {
            for form in [name.folded] + (name.translit.map { [$0] } ?? []) {
                for word in Folding.words(form) {
                    let scalars = Array(word.unicodeScalars)
                    for length in 1...min(8, scalars.count) {
                        let prefix = String(String.UnicodeScalarView(scalars[0..<length]))
                        if Int(prefix) == nil, seen.insert(prefix).inserted { queries.append(prefix) }
                    }
                }
            }
        }
        return queries
    }

    /// Prefixes of names of several words typed as one, the words joined by a hyphen or a dot
    /// ("multi-att", "mr.mi"): each a phrase, from its second word's first letter on.
    static func phrasePrefixes() throws -> [String] {
        let store = try Store(path: Fixture.database, readOnly: true)
        var seen = Set<String>()
        var queries: [String] = []
        for (i, name) in try store.readFoldedNames().enumerated() where i % 5 == 0 {
            let words = Folding.words(name.folded)
            guard words.count > 1 else { continue }
            let joined = Array(words.joined(separator: i % 2 == 0 ? "-" : ".").unicodeScalars)
            let first = words[0].unicodeScalars.count
            for length in (first + 2)...min(first + 8, joined.count) {
                let prefix = String(String.UnicodeScalarView(joined[0..<length]))
                if seen.insert(prefix).inserted { queries.append(prefix) }
            }
        }
        return queries
    }

    /// The full ranking's window and total, as `evaluate` gives them without the lists.
    static func fullRanking(_ parsed: ParsedQuery, _ options: SearchOptions, completion: Bool) throws -> (window: [UInt64], total: Int) {
        let engine = Fixture.engine
        let ranked = try engine.rank(parsed, options: options, completion: completion).ranked
        let window = engine.topK(ranked, options.offset + options.limit).dropFirst(options.offset).map(\.key)
        return (window, ranked.count)
    }

    @Test(.tags(.exhaustive)) func listsAnswerExactlyAsTheFullRanking() throws {
        let engine = Fixture.engine
        var answered = (search: 0, completion: 0)
        var compared = 0
        for query in Exhaustive.sample(try Self.prefixes(), oneIn: 16) {
            for completion in [false, true] {
                guard let parsed = try? QueryParser.parse(query, lenient: completion) else { continue }
                for (limit, offset) in [(20, 0), (8, 0), (10, 10)] {
                    var options = SearchOptions()
                    options.limit = limit
                    options.offset = offset
                    guard let fast = engine.answerFromTops(parsed, options: options, completion: completion) else { continue }
                    let full = try Self.fullRanking(parsed, options, completion: completion)
                    #expect(fast.window.map(\.key) == full.window, "'\(query)' (completion \(completion), limit \(limit), offset \(offset))")
                    if !completion {
                        #expect(fast.total == full.total, "'\(query)': total \(fast.total), full ranking \(full.total)")
                        answered.search += 1
                    } else {
                        answered.completion += 1
                    }
                    compared += 1
                }
            }
        }
        // The lists answer most one-word queries; a shortcut that never fires tests nothing.
        #expect(answered.search > Exhaustive.share(5_000, oneIn: 16) && answered.completion > Exhaustive.share(5_000, oneIn: 16), "answered \(answered)")
    }

    /// One word as typed: every prefix (Latin and other scripts) in lower case, with a
    /// capital and in capitals; phrases typed as one word; misspellings; and texts the
    /// shortcuts of one word leave to the parser (each of those, and a sample of the others
    /// outside a full run).
    static func oneWordTexts(oneIn sampling: Int) throws -> [String] {
        let words = try Self.prefixes()
        #expect(words.count > 5_000)
        let phrases = try Self.phrasePrefixes()
        #expect(phrases.count > 2_000)
        let others = ["12", "25", "99999999999999999999", "tm01", "x1", "pikachu ", " pikachu", "pika-chu", "-pika", "mr.mime",
                      "farfetch'd", "nidoran♂", "ぴかちゅう", "ｐｉｋａ", "pokémon", "Pokémon", "É", "a*", "\u{7}a", "dragão",
                      "★sgr6859", "★Sgr", "★", "けいけんあめＸＬ", "招式学习器２７", "ａｃ", "ａ＇ｃ", "＊", "★★", "ア・イ", "a©b", "αβ", "x😀",
                      String(repeating: "a", count: 65), ""]
        // Misspelt words (no list answers them, the typo search does): in every 25th word of
        // four scalars or more, two swapped, one changed, one dropped.
        let misspelt = stride(from: 0, to: words.count, by: 25).flatMap { i -> [String] in
            let scalars = Array(words[i].unicodeScalars)
            guard scalars.count >= 4 else { return [] }
            var swapped = scalars, changed = scalars, dropped = scalars
            swapped.swapAt(1, 2)
            changed[2] = "q"
            dropped.remove(at: 1)
            return [swapped, changed, dropped].map { String(String.UnicodeScalarView($0)) }
        }
        #expect(misspelt.count > 300)
        return (Exhaustive.sample(words + phrases + misspelt, oneIn: sampling) + others).flatMap { word in
            Array(Set([word, word.prefix(1).uppercased() + word.dropFirst(), word.uppercased()]))
        }
    }

    /// A one-word search is answered without parsing it (`searchOfOneWord`): exactly as
    /// parsed, its results and total, at several pages and languages.
    @Test(.tags(.exhaustive)) func oneWordsSearchAsParsed() throws {
        let engine = Fixture.engine
        var shortcuts = 0, compared = 0
        // (Every third text: a search reads more than a completion.)
        for (i, text) in try Self.oneWordTexts(oneIn: 80).enumerated() where i % 3 == 0 {
            for (limit, offset, language) in [(20, 0, 0), (10, 10, 0), (33, 0, 0), (20, 0, 1), (20, 0, -1)] {
                var options = SearchOptions()
                options.limit = limit
                options.offset = offset
                options.language = max(0, language)
                // (-1: with explanations, which the terms' hits give.)
                options.explain = language < 0
                let parsed = try? engine.searchParsed(text, options: options)
                let searched = try? engine.search(text, options: options)
                #expect(searched.map { Array($0.results) } == parsed.map { Array($0.results) }, "'\(text)' limit \(limit) offset \(offset) language \(language)")
                #expect(searched?.total == parsed?.total, "'\(text)' limit \(limit) offset \(offset) language \(language)")
                // (The route tells that `search` takes the shortcut: its answers are the same.)
                switch engine.searchOfOneWord(text, options: options) {
                case .answered:
                    shortcuts += 1
                    #expect(searched?.route == .oneWordLists, "'\(text)'")
                case .unanswered(let term):
                    // The term made from the folding is the one the parser makes.
                    #expect(try QueryParser.parse(text) == ParsedQuery(clauses: [QueryClause(.term(term))], language: nil), "'\(text)'")
                    if let searched { #expect(searched.route == .oneWordRanked, "'\(text)'") }
                case .notOneWord: #expect(searched?.route != .oneWordLists && searched?.route != .oneWordRanked, "'\(text)'")
                }
                compared += 1
            }
        }
        // (Most pages here the lists cannot rank: past their 32 documents, another language,
        // explanations, a word found only in other languages short of a page.)
        #expect(shortcuts > compared / 10, "\(shortcuts) of \(compared) by the shortcut")
        var explained = SearchOptions()
        explained.explain = true
        for (text, options) in [("pika", explained), ("pikchu", SearchOptions()), ("multi-att", SearchOptions())] {
            guard case .unanswered = engine.searchOfOneWord(text, options: options) else { Issue.record("'\(text)'"); continue }
        }
        for text in ["pikachu ", "fire dragon", "25", "type:fire", "-pika", "\"pika"] {
            guard case .notOneWord = engine.searchOfOneWord(text, options: SearchOptions()) else { Issue.record("'\(text)'"); continue }
        }
        guard case .answered = engine.searchOfOneWord("pika", options: SearchOptions()) else { Issue.record("pika"); return }
    }

    /// A word being typed is completed without parsing it: exactly as parsed. Every text of
    /// `oneWordTexts`, at several limits, in the lists' language and another.
    @Test(.tags(.exhaustive)) func oneWordsCompleteAsParsed() throws {
        let engine = Fixture.engine
        var shortcuts = 0, unanswered = 0, compared = 0
        for text in try Self.oneWordTexts(oneIn: 80) {
            for (limit, language) in [(8, 0), (1, 0), (32, 0), (33, 0), (8, 1)] {
                let parsed = try? engine.completeParsed(text, limit: limit, language: language, kinds: [])
                let completed = try? engine.complete(text, limit: limit, language: language)
                #expect(completed.map(Array.init) == parsed.map(Array.init), "'\(text)' limit \(limit) language \(language)")
                switch engine.completionOfOneWord(text, limit: limit, language: language) {
                case .answered:
                    shortcuts += 1
                    #expect(completed?.route == .oneWordLists, "'\(text)'")
                case .unanswered(let term):
                    if let completed { #expect(completed.route == .oneWordRanked, "'\(text)'") }
                    // The term made from the folding is the one the parser makes.
                    #expect(try QueryParser.parse(text, lenient: true) == ParsedQuery(clauses: [QueryClause(.term(term))], language: nil),
                            "'\(text)'")
                    unanswered += 1
                case .notOneWord: break
                }
                compared += 1
            }
        }
        // The shortcut answers most of them; one that never fired would test nothing.
        #expect(shortcuts > compared / 2, "\(shortcuts) of \(compared) by the shortcut")
        #expect(unanswered > Exhaustive.share(1_000, oneIn: 80), "\(unanswered) of \(compared) matched as a term made from the folding")
        for text in ["12", "pikachu ", "-pika", "mr mime", "★", "ア・イ", "a©b", "x😀", ""] {
            guard case .notOneWord = engine.completionOfOneWord(text, limit: 8, language: 0) else { Issue.record("'\(text)'"); continue }
        }
        for text in ["ぴかちゅう", "ピカチュウ", "피카츄", "皮卡丘", "Pokémon", "farfetch'd", "tm01", "ｐｉｋａ", "★Sgr6859", "けいけんあめＸＬ", "mr.mime", "Nidoran♂",
                     "Multi-Attack", "ho-o"] {
            guard case .answered = engine.completionOfOneWord(text, limit: 8, language: 0) else { Issue.record("'\(text)'"); continue }
        }
        for (limit, language) in [(8, 1), (33, 0)] {
            guard case .unanswered = engine.completionOfOneWord("pikachu", limit: limit, language: language) else {
                Issue.record("limit \(limit) language \(language)"); continue
            }
        }
        guard case .unanswered = engine.completionOfOneWord("giraitna", limit: 8, language: 0) else { Issue.record("giraitna"); return }
    }

    /// Texts of several words as a completion sees them typed: names of several words in
    /// every language, as written (raw) and folded, each from its second word's first letter
    /// on; a type or a word of a name and the start of a name ("fire char", "mega sc"); the
    /// benchmark's completions of several words; and texts the shortcut leaves to the ranking
    /// (the names' texts sampled outside a full run).
    static func wordsPrefixes(oneIn sampling: Int) throws -> [String] {
        let store = try Store(path: Fixture.database, readOnly: true)
        var seen = Set<String>()
        var texts: [String] = []
        func add(_ text: String) { if seen.insert(text).inserted { texts.append(text) } }
        for (i, name) in Exhaustive.sample(try store.readFoldedNames().enumerated().filter { $0.offset % 5 == 0 }, oneIn: sampling) {
            for form in [name.raw, name.folded] {
                let words = form.split(separator: " ")
                guard words.count > 1 else { continue }
                let scalars = Array(words.joined(separator: " ").unicodeScalars)
                let first = words[0].unicodeScalars.count
                for length in stride(from: first + 2, through: scalars.count, by: i % 2 == 0 ? 1 : 3) {
                    add(String(String.UnicodeScalarView(scalars[0..<length])))
                }
            }
        }
        let starts = ["char", "pik", "dra", "m", "s", "gen", "ho", "zyg", "10", "eev", "ピカ", "피카", "皮卡"]
        for field in ["fire", "water", "dragon", "ghost", "feu", "drache", "mega", "legendary", "baby", "levitate", "red", "cave", "ball"] {
            for start in starts { add(field + " " + start) }
        }
        let committed = try String(contentsOfFile: Fixture.root.appendingPathComponent("Benchmarks/queries.tsv").path, encoding: .utf8)
        for line in committed.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count > 1, fields[0] != "filters", fields[1].contains(" ") { add(String(fields[1])) }
        }
        for text in ["mega  scizor", " mega scizor", "mega scizor ", "mega -scizor", "mega sc*", "mega \"sc", "zygarde 10", "10 zyg",
                     "pikachu 25", "fire f", "a b c d e f g h i", "a b c d e f g h", "mega mega", "mega\tscizor", "porygon-z z",
                     "mr. mime", "type: null", "fier drag", "fire dragn", "qzxv pika", "pika qzxv", "ｍｅｇａ ｓｃ", "méga dracaufeu",
                     "farfetch'd gal", "nidoran♀ c", "(タイプ：ドラゴン) シ", "シルヴァディ (タイプ：ド", "★ a", "pokémon pika"] {
            add(text)
        }
        return texts
    }

    /// Several words being typed are completed without parsing them (`completionOfWords`):
    /// exactly as parsed and ranked, at several limits, in the default display language and
    /// others.
    @Test(.tags(.exhaustive)) func wordsCompleteAsParsed() throws {
        let engine = Fixture.engine
        let texts = try Self.wordsPrefixes(oneIn: 64)
        #expect(texts.count > Exhaustive.share(10_000, oneIn: 64))
        var shortcuts = 0, compared = 0
        for text in texts {
            for (limit, language) in [(8, 0), (1, 0), (40, 0), (8, 1), (8, 8)] {
                let parsed = try? engine.completeParsed(text, limit: limit, language: language, kinds: [])
                let completed = try? engine.complete(text, limit: limit, language: language)
                #expect(completed.map(Array.init) == parsed.map(Array.init), "'\(text)' limit \(limit) language \(language)")
                if engine.completionOfWords(text, limit: limit, language: language) != nil {
                    shortcuts += 1
                    #expect(completed?.route == .words, "'\(text)' limit \(limit) language \(language)")
                }
                compared += 1
            }
        }
        // The shortcut answers most of them; one that never fired would test nothing.
        #expect(shortcuts > compared / 2, "\(shortcuts) of \(compared) by the shortcut")
        for text in ["mega scizor", "dusk necr", "Guadaña Sedosa", "méga dracaufeu", "Mega Scovi"] {
            #expect(engine.completionOfWords(text, limit: 8, language: 0) != nil, "'\(text)'")
        }
        // (A space typed last, a number, too many words, a misspelling, syntax, one word, a
        // rarest word of too many postings.)
        for text in ["mega scizor ", "zygarde 10", "a b c d e f g h i", "fier drag", "qzxv pika", "mega sc*", "pikachu", "pokémon pika", "fire char"] {
            #expect(engine.completionOfWords(text, limit: 8, language: 0) == nil, "'\(text)'")
        }
    }

    /// A bare number's documents, found by id group, are those a scan of every document finds.
    @Test func idsFindTheirDocumentsAsAScanDoes() {
        let engine = Fixture.engine
        let index = engine.index
        let largest = Int(index.docID.max()!)
        // (One scan of every document, grouped by id.)
        var scanned: [Int: [Int32]] = [:]
        for doc in 0..<index.docCount { scanned[Int(index.docID[doc]), default: []].append(Int32(doc)) }
        var found = 0
        for id in [-1, Int(Int32.max), Int(Int32.max) + 1, Int.max] + Array(0...(largest + 1)) {
            #expect(Array(engine.docs(withID: id)) == scanned[id] ?? [], "id \(id)")
            found += scanned[id]?.count ?? 0
        }
        #expect(found == index.docCount)
    }

    /// Ids past the counting sort's groups (2^20 and more: none in the corpus) share its
    /// last group, which is looked through for the id asked for.
    @Test func idsPastTheGroupsAreFoundInTheLastGroup() throws {
        // (The small corpus: the ids past the groups are all this looks at.)
        var tables = PokeAPIFixture.shared.subset
        for (id, slug) in [(3_000_000, "farthest-ball"), (2_000_000, "farther-ball"), (1 << 20, "far-ball")] {
            let row = ["\(id)", slug, "standard-balls", "pokeballs", "0", ""]
            tables.tables["items"]!.rows.append(row + Array(repeating: "", count: tables.tables["items"]!.columns.count - row.count))
        }
        let corpus = try Corpus(tables: tables)
        let engine = SearchEngine(index: IndexBuilder.build(Documents(corpus: corpus).indexInput(corpus)))
        let index = engine.index
        for id in [1 << 20, 2_000_000, 2_500_000, 3_000_000, Int(Int32.max)] {
            let scanned = (0..<index.docCount).filter { Int(index.docID[$0]) == id }.map(Int32.init)
            #expect(Array(engine.docs(withID: id)) == scanned, "id \(id)")
            #expect(scanned.count == (id == 2_500_000 || id == Int(Int32.max) ? 0 : 1), "id \(id)")
        }
        #expect(try engine.search("2000000").results.map { (result: SearchResult) in result.slug } == ["farther-ball"])
        #expect(try engine.search("\(1 << 20)").results.map { (result: SearchResult) in result.slug } == ["far-ball"])
        #expect(try engine.search("2500000").results.isEmpty)
    }

    @Test func listsStandAsideWhenTheyCannotAnswer() throws {
        let engine = Fixture.engine
        let parsed = try QueryParser.parse("pi")
        var options = SearchOptions()
        #expect(engine.answerFromTops(parsed, options: options, completion: false) != nil)
        options.language = 1 // French: the lists rank for English
        #expect(engine.answerFromTops(parsed, options: options, completion: false) == nil)
        options = SearchOptions()
        options.kinds = [.move]
        #expect(engine.answerFromTops(parsed, options: options, completion: false) == nil)
        options = SearchOptions()
        options.offset = 30 // past the lists
        #expect(engine.answerFromTops(parsed, options: options, completion: false) == nil)
        // No name starts with it: typos and transliteration are the full path's.
        #expect(engine.answerFromTops(try QueryParser.parse("pikahcu"), options: SearchOptions(), completion: true) == nil)
    }

    /// Every key with more than `WholeWordLists.minimumPostings` postings has lists, and they
    /// give the best whole words of every window (1 to a list's capacity, with and without
    /// fields) exactly as reading the key's postings does, and as each document's best entry
    /// found from the postings alone.
    @Test func commonKeysListTheirBestWholeWordsAsReadingThemDoes() throws {
        let engine = Fixture.engine
        let index = engine.index
        var listed = 0
        for key in 0..<index.keys.count where index.postingRange(key: key).count > WholeWordLists.minimumPostings {
            try #require(index.wholeWords.lists(of: key) != nil, "\(index.keyString(key)) has no lists")
            listed += 1
            for wanted in [1, 2, 8, 20, PrefixTops.capacity] {
                for fields in [false, true] {
                    let (listedBest, readBest) = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * wanted) { buffer in
                        let first = UnsafeMutableBufferPointer(rebasing: buffer[..<wanted]), second = UnsafeMutableBufferPointer(rebasing: buffer[wanted...])
                        return (Array(first[..<engine.bestWholeWords(of: key, fields: fields, into: first)]),
                                Array(second[..<engine.bestWholeWordsRead(of: key, fields: fields, into: second)]))
                    }
                    #expect(listedBest == readBest, "\(index.keyString(key)), \(wanted), fields: \(fields)")
                    // Both go through one loop: also against each document's best entry found
                    // here, from the postings alone.
                    var docBest: [Int: UInt32] = [:]
                    for p in index.postingRange(key: key) {
                        let raw = index.postings[p]
                        guard !Posting(raw: raw).isTransliterated, fields || Posting(raw: raw).role != .field else { continue }
                        let entry = PrefixTops.entry(posting: raw, exact: true)
                        docBest[Int(raw >> 8)] = min(docBest[Int(raw >> 8)] ?? .max, entry)
                    }
                    #expect(readBest == Array(docBest.values.sorted().prefix(wanted)), "\(index.keyString(key)), \(wanted), fields: \(fields)")
                }
            }
        }
        #expect(listed == index.wholeWords.keys.count)
        for word in ["mega", "rock", "vivillon"] {
            #expect(index.keyIndex(Array(word.utf8)).flatMap(index.wholeWords.lists(of:)) != nil, "\(word)")
        }
        // A key of few postings has none (it is read).
        #expect(index.keyIndex(Array("glimmora".utf8)).flatMap(index.wholeWords.lists(of:)) == nil)
    }

    /// Every node's list is its names, then its fields: `names` ends where a scan finds the
    /// first field, and holds `capacity` names at most (which its one look relies on).
    @Test func everyListsNamesEndAtItsFirstField() {
        let tops = Fixture.engine.index.tops
        var full = 0
        for node in 0..<(tops.start.count - 1) {
            let list = Int(tops.start[node])..<Int(tops.start[node + 1])
            let firstField = list.first { HitRank.isField(PrefixTops.rank(tops.entries[$0])) } ?? list.upperBound
            #expect(tops.names(node) == list.lowerBound..<firstField, "node \(node)")
            #expect(firstField - list.lowerBound <= PrefixTops.capacity, "node \(node)")
            if firstField - list.lowerBound == PrefixTops.capacity { full += 1 }
        }
        // (Both ways of finding the end are taken.)
        #expect(full > 0 && full < tops.start.count - 1)
    }

    @Test(.tags(.exhaustive)) func keyRangesAreTheKeysWithThePrefix() throws {
        let index = Fixture.engine.index
        let keys = (0..<index.keys.count).map { Array(index.keys.bytes[index.keys.range($0)]) }
        let prefixes = try Self.prefixes().enumerated().filter({ $0.offset % 97 == 0 }).map(\.element)
        for prefix in Exhaustive.sample(prefixes, oneIn: 16) + ["zzzz", "a", "ピ"] {
            let bytes = Array(prefix.utf8)
            let expected = keys.indices.filter { keys[$0].starts(with: bytes) }
            let range = index.keyRange(prefix: bytes)
            #expect(Array(range) == expected, "'\(prefix)'")
        }
    }

    /// The walk down the trie reads only the bytes choosing a child and compares the others
    /// once, at the end (`TrieView.locate`): a prefix differing from a key in any byte, one
    /// passed over inside an edge or one choosing a child, finds exactly the keys starting
    /// with it (none, mostly), from the root and from the node of any of its first bytes.
    @Test func prefixesDifferingInAnyByteFindTheirOwnKeys() {
        let index = Fixture.engine.index
        let keys = (0..<index.keys.count).map { Array(index.keys.bytes[index.keys.range($0)]) }
        func expected(_ prefix: [UInt8]) -> Range<Int> {
            var low = 0, high = keys.count
            while low < high {
                let mid = (low + high) / 2
                if keys[mid].lexicographicallyPrecedes(prefix) { low = mid + 1 } else { high = mid }
            }
            var end = low
            while end < keys.count && keys[end].starts(with: prefix) { end += 1 }
            return low..<end
        }
        var checked = 0, found = 0, passedOver = 0
        for key in stride(from: 0, to: keys.count, by: 41) where keys[key].count >= 3 {
            for position in 0..<keys[key].count {
                var prefix = keys[key]
                prefix[position] ^= position % 2 == 0 ? 0x01 : 0x20
                let range = index.keyRange(prefix: prefix)
                #expect(range.isEmpty ? expected(prefix).isEmpty : range == expected(prefix), "\(prefix)")
                checked += 1
                if !range.isEmpty { found += 1 }
                let node = index.prefixNode(prefix)
                prefix.withUnsafeBufferPointer { bytes in
                    for known in 1..<bytes.count {
                        guard let start = index.prefixNode(UnsafeBufferPointer(rebasing: bytes[..<known])) else { break }
                        #expect(index.prefixNode(bytes, from: start, known: known) == node, "\(prefix) from \(known)")
                        if known < Int(index.trieNodes[start].depth) { passedOver += 1 }
                    }
                }
            }
        }
        #expect(checked > 10_000)
        // Some changed prefixes are other keys' ("pikachu" → "pikbchu" is none, "mew" → "mev"
        // may be), and many walks start inside an edge.
        #expect(found > 100 && passedOver > 1_000, "\(found) found, \(passedOver) from inside an edge")
    }

    /// Every child of every node is found by its first byte (the root's through its table,
    /// others sixteen bytes at a time, the last nodes' without reading past the array), and
    /// a byte no child starts with finds none (every byte tried on every 16th node).
    @Test func everyChildIsFoundByItsFirstByteAndNoOther() {
        let index = Fixture.engine.index
        var checked = 0
        index.withTrie { trie in
            for node in 0..<index.nodeCount {
                let children = index.trieNodes[node].children
                for child in children {
                    #expect(trie.child(of: node, startingWith: index.nodeByte[child]) == child, "node \(node), child \(child)")
                }
                guard node % 16 == 0 || node == index.nodeCount - 1 else { continue }
                for byte in UInt8.min...UInt8.max {
                    let expected = children.first { index.nodeByte[$0] == byte }
                    if trie.child(of: node, startingWith: byte) != expected {
                        Issue.record("node \(node), byte \(byte): \(String(describing: trie.child(of: node, startingWith: byte))), not \(String(describing: expected))")
                    }
                }
                checked += 1
            }
        }
        #expect(checked > 1_000)
        // Nodes with more children than one comparison reads, besides the root.
        #expect((1..<index.nodeCount).contains { index.trieNodes[$0].children.count > 16 })
    }

    /// Type filters start from the type's own documents: the same documents a scan finds.
    @Test func typeFiltersFindEveryDocumentOfTheType() throws {
        let index = Fixture.engine.index
        var options = SearchOptions()
        options.limit = SearchOptions.maxLimit
        for (t, slug) in index.typeSlugs.enumerated() {
            let expected = (0..<index.docCount).filter { index.docTypes[$0 * 2] == t || index.docTypes[$0 * 2 + 1] == t }
            let response = try Fixture.engine.search("type:\(slug)", options: options)
            #expect(response.total == expected.count, "type:\(slug)")
            #expect(Set(response.results.map(\.doc)).count == response.results.count)
            let kinds = try Fixture.engine.search("type:\(slug) kind:move hp>0", options: options)
            #expect(kinds.total == 0, "moves have no hp")
        }
    }

    @Test func cardsHoldWhatTheColumnsHold() {
        let index = Fixture.engine.index
        for doc in 0..<index.docCount {
            let card = index.card(doc)
            #expect(card.kind == index.kind(doc) && card.id == index.id(doc) && card.slug == index.slug(doc))
            #expect(card.name == index.displayName(doc, language: 0))
            #expect(index.typeSlugs(of: card.types) == index.types(doc))
        }
    }

    /// A card in another display language: that language's name, else the English one,
    /// else the slug (the English cards are built apart, from the same rule).
    @Test func cardsInOtherLanguagesFallBackToEnglishThenTheSlug() throws {
        let index = Fixture.engine.index
        var fallbacks = 0
        for code in ["fr", "ja", "ko"] {
            let language = try #require(Language.codes.firstIndex(of: code))
            for doc in 0..<index.docCount {
                let names = index.names(doc)
                let expected = names.first { $0.language == code }?.text ?? names.first { $0.language == "en" }?.text ?? index.slug(doc)
                let card = index.card(doc, language: language)
                #expect(card.name == expected && card.slug == index.slug(doc) && card.id == index.id(doc) && card.kind == index.kind(doc))
                if names.first(where: { $0.language == code }) == nil { fallbacks += 1 }
            }
        }
        #expect(fallbacks > 0, "some documents have no name in one of these languages")
    }
}
