import Catalog
import Index
import Foundation
import Query
import Server
import Locking
#if canImport(Glibc)
import Glibc
#endif

// pokesearch-stress: the robustness measurements (docs/ROBUSTNESS.md), and a loop to profile
// queries under (DEVELOPERS.md).
//   pokesearch-stress costs --db PATH
//       times the worst queries we can construct against the engine (release build):
//       each must answer within 10 ms or fail with an error.
//   pokesearch-stress load --socket PATH --pid PID [--clients 256] [--seconds 60] [--warmup 10] [--reload-every 5]
//       drives a running server with a mix of COMPLETE, SEARCH, GET and RELOAD; fails on any
//       error, on RSS growing over 10% past warm-up, or on file descriptors left open (more
//       after the run than after warm-up).
//   pokesearch-stress repeat --db PATH [--complete] [--cold] [--count N] QUERY...
//       runs each query N times (default 100,000) in turn and prints each one's median:
//       a steady loop to profile under `perf record`, without ingest or index build; with
//       --cold, each query with the caches emptied first (its chain of cache misses).

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pokesearch-stress: \(message)\n".utf8))
    exit(1)
}

func option(_ name: String, _ arguments: [String]) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

// MARK: - Costs

/// The worst queries: each limit at and past its bound, and the slow paths (typos,
/// wildcards, transliteration, wide windows and sorts) at their largest.
func worstQueries() -> [(label: String, text: String, options: SearchOptions)] {
    var wide = SearchOptions()
    wide.limit = SearchOptions.maxLimit
    var deep = wide
    deep.offset = SearchOptions.maxOffset
    var sorted = wide
    sorted.sort = .name
    sorted.descending = true
    let plain = SearchOptions()
    let max = QueryParser.maxClauses, length = QueryParser.maxLength
    func repeated(_ term: String, _ count: Int) -> String { Array(repeating: term, count: count).joined(separator: " ") }
    let nonsense = (0..<max).map { i -> String in
        let letters: [Character] = (0..<12).map { j in Character(UnicodeScalar(UInt8(97 + (i * 7 + j * 3) % 26))) }
        return String(letters)
    }.joined(separator: " ")
    let typoWords: [String] = ["charzard", "pikachi", "bulbasuar", "squirtel", "gengarr", "dragonit", "mewtwoo", "snorlex"]
    return [
        ("32 one-letter terms", repeated("a", max), plain),
        ("33 terms (over the limit)", repeated("a", max + 1), plain),
        ("32 typo terms (8 letters, 2 edits each)", (0..<max).map { typoWords[$0 % typoWords.count] }.joined(separator: " "), plain),
        ("32 distinct 12-letter nonsense terms", nonsense, plain),
        ("one 4096-letter term", String(repeating: "a", count: length), plain),
        ("one 4097-letter term (over the limit)", String(repeating: "a", count: length + 1), plain),
        ("one 200-letter term", String(repeating: "a", count: 200), plain),
        ("one 64-letter nonsense term", String(repeating: "qzxv", count: 16), plain),
        ("4096-letter phrase", "\"" + String(repeating: "ab ", count: (length - 2) / 3) + "\"", plain),
        ("32 wildcards *", repeated("*", max), plain),
        ("32 wildcard terms *a*e*", repeated("*a*e*", max), plain),
        ("wildcard ?*?*?*?*?*?*?*?*", "?*?*?*?*?*?*?*?*", plain),
        ("wildcard *e*e*e*e*e*e*e*e*", "*e*e*e*e*e*e*e*e*", plain),
        ("32 kana terms (transliterated)", repeated("ピカチュウ", max), plain),
        // Found only inside a name (the compact form of "ミノマダム (ゴミのミノ)", hiragana read as
        // katakana), so its typos are searched too, on their share of the budget.
        ("an 8-kana piece found only inside names", "マダムゴミノミノ", plain),
        ("32 hangul terms", repeated("피카츄", max), plain),
        ("32 negations", (0..<max).map { "-" + typoWords[$0 % typoWords.count] }.joined(separator: " "), plain),
        ("32 numeric filters", repeated("hp>1", max), plain),
        ("id range 1..999999999", "id:1..999999999", plain),
        ("'e' with limit 1000", "e", wide),
        ("'e' with limit 1000, offset 100000", "e", deep),
        ("'e' with limit 1000, sorted by name desc", "e", sorted),
        ("'*' with limit 1000, sorted by name desc", "*", sorted),
    ]
}

