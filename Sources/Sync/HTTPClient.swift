import CCurl
import Foundation
import Locking
import Synchronization

/// How pokesearch talks HTTP. The environment can shorten the waits (tests, slow links):
/// POKESEARCH_HTTP_TIMEOUT (seconds per request), POKESEARCH_HTTP_ATTEMPTS (tries per URL),
/// POKESEARCH_HTTP_BACKOFF (first retry delay in seconds, doubled each time).
public struct HTTPSettings: Sendable {
    public static let userAgent = "pokesearch/0.1 (+https://github.com/pokesearch/pokesearch)"
    public var timeout: Double = 60
    public var connectTimeout: Double = 15
    /// A transfer slower than 1 byte/s for this long is a stall, handled as a timeout.
    public var stallSeconds: Double = 20
    public var attempts = 5
    public var backoff: Double = 0.5
    public var maxDelay: Double = 60
    /// Requests in flight at once (PokeAPI's fair-use policy asks for restraint).
    public var concurrency = 8

    public init() {}

    public init(environment: [String: String]) {
        self.init()
        if let value = environment["POKESEARCH_HTTP_TIMEOUT"].flatMap(Double.init), value > 0 {
            timeout = value
            stallSeconds = min(stallSeconds, value)
            connectTimeout = min(connectTimeout, value)
        }
        if let value = environment["POKESEARCH_HTTP_ATTEMPTS"].flatMap(Int.init), value >= 1 { attempts = value }
        if let value = environment["POKESEARCH_HTTP_BACKOFF"].flatMap(Double.init), value >= 0 { backoff = value }
    }

    /// Exponential backoff with jitter: a random delay in [d/2, d] for d = backoff·2^(attempt-1).
    func delay(afterAttempt attempt: Int) -> Double {
        let full = min(maxDelay, backoff * pow(2, Double(attempt - 1)))
        return full / 2 + Double.random(in: 0...1) * full / 2
    }
}

/// Why a download failed, naming the URL: what `ingest --api`, `ingest --csv URL` and
/// `sprite` print as their one error line.
public enum SyncError: Error, CustomStringConvertible, Equatable {
    case http(url: String, status: Int, attempts: Int)
    case transport(url: String, message: String, attempts: Int)
    case badBody(url: String, reason: String)
    case badURL(String)
    case cannotWrite(path: String, reason: String)
    /// The response (decoded) would be larger than `limitBytes`: refused before it is all read.
    case tooLarge(url: String, limitBytes: Int)

    public var description: String {
        func tries(_ n: Int) -> String { n > 1 ? " (after \(n) attempts)" : "" }
        switch self {
        case .http(let url, 404, _):
            return "\(url): not found (HTTP 404); check the API base URL"
        case .http(let url, let status, let attempts):
            let what = status == 429 ? "too many requests" : status >= 500 ? "server error" : "refused"
            return "\(url): \(what) (HTTP \(status))\(tries(attempts)); the previous database is unchanged, try again later"
        case .transport(let url, let message, let attempts):
            return "\(url): \(message)\(tries(attempts)); the previous database is unchanged"
        case .badBody(let url, let reason):
            return "\(url): \(reason); the previous database is unchanged"
        case .badURL(let text):
            return "'\(text)' is not an http:// or https:// URL"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .tooLarge(let url, let limit):
            return "\(url): the response is larger than \(limit >> 20) MB, more than it can be; refused, nothing written"
        }
    }

    static func checkURL(_ text: String) throws {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw SyncError.badURL(text)
        }
    }
}

/// The most a response may hold once decoded (a gzip body is counted as it inflates, so a
/// small compressed bomb is refused as soon as it has grown past this), by what it is.
public enum ResponseLimit {
    /// A PokeAPI JSON resource (the largest real ones are a few hundred KB).
    public static let apiResource = 16 << 20
    /// One of PokeAPI's CSV tables (the largest the converter reads is a few MB).
    public static let csvTable = 64 << 20
    /// A sprite: PokeAPI's are a few KB.
    public static let sprite = 4 << 20
}

