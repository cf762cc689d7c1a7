/// What one query may spend: postings read, typo-search steps, and wildcard-matching steps
/// (a scalar of a candidate key compared, a key read). Spent, the query is refused as too
/// broad, so that no query runs for long (a few milliseconds at most).
struct WorkBudget {
    var postings: Int
    var typoSteps: Int
    var wildcardSteps: Int
    init(postings: Int = 600_000, typoSteps: Int = 150_000, wildcardSteps: Int = 2_000_000) {
        self.postings = postings
        self.typoSteps = typoSteps
        self.wildcardSteps = wildcardSteps
    }
    var isSpent: Bool { postings < 0 || typoSteps <= 0 || wildcardSteps < 0 }
}
