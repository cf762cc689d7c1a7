import Foundation
@testable import Sprite
@testable import PokesearchCLI
import Testing

/// PNG files made here, byte by byte: chunks, scanline filters, and a zlib stream of stored
/// (uncompressed) deflate blocks, which any inflater reads.
enum TestPNG {
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(body.count) + Array(type.utf8) + body + [0, 0, 0, 0] // (CRCs are not checked)
    }

    static func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// `data` as a zlib stream of stored blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = end - start
            out += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + bigEndian(Int(b << 16 | a))
    }

    /// Each row filtered with `filters[y % count]` (as an encoder would), bytesPerPixel `bpp`.
    static func filtered(_ rows: [[UInt8]], filters: [UInt8], bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let filter = filters[y % filters.count]
            out.append(filter)
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = y > 0 ? Int(rows[y - 1][i]) : 0
                let c = i >= bpp && y > 0 ? Int(rows[y - 1][i - bpp]) : 0
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let predicted = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][Int(filter)]
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
        }
        return out
    }

    static func file(width: Int, height: Int, depth: UInt8 = 8, colour: UInt8, rows: [[UInt8]], filters: [UInt8] = [0], bpp: Int = 4,
                     extra: [[UInt8]] = []) -> [UInt8] {
        PNG.signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colour, 0, 0, 0]) + extra.flatMap { $0 }
            + chunk("IDAT", zlibStored(filtered(rows, filters: filters, bpp: bpp))) + chunk("IEND", [])
    }

    /// 3×4 RGBA: red over blue in the first two columns, green over transparent in the third.
    static let rgba: [UInt8] = {
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], green: [UInt8] = [0, 200, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
        let rows = [red + red + green, red + red + green, blue + blue + clear, blue + blue + clear]
        return file(width: 3, height: 4, colour: 6, rows: rows, filters: [1, 2, 3, 4], bpp: 4)
    }()
}

@Suite("Sprites")
struct SpriteTests {
    @Test func decodesEveryFilterAndColourType() throws {
        let image = try PNG.decode(TestPNG.rgba)
        #expect(image.width == 3 && image.height == 4)
        #expect(image.pixel(0, 0) == (255, 0, 0, 255) && image.pixel(1, 3) == (0, 0, 255, 255))
        #expect(image.pixel(2, 1) == (0, 200, 0, 255) && image.pixel(2, 3).a == 0)
        // A palette at 2 bits a pixel with a transparent entry.
        let palette = TestPNG.chunk("PLTE", [10, 20, 30, 40, 50, 60, 70, 80, 90]), alpha = TestPNG.chunk("tRNS", [0])
        let indexed = TestPNG.file(width: 3, height: 1, depth: 2, colour: 3, rows: [[0b00_01_10_00]], bpp: 1, extra: [palette, alpha])
        let decoded = try PNG.decode(indexed)
        #expect(decoded.pixel(0, 0).a == 0 && decoded.pixel(1, 0) == (40, 50, 60, 255) && decoded.pixel(2, 0) == (70, 80, 90, 255))
        // RGB with grey and grey-alpha.
        let rgb = try PNG.decode(TestPNG.file(width: 1, height: 1, colour: 2, rows: [[1, 2, 3]], bpp: 3))
        #expect(rgb.pixel(0, 0) == (1, 2, 3, 255))
        let greyAlpha = try PNG.decode(TestPNG.file(width: 1, height: 1, colour: 4, rows: [[9, 128]], bpp: 2))
        #expect(greyAlpha.pixel(0, 0) == (9, 9, 9, 128))
    }

    @Test func refusesWhatItCannotOrShouldNotRead() {
        #expect(throws: PNGError.self) { try PNG.decode(Array("<html>".utf8)) }
        // A header claiming more pixels than a sprite has is refused before any is made.
        let huge = PNG.signature + TestPNG.chunk("IHDR", TestPNG.bigEndian(50_000) + TestPNG.bigEndian(50_000) + [8, 6, 0, 0, 0])
        #expect(throws: PNGError.self) { try PNG.decode(huge) }
        // Image data that inflates past the size the header gives (a zlib bomb) is refused.
        let rows = [[UInt8]](repeating: [UInt8](repeating: 0, count: 4), count: 1000)
        var bomb = TestPNG.file(width: 1, height: 1000, colour: 6, rows: rows)
        bomb.replaceSubrange(16..<24, with: TestPNG.bigEndian(1) + TestPNG.bigEndian(10))
        #expect(throws: PNGError.self) { try PNG.decode(bomb) }
        let truncated = Array(TestPNG.rgba.prefix(40))
        #expect(throws: PNGError.self) { try PNG.decode(truncated) }
    }

    /// The reference rendering of the test image in half blocks: each cell the upper pixel
    /// as foreground, the lower as background; transparency left to the terminal.
    @Test func halfBlocksMatchTheReferenceRendering() throws {
        let lines = TerminalImage.halfBlocks(try PNG.decode(TestPNG.rgba))
        let red = "\u{1B}[38;2;255;0;0;48;2;255;0;0m▀", blue = "\u{1B}[38;2;0;0;255;48;2;0;0;255m▀"
        #expect(lines == [red + red + "\u{1B}[38;2;0;200;0;48;2;0;200;0m▀\u{1B}[0m", blue + blue + "\u{1B}[0m \u{1B}[0m"])
    }

