import Testing
@testable import Folding

@Test func foldProbe() {
    for s in ["Farfetch’d", "Mr. Mime", "Porygon-Z", "Nidoran♀", "Type: Null", "Flabébé", "Poké Ball", "ピカチュウ", "ぴかちゅう", "ｶﾞﾌﾞﾘｱｽ", "ＰＩＫＡＣＨＵ", "피카츄", "皮卡丘", "Straße", "Ñandú"] {
        print(s, "→", Folding.fold(s), "|", Folding.compact(Folding.fold(s)), "|", Folding.transliterate(s) ?? "-")
    }
}
