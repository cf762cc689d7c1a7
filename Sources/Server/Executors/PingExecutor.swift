/// PING → `{"ok":true}`.
enum PingExecutor {
    static func run(into out: inout [UInt8]) {
        Response.ok(into: &out)
    }
}
