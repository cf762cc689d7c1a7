import Catalog

/// The `code` of an error response.
enum ErrorCode: String {
    case unknownVerb = "unknown_verb"
    case badQuery = "bad_query"
    case badOption = "bad_option"
    case badRequest = "bad_request"
    case emptyRequest = "empty_request"
    case lineTooLong = "line_too_long"
    case badUTF8 = "bad_utf8"
    case notFound = "not_found"
    case ambiguous = "ambiguous"
    case tooManyConnections = "too_many_connections"
    case idleTimeout = "idle_timeout"
    case requestTimeout = "request_timeout"
    case reloadFailed = "reload_failed"
    case storageError = "storage_error"
}

/// A request that gets an error response.
struct ProtocolError: Error, Equatable {
    let code: ErrorCode
    let message: String

    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Response lines, appended straight to a connection's output bytes.
enum Response {
    /// `{"ok":true}` with `fields` (name, value already JSON) after "ok".
    static func ok(_ fields: [(String, String)] = [], into out: ByteBuffer) {
        out.append(#"{"ok":true"#)
        for (name, value) in fields {
            out.append(UInt8(ascii: ","))
            JSONText.appendString(name, into: out)
            out.append(UInt8(ascii: ":"))
            out.appendUTF8(value)
        }
        out.append("}\n")
    }

    static func error(_ error: ProtocolError, into out: ByteBuffer) {
        out.appendUTF8(line(error))
    }

    /// The error line as text, for connections that are closed right after it.
    static func line(_ error: ProtocolError) -> String {
        JSONText.object([("ok", "false"), ("error", JSONText.object([("code", JSONText.string(error.code.rawValue)),
                                                                    ("message", JSONText.string(error.message))]))]) + "\n"
    }
}
