/// QUIT → `{"ok":true}`; the connection closes once the answer is written.
enum QuitExecutor {
    static func run(into out: inout [UInt8]) {
        Response.ok(into: &out)
    }
}
