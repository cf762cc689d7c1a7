@testable import Folding
import Testing

@Suite("Folding")
struct FoldingTests {
    /// Real names from every script PokeAPI carries: (raw, folded, compact).
    static let cases: [(String, String, String)] = [
        ("Pikachu", "pikachu", "pikachu"),
        ("Farfetch’d", "farfetchd", "farfetchd"),
        ("Farfetch'd", "farfetchd", "farfetchd"),
        ("Mr. Mime", "mr mime", "mrmime"),
        ("Porygon-Z", "porygon z", "porygonz"),
        ("Nidoran♀", "nidoran f", "nidoranf"),
        ("Nidoran♂", "nidoran m", "nidoranm"),
        ("Type: Null", "type null", "typenull"),
        ("Typ:Null", "typ null", "typnull"),
        ("Flabébé", "flabebe", "flabebe"),
        ("Poké Ball", "poke ball", "pokeball"),
        ("Évoli", "evoli", "evoli"),
        ("Méga-Dracaufeu X", "mega dracaufeu x", "megadracaufeux"),
        ("Östliches Schalellos", "ostliches schalellos", "ostlichesschalellos"),
        ("Straße", "strasse", "strasse"),
        ("Čarmander", "carmander", "carmander"),
        ("ＰＩＫＡＣＨＵ", "pikachu", "pikachu"),
        ("ピカチュウ", "ピカチュウ", "ピカチュウ"),
        ("ぴかちゅう", "ピカチュウ", "ピカチュウ"),
        ("ｶﾞﾌﾞﾘｱｽ", "ガブリアス", "ガブリアス"),
        ("ガブリアス", "ガブリアス", "ガブリアス"),
        ("カブリアス", "カブリアス", "カブリアス"),
        ("タイプ：ヌル", "タイプ ヌル", "タイプヌル"),
        ("피카츄", "피카츄", "피카츄"),
        ("皮卡丘", "皮卡丘", "皮卡丘"),
        ("噴火龍", "噴火龍", "噴火龍"),
        ("  Mime   Jr.  ", "mime jr", "mimejr"),
        ("Zygarde 10%", "zygarde 10", "zygarde10"),
        ("", "", ""),
    ]

    @Test(arguments: cases)
    func folds(_ raw: String, _ folded: String, _ compact: String) {
        #expect(Folding.fold(raw) == folded)
        #expect(Folding.compact(Folding.fold(raw)) == compact)
    }

    static let transliterations: [(String, String?)] = [
        ("ピカチュウ", "pikachuu"),
        ("ぴかちゅう", "pikachuu"),
        ("イーブイ", "ibui"),
        ("피카츄", "pikachyu"),
        ("이브이", "ibeu i"), // ICU marks the syllable break: 이브-이
        ("皮卡丘", "pi ka qiu"),
        ("伊布", "yi bu"),
        ("Pikachu", nil),
        ("Flabébé", nil),
    ]

    @Test(arguments: transliterations)
    func transliterates(_ raw: String, _ latin: String?) {
        #expect(Folding.transliterate(raw) == latin)
    }

    /// Folding a character at a time must give exactly what ICU gives, for every name of
    /// the corpus it takes, and for the characters around the edges of its ranges.
    @Test func foldingByCharacterEqualsICU() throws {
        let table = try Fixture.corpusTables.table("names")
        let column = try table.index(of: "name", in: "names.tsv")
        var edges = (0xA0...0x2FF).compactMap(Unicode.Scalar.init).map { "x\(String($0))y \(String($0))" }
        edges += [0x3040, 0x3041, 0x3096, 0x3097, 0x3099, 0x309B, 0x30A0, 0x30A1, 0x30FA, 0x30FB, 0x30FC, 0x30FD, 0xAC00, 0xD7A3,
                  0x4E00, 0x9FEF, 0x2018, 0x2019, 0x2BC, 0xB4, 0x2604, 0x2605, 0x2606, 0x263F, 0x2640, 0x2641, 0x2642, 0x2643,
                  0xFF00, 0xFF01, 0xFF07, 0xFF0D, 0xFF10, 0xFF19, 0xFF20, 0xFF21, 0xFF3A, 0xFF3F, 0xFF40, 0xFF41, 0xFF5A, 0xFF5E, 0xFF5F].compactMap(Unicode.Scalar.init).map { "a\(String($0))ガ" }
        var byCharacter = 0
        for text in table.rows.map({ $0[column] }) + edges + ["Pokémon Épée", "ポケモン　センター", "ぽけもん", "Ｐｏｋｅ", "Flabébé", "é😀", "ガ𠀋ガ", "Nidoran♂", "★Sgr6859", "★", "けいけんあめＸＬ", "招式學習器７５"] {
            guard let folded = Folding.foldByScalar(text) else { continue }
            #expect(folded == Folding.foldWithICU(text), "'\(text)'")
            byCharacter += 1
        }
        #expect(byCharacter > 30_000)
        // Four-byte scalars (beyond the scripts folded a character at a time) go to ICU.
        #expect(Folding.foldByScalar("é😀") == nil && Folding.fold("é😀") == Folding.foldWithICU("é😀"))
    }

