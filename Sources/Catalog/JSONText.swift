import Foundation
import Query

/// JSON text for pokesearch's outputs, shared by `--json` and the socket protocol so the two
/// always print the same objects. Objects keep their key order.
public enum JSONText {
    public static func string(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// An object from ordered pairs whose values are already JSON.
    public static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    public static func bool(_ value: Bool) -> String { value ? "true" : "false" }
    public static func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    public static func number(_ value: Double) -> String { value.isFinite ? String(value) : "null" }

    /// One search result: `{"kind","id","slug","name","score"}`, `"types"` for Pokémon and
    /// moves, `"explain"` when asked.
    public static func result(_ r: SearchResult) -> String {
        var pairs: [(String, String)] = [
            ("kind", string(r.kind.rawValue)), ("id", String(r.id)), ("slug", string(r.slug)),
            ("name", string(r.name)), ("score", String(r.score)),
        ]
        if r.kind == .pokemon || r.kind == .move { pairs.append(("types", array(r.types.map(string)))) }
        if !r.explanation.isEmpty {
            pairs.append(("explain", array(r.explanation.map { e in
                object([("term", string(e.term)), ("match", string(e.matchClass.label)), ("field", string(e.role)),
                        ("lang", e.language.map(string) ?? "null"), ("typos", String(e.typos)),
                        ("transliterated", bool(e.transliterated))])
            })))
        }
        return object(pairs)
    }

    public static func suggestion(_ s: Suggestion) -> String {
        object([("text", string(s.text)), ("kind", string(s.kind.rawValue)), ("id", String(s.id)), ("slug", string(s.slug))])
    }
}
