import Catalog
import Foundation
import Sprite
import Sync
import Terminal

/// A cached sprite drawn in the terminal: beside `show`'s page, or alone (`sprite --show`).
/// Half blocks go at the page's left; the kitty protocol's image is placed there too (the
/// cursor left where it was, the page's lines moved right of it); sixel, which moves the
/// cursor below its image, goes above the page.
enum SpriteDrawing {
    /// The widest a sprite is drawn, in columns (pixels, with half blocks).
    static let maxColumns = 32
    /// The cells the kitty protocol scales a sprite into (sprites are square; cells are
    /// about twice as tall as wide).
    static let kittyCells = (columns: 24, rows: 12)

    /// Runs `render` (which writes the page to the context's output); on a terminal, for a
    /// Pokémon whose sprite is cached, unless `--no-sprite`, with the sprite beside it.
    static func page(slug: String, isPokemon: Bool, context: CommandContext, render: () -> Void) {
        let output = context.output
        let path = Sprites.path(slug: slug, cacheDirectory: Paths.cache(environment: context.environment))
        guard isPokemon, output.isTerminal, !context.arguments.json, !context.arguments.flags.contains("--no-sprite"),
              let data = FileManager.default.contents(atPath: path) else {
            render()
            return
        }
        let lines = output.capture(render)
        do {
            let placed = try place(png: Array(data), beside: lines, using: GraphicsProtocol.detect(environment: context.environment),
                                   columns: TerminalSize.columns(environment: context.environment))
            for line in placed { output.line(line) }
        } catch {
            for line in lines { output.line(line) }
            Output.error("the cached sprite \(path) cannot be drawn (\(error)); `pokesearch sprite \(slug) --force` downloads it again")
        }
    }

    /// `page` with the sprite of `png` at its left (or above it when the terminal is too
    /// narrow, or for sixel).
    static func place(png: [UInt8], beside page: [String], using graphics: GraphicsProtocol, columns: Int) throws -> [String] {
        let image = try PNG.decode(png)
        let pageWidth = page.map { DisplayWidth.of(withoutEscapes($0)) }.max() ?? 0
        let room = columns - pageWidth - 2
        switch graphics {
        case .blocks:
            let fits = room >= 12
            let sprite = TerminalImage.halfBlocks(TerminalImage.trimmed(image, maxWidth: min(maxColumns, fits ? room : columns)))
            guard fits else { return sprite + page }
            let width = sprite.first.map { DisplayWidth.of(withoutEscapes($0)) } ?? 0
            return (0..<max(sprite.count, page.count)).map { i in
                let left = i < sprite.count ? sprite[i] : String(repeating: " ", count: width)
                return i < page.count ? left + "  " + page[i] : left
            }
        case .kitty:
            let escape = TerminalImage.kitty(png: png, columns: kittyCells.columns, rows: kittyCells.rows)
            guard room >= kittyCells.columns else { return [escape] + page }
            // C=1: the cursor stays at the image's top left; the page is written beside it.
            let still = escape.replacingOccurrences(of: "a=T,", with: "a=T,C=1,")
            let indent = String(repeating: " ", count: kittyCells.columns + 2)
            let lines = (0..<max(kittyCells.rows, page.count)).map { i in indent + (i < page.count ? page[i] : "") }
            return [still + lines[0]] + lines.dropFirst()
        case .sixel:
            return [TerminalImage.sixel(TerminalImage.trimmed(image, maxWidth: 96))] + page
        }
    }

    /// The sprite alone, as `sprite NAME --show` draws it.
    static func alone(png: [UInt8], using graphics: GraphicsProtocol, columns: Int) throws -> [String] {
        switch graphics {
        case .blocks: return TerminalImage.halfBlocks(TerminalImage.trimmed(try PNG.decode(png), maxWidth: min(maxColumns * 2, columns)))
        case .kitty:
            _ = try PNG.decode(png)
            return [TerminalImage.kitty(png: png, columns: kittyCells.columns, rows: kittyCells.rows)]
        case .sixel: return [TerminalImage.sixel(TerminalImage.trimmed(try PNG.decode(png), maxWidth: 96))]
        }
    }

    /// `text` without its ANSI colour sequences (`ESC [ … m`), for measuring.
    static func withoutEscapes(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
