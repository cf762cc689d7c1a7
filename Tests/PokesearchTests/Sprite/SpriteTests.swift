import Foundation
@testable import Sprite
@testable import PokesearchCLI
import Testing

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
