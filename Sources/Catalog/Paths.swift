import Foundation

/// Where pokesearch keeps and finds its files.
public enum Paths {
    /// The database: `--db`, else `$POKESEARCH_DB`, else `$XDG_DATA_HOME/pokesearch/pokesearch.sqlite`,
    /// else `~/.local/share/pokesearch/pokesearch.sqlite`.
    public static func database(override: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override, !override.isEmpty { return override }
        if let path = environment["POKESEARCH_DB"], !path.isEmpty { return path }
        return dataHome(environment) + "/pokesearch/pokesearch.sqlite"
    }

    static func dataHome(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg }
        return home(environment) + "/.local/share"
    }

    /// The cache directory: `$XDG_CACHE_HOME/pokesearch`, else `~/.cache/pokesearch`.
    public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/pokesearch" }
        return home(environment) + "/.cache/pokesearch"
    }

    static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// The bundled corpus: `$POKESEARCH_CORPUS`, else `corpus/` found above the running
    /// executable (a build inside the checkout), else the checkout this was compiled from,
    /// else the system share directories.
    public static func bundledCorpus(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fileManager = FileManager.default
        func isCorpus(_ url: URL) -> Bool { fileManager.fileExists(atPath: url.appendingPathComponent("names.tsv").path) }
        if let path = environment["POKESEARCH_CORPUS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("corpus"))
            candidates.append(directory.appendingPathComponent("share/pokesearch/corpus"))
            directory = directory.deletingLastPathComponent()
        }
        // Sources/Catalog/Paths.swift → the checkout's corpus/.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(checkout.appendingPathComponent("corpus"))
        candidates.append(URL(fileURLWithPath: "/usr/local/share/pokesearch/corpus"))
        candidates.append(URL(fileURLWithPath: "/usr/share/pokesearch/corpus"))
        return candidates.first(where: isCorpus)
    }
}