    @Test func trimmingDropsTransparentMarginsAndScalesDown() throws {
        let clear = [UInt8](repeating: 0, count: 4), dot: [UInt8] = [1, 2, 3, 255]
        let rows = (0..<8).map { y in (0..<8).flatMap { x in (2...5).contains(x) && (2...5).contains(y) ? dot : clear } }
        let image = try PNG.decode(TestPNG.file(width: 8, height: 8, colour: 6, rows: rows))
        let trimmed = TerminalImage.trimmed(image, maxWidth: 10)
        #expect(trimmed.width == 4 && trimmed.height == 4 && trimmed.pixel(0, 0) == (1, 2, 3, 255))
        #expect(TerminalImage.trimmed(image, maxWidth: 2).width == 2)
    }

    @Test func kittyTransmitsThePNGInChunks() throws {
        let png = TestPNG.rgba
        let one = TerminalImage.kitty(png: png, columns: 24, rows: 12)
        #expect(one == "\u{1B}_Ga=T,f=100,c=24,r=12,m=0;" + Data(png).base64EncodedString() + "\u{1B}\\")
        let large = [UInt8](repeating: 0xAB, count: 7000) // 9,336 bytes of base 64: three chunks
        let chunks = TerminalImage.kitty(png: large, columns: 24, rows: 12).components(separatedBy: "\u{1B}\\").dropLast()
        #expect(chunks.count == 3)
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=100,c=24,r=12,m=1;") && chunks[1].hasPrefix("\u{1B}_Gm=1;") && chunks[2].hasPrefix("\u{1B}_Gm=0;"))
        #expect(chunks.map { $0.split(separator: ";").last!.count }.dropLast().allSatisfy { $0 == 4096 })
        #expect(chunks.map { String($0.split(separator: ";").last!) }.joined() == Data(large).base64EncodedString())
    }

    @Test func sixelDrawsEachColourOfEachBand() throws {
        // Red rows 0–3 and blue rows 4–7 over 7 columns.
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let rows = (0..<8).map { y in (0..<7).flatMap { _ in y < 4 ? red : blue } }
        let image = try PNG.decode(TestPNG.file(width: 7, height: 8, colour: 6, rows: rows))
        #expect(TerminalImage.sixel(image) == "\u{1B}P0;1;0q\"1;1;7;8#0;2;100;0;0#1;2;0;0;100#0!7N$#1!7o-#1!7B-\u{1B}\\")
    }

    @Test func theGraphicsProtocolIsWhatTheTerminalSays() {
        #expect(GraphicsProtocol.detect(environment: ["TERM": "xterm-kitty"]) == .kitty)
        #expect(GraphicsProtocol.detect(environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(GraphicsProtocol.detect(environment: ["TERM_PROGRAM": "WezTerm"]) == .kitty)
        #expect(GraphicsProtocol.detect(environment: ["TERM": "foot"]) == .sixel)
        #expect(GraphicsProtocol.detect(environment: ["TERM": "xterm-sixel"]) == .sixel)
        #expect(GraphicsProtocol.detect(environment: ["TERM": "xterm-256color"]) == .blocks)
        #expect(GraphicsProtocol.detect(environment: ["TERM": "xterm-kitty", "POKESEARCH_SPRITE": "blocks"]) == .blocks)
    }
}

extension SyncTests {
    /// A sprite the API test server serves, downloaded and drawn by `sprite --show` in each
    /// protocol; `show` draws it beside the page only on a terminal.
    @Test func spriteIsDrawnFromWhatTheServerServes() throws {
        let sandbox = try Sandbox()
        try sandbox.makePreviousDatabase()
        let png = TestPNG.rgba
        sandbox.server.route("/sprites/25.png") { _ in TestHTTPServer.Response(status: 200, body: png, contentType: "image/png") }
        let blocks = try sandbox.run(["sprite", "pikachu", "--show", "--api", sandbox.api], environment: ["POKESEARCH_SPRITE": "blocks"])
        #expect(blocks.status == 0, "\(blocks.stderr)")
        #expect(blocks.stdout == TerminalImage.halfBlocks(try PNG.decode(png)).map { $0 + "\n" }.joined())
        let kitty = try sandbox.run(["sprite", "pikachu", "--show"], environment: ["TERM": "xterm-kitty"])
        #expect(kitty.stdout == TerminalImage.kitty(png: png, columns: 24, rows: 12) + "\n")
        let sixel = try sandbox.run(["sprite", "pikachu", "--show"], environment: ["TERM": "foot"])
        #expect(sixel.stdout.hasPrefix("\u{1B}P0;1;0q") && sixel.stdout.hasSuffix("\u{1B}\\\n"))
        // Piped, `show` draws no sprite.
        let piped = try sandbox.run(["show", "pikachu"])
        #expect(piped.status == 0 && !piped.stdout.contains("▀"))
    }
}

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
