import Foundation
@testable import Sprite
@testable import PokesearchCLI
import Testing

@Suite("Sprites beside the page")
struct SpriteBesideThePageTests {
    /// `show` on a pseudo-terminal (util-linux `script`) with the test sprite cached.
    func showOnTerminal(_ extra: String, columns: Int) throws -> String {
        let cache = Fixture.temporaryDirectory("sprite-cache")
        try FileManager.default.createDirectory(atPath: cache + "/pokesearch/sprites", withIntermediateDirectories: true)
        try Data(TestPNG.rgba).write(to: URL(fileURLWithPath: cache + "/pokesearch/sprites/pikachu.png"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "\(Fixture.binary.path) show pikachu --db \(Fixture.database) \(extra)", "/dev/null"]
        process.environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "COLUMNS": String(columns), "XDG_CACHE_HOME": cache,
                               "POKESEARCH_NO_HISTORY": "1", "HOME": cache, "POKESEARCH_SOCKET": "/nonexistent/s.sock"]
            .merging(Fixture.sanitizerEnvironment) { new, _ in new }
        process.standardInput = FileHandle.nullDevice
        let (_, stdout, _) = try runDrainingOutput(process)
        return stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed"))
    func showDrawsTheCachedSpriteBesideThePageOnATerminal() throws {
        let wide = try showOnTerminal("", columns: 200)
        let first = try #require(wide.split(separator: "\n").first)
        #expect(first.hasPrefix("\u{1B}[38;2;255;0;0;48;2;255;0;0m▀") && first.contains("#25 Pikachu"), "\(first.debugDescription)")
        let none = try showOnTerminal("--no-sprite", columns: 200)
        #expect(none.contains("#25 Pikachu") && !none.contains("▀"))
    }

    /// The page's lines beside the sprite's, the sprite's column padded where the page is longer.
    @Test func pageLinesArePlacedBesideTheSprite() throws {
        let lines = try SpriteDrawing.place(png: TestPNG.rgba, beside: ["one", "two", "three"], using: .blocks, columns: 80)
        let sprite = TerminalImage.halfBlocks(try PNG.decode(TestPNG.rgba))
        #expect(lines == [sprite[0] + "  one", sprite[1] + "  two", "     three"])
        let narrow = try SpriteDrawing.place(png: TestPNG.rgba, beside: [String(repeating: "x", count: 75)], using: .blocks, columns: 80)
        #expect(narrow == sprite + [String(repeating: "x", count: 75)], "too narrow beside: above")
        let kitty = try SpriteDrawing.place(png: TestPNG.rgba, beside: ["one"], using: .kitty, columns: 80)
        #expect(kitty.count == 12 && kitty[0].hasPrefix("\u{1B}_Ga=T,C=1,f=100") && kitty[0].hasSuffix(String(repeating: " ", count: 26) + "one"))
    }
}