/// What one HTTP exchange gave.
struct HTTPResponse: Sendable {
    var status: Int
    var body: [UInt8]
    var etag: String?
    var lastModified: String?
    /// Seconds to wait, from a Retry-After header (seconds or an HTTP date).
    var retryAfter: Double?
}

/// The validators of a cached response, sent as If-None-Match / If-Modified-Since.
struct Validators: Sendable {
    var etag: String?
    var lastModified: String?
}

/// Body and header lines of the transfer in progress, filled by libcurl's callbacks.
private final class TransferBuffer {
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    let limit: Int
    /// The body would have passed `limit`: the transfer was stopped.
    var tooLarge = false

    init(limit: Int) { self.limit = limit }
}

/// One libcurl easy handle. It keeps its connection (and DNS) cache between requests, so
/// reusing it reuses the connection. Used by one thread at a time: the pool hands it out.
final class CurlConnection: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    private let settings: HTTPSettings
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    private static let globalInit: Void = { pokesearch_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init(settings: HTTPSettings) {
        _ = Self.globalInit
        handle = pokesearch_curl_easy_init()
        self.settings = settings
    }

    deinit { pokesearch_curl_easy_cleanup(handle) }

    /// One GET of at most `limit` bytes of body, with the libcurl error message on a
    /// transport failure.
    func get(_ url: String, validators: Validators?, limit: Int) -> Result<HTTPResponse, CurlFailure> {
        pokesearch_curl_easy_reset(handle)
        let buffer = TransferBuffer(limit: limit)
        let context = Unmanaged.passUnretained(buffer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>? = nil
        if let etag = validators?.etag { headers = pokesearch_curl_slist_append(headers, "If-None-Match: \(etag)") }
        if let date = validators?.lastModified { headers = pokesearch_curl_slist_append(headers, "If-Modified-Since: \(date)") }
        defer { pokesearch_curl_slist_free_all(headers) }
        pokesearch_curl_setopt_string(handle, CURLOPT_URL, url)
        pokesearch_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        pokesearch_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        pokesearch_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        pokesearch_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
        pokesearch_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        pokesearch_curl_setopt_string(handle, CURLOPT_USERAGENT, HTTPSettings.userAgent)
        pokesearch_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        pokesearch_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000))
        pokesearch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.timeout * 1000))
        pokesearch_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        pokesearch_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(settings.stallSeconds)))
        // A Content-Length past the limit is refused before any of the body is read; a body
        // without one (or decoded larger than sent) is stopped by the write callback.
        pokesearch_curl_setopt_long(handle, CURLOPT_MAXFILESIZE, limit)
        pokesearch_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers.map { UnsafeMutableRawPointer($0) })
        pokesearch_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let buffer = Unmanaged<TransferBuffer>.fromOpaque(context!).takeUnretainedValue()
            guard buffer.body.count + size * count <= buffer.limit else {
                buffer.tooLarge = true
                return 0 // stops the transfer (CURLE_WRITE_ERROR)
            }
            if let data { buffer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count)) }
            return size * count
        }
        pokesearch_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        pokesearch_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let buffer = Unmanaged<TransferBuffer>.fromOpaque(context!).takeUnretainedValue()
            guard let data else { return 0 }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                buffer.headers = [:] // a new response (after a redirect or 100 Continue)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                buffer.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return size * count
        }
        pokesearch_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        let failure: CurlFailure? = errorBuffer.withUnsafeMutableBufferPointer { pointer in
            pointer[0] = 0
            pokesearch_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, pointer.baseAddress)
            let code = pokesearch_curl_easy_perform(handle)
            pokesearch_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            guard code != CURLE_OK else { return nil }
            let detail = String(cString: pointer.baseAddress!)
            return CurlFailure(code: code.rawValue, message: detail.isEmpty ? String(cString: pokesearch_curl_easy_strerror(code)) : detail,
                               tooLarge: buffer.tooLarge || code == CURLE_FILESIZE_EXCEEDED)
        }
        if let failure { return .failure(failure) }
        var status = 0
        pokesearch_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPResponse(status: status, body: buffer.body, etag: buffer.headers["etag"],
                                     lastModified: buffer.headers["last-modified"],
                                     retryAfter: buffer.headers["retry-after"].flatMap(Self.retryAfter)))
    }

    /// Retry-After is a number of seconds or an HTTP date.
    static func retryAfter(_ value: String) -> Double? {
        if let seconds = Double(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }
}

