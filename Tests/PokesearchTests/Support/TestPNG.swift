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