func runCosts(_ arguments: [String]) {
    guard let database = option("--db", arguments) else { fail("costs needs --db PATH") }
    let engine: SearchEngine
    do { engine = try Catalog.open(path: database, notice: { _ in }).engine } catch { fail("cannot open \(database): \(error)") }
    let runs = 7
    print("| query | outcome | median ms | max ms |")
    print("|---|---|---:|---:|")
    var over = 0
    for (label, text, options) in worstQueries() {
        for (mode, run) in [("search", { _ = try engine.search(text, options: options) }),
                            ("complete", { _ = try engine.complete(text, limit: 8) })] as [(String, () throws -> Void)] {
            var times: [Double] = []
            var outcome = "results"
            // (One run first, untimed: a process's first transliteration opens ICU's
            // transliterator, about 20 ms once, which is no query's cost.)
            _ = try? run()
            for _ in 0..<runs {
                let start = monotonicSeconds()
                do { try run() } catch { outcome = "error: \(error)".prefix(60) + "" }
                times.append((monotonicSeconds() - start) * 1000)
            }
            times.sort()
            if times[runs - 1] > 10 { over += 1 }
            print(String(format: "| %@ (%@) | %@ | %.2f | %.2f |", label, mode, outcome.replacingOccurrences(of: "|", with: "/"),
                         times[runs / 2], times[runs - 1]))
        }
    }
    if over > 0 { fail("\(over) queries took more than 10 ms") }
}

// MARK: - Load

/// One client's blocking connection: sends a line, reads the answer line.
final class LoadClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(path: String) {
        switch UnixSocket.connect(path: path) {
        case .success(let fd): self.fd = fd
        case .failure(let error): fail("cannot connect to \(path): \(error)")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The answer to `line`, or nil when the connection failed.
    func request(_ line: String) -> [UInt8]? {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return nil }
            sent += n
        }
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let answer = Array(buffer[start..<newline])
                start = newline + 1
                if start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
                return answer
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}

/// Per kind of request: latencies in ms and errors.
struct Tally {
    var latencies: [String: [Double]] = [:]
    var errors: [String] = []

    mutating func merge(_ other: Tally) {
        for (verb, times) in other.latencies { latencies[verb, default: []] += times }
        errors += other.errors
    }
}

let completePrefixes = ["p", "pi", "pik", "char", "bulb", "eev", "mew", "dra", "gar", "sq", "thu", "fla", "ピカ", "fire b", "mr m", "tox"]
let searchQueries = ["pikachu", "fire dragon", "type:water gen:1", "bst>600", "\"mr mime\"", "charzard", "*meleon", "is:legendary",
                     "ability:levitate", "hp>100 def<50", "move:pound", "-type:flying kind:pokemon", "ピカチュウ", "lang:fr dracaufeu", "id:1..151"]
let getKeys = ["pikachu", "25", "move:thunderbolt", "charizard-mega-x", "item:master-ball", "ability:levitate", "type:fire", "mew"]

