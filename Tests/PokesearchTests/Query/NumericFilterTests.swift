import Index
import Query
import Testing

/// Numeric filters against the index's own columns: every comparison, at the corpus's
/// edges and past Int32's, negated too, keeps exactly the documents whose number holds it
/// (a document without the number, a move's hp, matches none; negated, it is kept).
@Suite("Numeric filters")
struct NumericFilterTests {
    static let cases: [(query: String, column: NumericColumn, holds: @Sendable (Int) -> Bool)] = [
        ("hp>100", .hp, { $0 > 100 }),
        ("hp>=255", .hp, { $0 >= 255 }),
        ("hp<1", .hp, { $0 < 1 }),
        ("hp<=1", .hp, { $0 <= 1 }),
        ("hp=1", .hp, { $0 == 1 }),
        ("hp:50..60", .hp, { $0 >= 50 && $0 <= 60 }),
        ("hp:..40", .hp, { $0 <= 40 }),
        ("hp:200..", .hp, { $0 >= 200 }),
        ("atk>9223372036854775807", .attack, { _ in false }),
        ("atk<-9223372036854775808", .attack, { _ in false }),
        ("atk>=-9223372036854775808", .attack, { _ in true }),
        ("atk<=9223372036854775807", .attack, { _ in true }),
        ("atk<-2147483648", .attack, { _ in false }),
        ("power>=100", .power, { $0 >= 100 }),
        ("gen:9", .generation, { $0 == 9 }),
    ]

    @Test(arguments: cases.indices)
    func numericFilterKeepsWhatItsComparisonHolds(_ i: Int) throws {
        let (query, column, holds) = Self.cases[i]
        let index = Fixture.engine.index
        let values = (0..<index.docCount).map { index.number(column, $0) }
        let holding = values.filter { $0 != NumericColumn.missing && holds(Int($0)) }.count
        #expect(try Fixture.engine.search(query).total == holding, "\(query)")
        #expect(try Fixture.engine.search("-" + query).total == index.docCount - holding, "-\(query)")
    }

    @Test func idFilterKeepsTheIDsInItsBounds() throws {
        let index = Fixture.engine.index
        for (query, holds) in [("id:1..151", { (id: Int) in id >= 1 && id <= 151 }), ("id:10000..", { $0 >= 10000 }),
                               ("id:..0", { $0 <= 0 }), ("id:-9223372036854775808..9223372036854775807", { _ in true })] {
            let holding = index.docID.filter { holds(Int($0)) }.count
            #expect(try Fixture.engine.search(query).total == holding, "\(query)")
            #expect(try Fixture.engine.search("-" + query).total == index.docCount - holding, "-\(query)")
        }
    }
}