struct CurlFailure: Error {
    var code: UInt32
    var message: String
    /// The body was larger than the request's limit.
    var tooLarge = false

    /// Timeouts and connections dropped mid-transfer are worth another try; a host that
    /// does not resolve or refuses connections is not.
    var isTransient: Bool {
        [CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR]
            .map(\.rawValue).contains(code)
    }
}

/// Up to `settings.concurrency` requests in flight on worker threads, each with a libcurl
/// handle from a shared pool (so connections are reused across batches), with retries.
final class HTTPPool: Sendable {
    let settings: HTTPSettings
    private let idle = Locked<[CurlConnection]>([])
    /// Retries so far, and whether a failure has cancelled the batch in progress.
    let retries = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    init(settings: HTTPSettings) { self.settings = settings }

    /// GET with retries on timeouts, dropped transfers, 429 and 5xx (honouring Retry-After).
    /// Returns a 2xx or 304 response of at most `limit` bytes; anything else is an error.
    func get(_ url: String, validators: Validators?, connection: CurlConnection,
             limit: Int = ResponseLimit.apiResource) throws -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            let wait: Double
            switch connection.get(url, validators: validators, limit: limit) {
            case .failure(let failure) where failure.tooLarge:
                throw SyncError.tooLarge(url: url, limitBytes: limit)
            case .failure(let failure):
                guard failure.isTransient, attempt < settings.attempts, !isCancelled else {
                    throw SyncError.transport(url: url, message: failure.message, attempts: attempt)
                }
                wait = settings.delay(afterAttempt: attempt)
            case .success(let response):
                if (200..<300).contains(response.status) || response.status == 304 { return response }
                guard response.status == 429 || (500..<600).contains(response.status), attempt < settings.attempts, !isCancelled else {
                    throw SyncError.http(url: url, status: response.status, attempts: attempt)
                }
                wait = min(settings.maxDelay, max(response.retryAfter ?? 0, settings.delay(afterAttempt: attempt)))
            }
            retries.add(1, ordering: .relaxed)
            sleep(seconds: wait)
        }
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Sleeps in short steps so that a cancelled batch ends promptly.
    private func sleep(seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while !isCancelled, Date() < end { Thread.sleep(forTimeInterval: min(0.05, max(0, end.timeIntervalSinceNow))) }
    }

    /// Runs `work` over every item on up to `settings.concurrency` threads; results in item
    /// order. The first error cancels the rest (in-flight requests finish) and is thrown.
    func map<Item: Sendable, Value: Sendable>(_ items: [Item], _ work: @escaping @Sendable (Item, CurlConnection) throws -> Value) throws -> [Value] {
        guard !items.isEmpty else { return [] }
        cancelled.store(false, ordering: .relaxed)
        let results = Locked<[Value?]>(Array(repeating: nil, count: items.count))
        let next = Atomic<Int>(0)
        let firstError = Locked<Error?>(nil)
        let group = DispatchGroup()
        for _ in 0..<min(settings.concurrency, items.count) {
            group.enter()
            Thread {
                let connection = self.idle.withLock { $0.popLast() } ?? CurlConnection(settings: self.settings)
                while !self.isCancelled {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < items.count else { break }
                    do {
                        let value = try work(items[index], connection)
                        results.withLock { $0[index] = value }
                    } catch {
                        firstError.withLock { if $0 == nil { $0 = error } }
                        self.cancelled.store(true, ordering: .relaxed)
                    }
                }
                self.idle.withLock { $0.append(connection) }
                group.leave()
            }.start()
        }
        group.wait()
        if let error = firstError.withLock({ $0 }) { throw error }
        return results.withLock { $0.map { $0! } }
    }
}
