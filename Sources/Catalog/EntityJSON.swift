import Corpus
import Index

/// One entity in detail as a JSON object, from the facts the index holds: the socket
/// protocol's GET and `show --json` print the same object. Keys keep a fixed order;
/// a number the data does not have is `null`.
public enum EntityJSON {
    public static func object(_ index: IndexSnapshot, doc: Int, language: Int = 0) -> String {
        let kind = index.kind(doc)
        var pairs: [(String, String)] = [
            ("kind", JSONText.string(kind.rawValue)), ("id", String(index.id(doc))), ("slug", JSONText.string(index.slug(doc))),
            ("name", JSONText.string(index.displayName(doc, language: language))),
            ("names", JSONText.object(index.names(doc)
                .sorted { (Language.index(of: $0.language) ?? .max) < (Language.index(of: $1.language) ?? .max) }
                .map { ($0.language, JSONText.string($0.text)) })),
        ]
        func number(_ column: NumericColumn) -> String {
            let value = index.number(column, doc)
            return value == NumericColumn.missing ? "null" : String(value)
        }
        let flags = index.flags(doc)
        switch kind {
        case .pokemon:
            pairs.append(("species_id", number(.speciesID)))
            pairs.append(("types", JSONText.array(index.types(doc).map(JSONText.string))))
            pairs.append(("abilities", JSONText.array(index.abilities(doc).map {
                JSONText.object([("slug", JSONText.string($0.slug)), ("hidden", JSONText.bool($0.hidden))])
            })))
            pairs.append(("stats", JSONText.object(zip(Stats.names + ["total"], statColumns).map { ($0, number($1)) })))
            pairs.append(("height", number(.height)))
            pairs.append(("weight", number(.weight)))
            pairs.append(("color", index.color(doc).map(JSONText.string) ?? "null"))
            pairs.append(("habitat", index.habitat(doc).map(JSONText.string) ?? "null"))
            pairs.append(("generation", number(.generation)))
            pairs.append(("is_default", JSONText.bool(flags.contains(.isDefault))))
            pairs.append(("is_legendary", JSONText.bool(flags.contains(.legendary))))
            pairs.append(("is_mythical", JSONText.bool(flags.contains(.mythical))))
            pairs.append(("is_baby", JSONText.bool(flags.contains(.baby))))
            pairs.append(("is_mega", JSONText.bool(flags.contains(.mega))))
        case .move:
            pairs.append(("type", index.types(doc).first.map(JSONText.string) ?? "null"))
            pairs.append(("power", number(.power)))
            pairs.append(("accuracy", number(.accuracy)))
            pairs.append(("pp", number(.pp)))
            pairs.append(("generation", number(.generation)))
        case .item:
            pairs.append(("cost", number(.cost)))
        case .ability, .type:
            pairs.append(("generation", number(.generation)))
        }
        return JSONText.object(pairs)
    }

    /// The stat columns in the order of `Stats.names`, then the total.
    static let statColumns: [NumericColumn] = [.hp, .attack, .defense, .specialAttack, .specialDefense, .speed, .total]

    /// The document a user's key names: `kind:slug`, an id (the first kind that has it, in
    /// ranking order), or a slug (in kind order; a name's spaces read as hyphens).
    public static func resolve(_ key: String, in index: IndexSnapshot) -> Int? {
        let text = key.lowercased()
        if let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) {
            let rest = String(text[text.index(after: colon)...])
            if let id = Int(rest) { return index.docs(withID: id).first { index.kind($0) == kind } }
            return index.doc(kind: kind, slug: slugForm(rest))
        }
        if let id = Int(text) { return index.docs(withID: id).first }
        let slug = slugForm(text)
        for kind in Kind.allCases {
            if let doc = index.doc(kind: kind, slug: slug) { return doc }
        }
        return nil
    }

    static func slugForm(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }
}
