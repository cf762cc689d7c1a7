import Corpus
import Foundation
import Query
@testable import Server
import Testing

@Suite("Favourites filter detection")
struct FavouritesFilterTests {
    @Test(arguments: [("is:fav", true), ("IS:FAV pika", true), ("-is:favourite", true), ("fire is:favorite", true),
                      ("ffav", false), ("favourite", false), ("is:legendary", false), ("fa v", false), ("", false)])
    func queriesFilteringByFavouritesAreRecognised(query: String, filters: Bool) {
        #expect(QueryParser.filtersFavourites(query) == filters, "\(query)")
    }
}
