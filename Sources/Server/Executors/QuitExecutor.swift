import Catalog

/// QUIT → `{"ok":true}`; the connection closes once the answer is written.
enum QuitExecutor {
    static func run(into out: ByteBuffer) {
        Response.ok(into: out)
    }
}