/// One client's loop until `deadline`: mostly SEARCH and COMPLETE, some GET, and on client 0
/// a RELOAD every `reloadEvery` seconds (a rebuild takes a core for a while).
func clientLoop(index: Int, path: String, deadline: Double, reloadEvery: Double) -> Tally {
    let client = LoadClient(path: path)
    var tally = Tally()
    var generator = SystemRandomNumberGenerator()
    var nextReload = monotonicSeconds() + reloadEvery
    while monotonicSeconds() < deadline {
        let verb: String, line: String
        let dice = Int.random(in: 0..<100, using: &generator)
        if index == 0 && monotonicSeconds() >= nextReload {
            nextReload += reloadEvery
            (verb, line) = ("RELOAD", "RELOAD")
        } else if dice < 45 {
            (verb, line) = ("COMPLETE", "COMPLETE \(completePrefixes.randomElement(using: &generator)!) LIMIT(8)")
        } else if dice < 85 {
            (verb, line) = ("SEARCH", "SEARCH \(searchQueries.randomElement(using: &generator)!) LIMIT(20)")
        } else {
            (verb, line) = ("GET", "GET \(getKeys.randomElement(using: &generator)!)")
        }
        let start = monotonicSeconds()
        guard let answer = client.request(line) else {
            tally.errors.append("client \(index): connection lost on \(line)")
            break
        }
        tally.latencies[verb, default: []].append((monotonicSeconds() - start) * 1000)
        if !answer.starts(with: Array(#"{"ok":true"#.utf8)) {
            tally.errors.append("\(line) → \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
    }
    _ = client.request("QUIT")
    return tally
}

/// Runs `clients` threads for `seconds`; their merged tally.
func drive(path: String, clients: Int, seconds: Double, reloadEvery: Double) -> Tally {
    let deadline = monotonicSeconds() + seconds
    let results = Locked(Tally())
    let group = DispatchGroup()
    for index in 0..<clients {
        group.enter()
        let thread = Thread {
            let tally = clientLoop(index: index, path: path, deadline: deadline, reloadEvery: reloadEvery)
            results.withLock { $0.merge(tally) }
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    return results.withLock { $0 }
}

/// A /proc/PID/status figure in kB: VmRSS, RssAnon (the heap: where a leak shows), RssFile.
func residentKilobytes(_ pid: String, _ field: String = "VmRSS") -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

func memory(_ pid: String) -> String {
    "RSS \(residentKilobytes(pid)) kB (heap \(residentKilobytes(pid, "RssAnon")) kB, file \(residentKilobytes(pid, "RssFile")) kB)"
}

func openDescriptors(_ pid: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}

func runLoad(_ arguments: [String]) {
    guard let path = option("--socket", arguments), let pid = option("--pid", arguments) else {
        fail("load needs --socket PATH --pid PID")
    }
    let clients = option("--clients", arguments).flatMap(Int.init) ?? 256
    let seconds = option("--seconds", arguments).flatMap(Double.init) ?? 60
    let warmup = option("--warmup", arguments).flatMap(Double.init) ?? 10
    let reloadEvery = option("--reload-every", arguments).flatMap(Double.init) ?? 5
    let descriptorsBefore = openDescriptors(pid)
    print("server pid \(pid): \(descriptorsBefore) file descriptors, \(memory(pid)) before any client")
    // Descriptors once the clients have left: the server closes the connections it was told to
    // QUIT, and a RELOAD sent near the end still has the database open until its rebuild is
    // done (under a second). Counted once back to `expected`, or after 5 s.
    func settledDescriptors(_ expected: Int) -> Int {
        var count = openDescriptors(pid)
        for _ in 0..<50 where count != expected {
            usleep(100_000)
            count = openDescriptors(pid)
        }
        return count
    }
    let warm = drive(path: path, clients: clients, seconds: warmup, reloadEvery: reloadEvery)
    let rssWarm = residentKilobytes(pid)
    // The baseline: the first RELOAD's rebuild starts libdispatch's worker pool, whose event
    // manager keeps three descriptors (epoll, eventfd, timerfd) for the life of the process.
    let descriptorsWarm = settledDescriptors(descriptorsBefore + 3)
    print("warm-up: \(clients) clients for \(Int(warmup)) s, \(warm.latencies.values.reduce(0) { $0 + $1.count }) requests, \(warm.errors.count) errors; \(memory(pid))")
    let tally = drive(path: path, clients: clients, seconds: seconds, reloadEvery: reloadEvery)
    let rssAfter = residentKilobytes(pid)
    print("after the run: \(memory(pid))")
    let descriptorsAfter = settledDescriptors(descriptorsWarm)
    let total = tally.latencies.values.reduce(0) { $0 + $1.count }
    print("load: \(clients) clients for \(Int(seconds)) s: \(total) requests (\(Int(Double(total) / seconds))/s), \(tally.errors.count) errors")
    print("| request | count | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    let all = tally.latencies.values.flatMap { $0 }.sorted()
    for (verb, times) in tally.latencies.sorted(by: { $0.key < $1.key }) + [("all", all)] {
        let sorted = times.sorted()
        print(String(format: "| %@ | %d | %.2f | %.2f | %.2f | %.2f | %.2f |", verb, sorted.count, percentile(sorted, 0.5),
                     percentile(sorted, 0.9), percentile(sorted, 0.99), percentile(sorted, 0.999), sorted.last ?? 0))
    }
    let growth = rssWarm > 0 ? Double(rssAfter - rssWarm) / Double(rssWarm) * 100 : 0
    print(String(format: "RSS after warm-up %d kB, after the run %d kB (%+.1f%%); file descriptors %d before any client, %d after warm-up, %d after the run",
                 rssWarm, rssAfter, growth, descriptorsBefore, descriptorsWarm, descriptorsAfter))
    var failures: [String] = []
    if !(warm.errors + tally.errors).isEmpty { failures.append("errors: " + (warm.errors + tally.errors).prefix(5).joined(separator: "; ")) }
    if growth > 10 { failures.append(String(format: "RSS grew %.1f%% after warm-up", growth)) }
    if descriptorsAfter != descriptorsWarm { failures.append("\(descriptorsAfter - descriptorsWarm) file descriptors left open") }
    if !failures.isEmpty { fail(failures.joined(separator: "; ")) }
    print("load held: no errors, no leak")
}

// MARK: - Repeat

func runRepeat(_ arguments: [String]) {
    guard let database = option("--db", arguments) else { fail("repeat needs --db PATH") }
    let count = option("--count", arguments).map { Int($0) ?? 0 } ?? 100_000
    guard count > 0 else { fail("--count needs a positive whole number") }
    let completion = arguments.contains("--complete")
    let cold = arguments.contains("--cold")
    var queries: [String] = []
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
        if argument == "--db" || argument == "--count" {
            _ = rest.popFirst()
        } else if argument != "--complete" && argument != "--cold" {
            queries.append(argument)
        }
    }
    guard !queries.isEmpty else { fail("repeat needs at least one query") }
    let engine: SearchEngine
    do { engine = try Catalog.open(path: database, notice: { _ in }).engine } catch { fail("cannot open \(database): \(error)") }
    var times = Array(repeating: [Double](), count: queries.count)
    // With --cold, 64 MB are read and written before each query (twice the last-level cache): the query
    // then finds none of the index in the caches, and its time is mostly its chain of misses.
    var evictor = cold ? [UInt64](repeating: 1, count: 8 << 20) : []
    var evicted: UInt64 = 0
    for _ in 0..<count {
        for (slot, query) in queries.enumerated() {
            if cold {
                evictor.withUnsafeMutableBufferPointer { lines in
                    for i in stride(from: 0, to: lines.count, by: 8) { evicted &+= lines[i]; lines[i] = evicted }
                }
            }
            let start = monotonicSeconds()
            do {
                if completion { _ = try engine.complete(query, limit: 8) } else { _ = try engine.search(query) }
            } catch { fail("'\(query)': \(error)") }
            times[slot].append((monotonicSeconds() - start) * 1e6)
        }
    }
    // (Printing what the eviction read keeps it from being optimised away.)
    if cold { print("caches emptied before each query (read \(evicted % 1000))") }
    for (slot, query) in queries.enumerated() {
        times[slot].sort()
        print(String(format: "%10.2f µs  %@", times[slot][count / 2], query))
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "costs": runCosts(arguments)
case "load": runLoad(arguments)
case "repeat": runRepeat(arguments)
default: fail("usage: pokesearch-stress costs --db PATH | load --socket PATH --pid PID [--clients N] [--seconds S] [--warmup S] [--reload-every S] | repeat --db PATH [--complete] [--cold] [--count N] QUERY...")
}