    /// Buffers for folding by character are sized for a Latin letter folding to at most four
    /// bytes, a constant (a letter folding longer would be left to ICU): none does.
    @Test func latinLettersFoldWithinTheirBufferRoom() {
        let longest = (0xC0...0x24F).compactMap(Unicode.Scalar.init).map { Folding.foldWithICU(String($0)).utf8.count }.max()
        #expect(longest.map { (2...2 * Folding.latinLetterGrowth).contains($0) } == true, "longest folding: \(longest ?? 0) bytes")
        #expect(Folding.foldByScalar("ß") == "ss" && Folding.foldByScalar("Ǆ") == "dz")
    }

    /// The written-out table of Latin letters' foldings is ICU's: each letter folded on its
    /// own, kept where that is a run of word characters (apostrophes dropped) no longer than
    /// the buffers allow (`latinLetterGrowth`). (After a change to the folding, the message of each letter that differs says
    /// what the table should hold.)
    @Test func latinLetterTableIsICUsFolding() throws {
        // (One entry a letter: a table a letter short would be read past its end.)
        try #require(Folding.latinLetters.count == 0x24F - 0xC0 + 1)
        for value in 0xC0...0x24F {
            let folded = Folding.icuFold(String(Unicode.Scalar(UInt32(value))!))
            let joined = Folding.separateWords(folded)
            let isWord = folded.unicodeScalars.allSatisfy { Folding.isWordScalar($0) || Folding.apostrophes.contains($0.value) }
            let expected = isWord && !joined.isEmpty && joined.utf8.count <= 2 * Folding.latinLetterGrowth ? Array(joined.utf8) : nil
            let held = Folding.latinLetters[value - 0xC0]
            #expect(held == expected, "U+\(String(value, radix: 16, uppercase: true)): the table holds \(held.map { String(decoding: $0, as: UTF8.self) } ?? "-"), ICU gives \(expected.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
        }
    }

    /// A capital folds as its small letter does, by ICU and by character: "Œil" was "œil"
    /// and "œil" "oeil", so that the French names with Œ were found by neither.
    @Test func capitalsFoldAsTheirSmallLetters() {
        for value in 0xC0...0x24F {
            let letter = String(Unicode.Scalar(UInt32(value))!)
            #expect(Folding.foldWithICU(letter) == Folding.foldWithICU(letter.lowercased()), "\(letter)")
            #expect(Folding.fold(letter) == Folding.fold(letter.lowercased()), "\(letter)")
        }
        #expect(Folding.fold("Œil Miracle") == "oeil miracle" && Folding.foldWithICU("ØRE") == "ore")
    }

    @Test func katakanaAndHiraganaFoldToOneKey() {
        #expect(Folding.fold("イーブイ") == Folding.fold("いーぶい"))
        #expect(Folding.fold("ガ") != Folding.fold("カ"), "voicing marks are not diacritics to drop")
    }

    @Test func foldingIsThreadSafe() async {
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { (0..<50).allSatisfy { _ in Folding.transliterate("ピカチュウ") == "pikachuu" && Folding.fold("Évoli") == "evoli" } }
            }
            for await ok in group { #expect(ok) }
        }
    }

    @Test func foldedNameHasEveryForm() {
        let name = FoldedName(doc: 7, language: "ja", raw: "リザードン")
        #expect(name.folded == "リザードン" && name.compact == "リザードン" && name.translit == "rizadon")
    }
}
