import Catalog

/// PING → `{"ok":true}`.
enum PingExecutor {
    static func run(into out: ByteBuffer) {
        Response.ok(into: out)
    }
}
