/// How a terminal can draw an image.
public enum GraphicsProtocol: String, Sendable, CaseIterable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// DEC sixel graphics (foot, mlterm, xterm started with sixel, WezTerm, Contour).
    case sixel
    /// Unicode upper half blocks, two pixels a cell, in 24-bit colour: every modern terminal.
    case blocks

    /// What the terminal says it supports: kitty's protocol where KITTY_WINDOW_ID is set,
    /// TERM is xterm-kitty or TERM_PROGRAM names a terminal that speaks it; sixel where TERM
    /// names one that draws sixel (or says so, as `xterm-sixel` does); half blocks
    /// otherwise. `POKESEARCH_SPRITE=kitty|sixel|blocks` chooses instead.
    public static func detect(environment: [String: String]) -> GraphicsProtocol {
        if let chosen = environment["POKESEARCH_SPRITE"].flatMap(GraphicsProtocol.init(rawValue:)) { return chosen }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || ["WezTerm", "ghostty"].contains(program)
            || environment["KONSOLE_VERSION"] != nil {
            return .kitty
        }
        if term.contains("sixel") || ["foot", "foot-extra", "mlterm", "contour", "yaft-256color"].contains(term) {
            return .sixel
        }
        return .blocks
    }
}

/// Draws an image in a terminal.
public enum TerminalImage {
    /// The part of `image` with visible pixels (sprites have wide transparent margins),
    /// scaled down by whole factors (nearest pixel) to at most `maxWidth` pixels across.
    public static func trimmed(_ image: RGBAImage, maxWidth: Int) -> RGBAImage {
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x, y).a >= 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 0]) }
        let width = maxX - minX + 1, height = maxY - minY + 1
        let factor = max(1, (width + maxWidth - 1) / max(1, maxWidth))
        let outWidth = (width + factor - 1) / factor, outHeight = (height + factor - 1) / factor
        var pixels: [UInt8] = []
        pixels.reserveCapacity(outWidth * outHeight * 4)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let p = image.pixel(minX + x * factor, minY + y * factor)
                pixels += [p.r, p.g, p.b, p.a]
            }
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// The image as lines of upper half blocks: each cell is two pixels, the upper one the
    /// block's colour and the lower one the background's (a transparent half is left to the
    /// terminal's own background: a lower half block, or a space). Each line is
    /// `image.width` columns wide and ends with the colours reset.
    public static func halfBlocks(_ image: RGBAImage) -> [String] {
        var lines: [String] = []
        var y = 0
        while y < image.height {
            var line = ""
            for x in 0..<image.width {
                let top = image.pixel(x, y)
                let bottom: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = y + 1 < image.height ? image.pixel(x, y + 1) : (0, 0, 0, 0)
                let topShown = top.a >= 128, bottomShown = bottom.a >= 128
                switch (topShown, bottomShown) {
                case (true, true): line += "\u{1B}[38;2;\(top.r);\(top.g);\(top.b);48;2;\(bottom.r);\(bottom.g);\(bottom.b)m▀"
                case (true, false): line += "\u{1B}[49;38;2;\(top.r);\(top.g);\(top.b)m▀"
                case (false, true): line += "\u{1B}[49;38;2;\(bottom.r);\(bottom.g);\(bottom.b)m▄"
                case (false, false): line += "\u{1B}[0m "
                }
            }
            lines.append(line + "\u{1B}[0m")
            y += 2
        }
        return lines
    }

    /// The kitty graphics protocol's escape sequences that transmit and show `png` (the
    /// file as it is: `f=100`) at the cursor, `columns` × `rows` cells, in chunks of at
    /// most 4096 bytes of base 64.
    public static func kitty(png: [UInt8], columns: Int, rows: Int) -> String {
        let encoded = Array(base64(png).utf8)
        var text = ""
        var start = 0
        repeat {
            let end = min(start + 4096, encoded.count)
            let more = end < encoded.count ? 1 : 0
            let control = start == 0 ? "a=T,f=100,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            text += "\u{1B}_G\(control);" + String(decoding: encoded[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        } while start < encoded.count
        return text
    }

    /// The image in DEC sixel graphics: its colours as the palette (transparent pixels are
    /// not drawn: background select 1), six pixel rows a band, each colour's pixels of a
    /// band run-length encoded.
    public static func sixel(_ image: RGBAImage) -> String {
        var palette: [UInt32: Int] = [:]
        var order: [UInt32] = []
        var indexes = [Int](repeating: -1, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x, y)
                guard p.a >= 128 else { continue }
                // Colours beyond 256 share the nearest of a coarser grid (sprites have few).
                var key = UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
                if palette[key] == nil && palette.count >= 256 { key &= 0xE0E0C0 }
                if palette[key] == nil && palette.count < 256 { palette[key] = order.count; order.append(key) }
                indexes[y * image.width + x] = palette[key] ?? 0
            }
        }
        var text = "\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)"
        for (i, key) in order.enumerated() {
            func percent(_ shift: UInt32) -> Int { (Int((key >> shift) & 0xFF) * 100 + 127) / 255 }
            text += "#\(i);2;\(percent(16));\(percent(8));\(percent(0))"
        }
        var band = 0
        while band < image.height {
            var first = true
            for colour in 0..<order.count {
                var sixels: [UInt8] = []
                var used = false
                for x in 0..<image.width {
                    var bits: UInt8 = 0
                    for row in 0..<6 where band + row < image.height && indexes[(band + row) * image.width + x] == colour {
                        bits |= 1 << row
                    }
                    used = used || bits != 0
                    sixels.append(63 + bits)
                }
                guard used else { continue }
                if !first { text += "$" }
                first = false
                text += "#\(colour)" + runLengths(sixels)
            }
            text += "-"
            band += 6
        }
        return text + "\u{1B}\\"
    }

    /// Sixel characters with runs of four or more written `!count` and the character.
    static func runLengths(_ sixels: [UInt8]) -> String {
        var text = ""
        var i = 0
        while i < sixels.count {
            var j = i
            while j < sixels.count && sixels[j] == sixels[i] { j += 1 }
            let character = String(UnicodeScalar(sixels[i]))
            text += j - i >= 4 ? "!\(j - i)" + character : String(repeating: character, count: j - i)
            i = j
        }
        return text
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i]), b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0, b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(alphabet[b0 >> 2])
            out.append(alphabet[(b0 & 3) << 4 | b1 >> 4])
            out.append(i + 1 < bytes.count ? alphabet[(b1 & 15) << 2 | b2 >> 6] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[b2 & 63] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
