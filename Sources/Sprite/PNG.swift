import CZlib

/// A decoded image: 8-bit RGBA pixels, row by row.
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes: red, green, blue, alpha.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y): red, green, blue, alpha.
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Why a PNG could not be read.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Reads PNG files (ISO/IEC 15938, the W3C PNG specification): the chunks, the scanline
/// filters and every colour type at every bit depth but 16; zlib inflates the image data.
/// Interlaced images are refused (sprites are not).
public enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most pixels a sprite may have (a 96×96 sprite has 9,216): a file that says more,
    /// or whose data inflates past it, is refused before the memory is taken.
    public static let maxPixels = 1 << 20

    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        guard data.starts(with: signature) else { throw PNGError("not a PNG file (no PNG signature)") }
        var offset = signature.count
        var header: (width: Int, height: Int, depth: Int, colour: Int)? = nil
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        func bigEndian(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
        while true {
            guard offset + 12 <= data.count else { throw PNGError("the file ends inside a chunk (no IEND)") }
            let length = bigEndian(offset)
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= data.count else { throw PNGError("chunk \(type) runs past the end of the file") }
            let body = data[start..<(start + length)]
            offset = start + length + 4 // (and its CRC, which zlib's checksum of the data makes redundant here)
            switch type {
            case "IHDR":
                guard length == 13 else { throw PNGError("IHDR is \(length) bytes, not 13") }
                let width = bigEndian(start), height = bigEndian(start + 4)
                let depth = Int(data[start + 8]), colour = Int(data[start + 9])
                guard width > 0, height > 0, width * height <= maxPixels else {
                    throw PNGError("image of \(width)×\(height) pixels (at most \(maxPixels) are read)")
                }
                guard data[start + 12] == 0 else { throw PNGError("interlaced images are not read") }
                let depths: [Int: [Int]] = [0: [1, 2, 4, 8], 2: [8], 3: [1, 2, 4, 8], 4: [8], 6: [8]]
                guard depths[colour]?.contains(depth) == true else {
                    throw PNGError("colour type \(colour) at \(depth) bits a sample is not read")
                }
                header = (width, height, depth, colour)
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT": compressed.append(contentsOf: body)
            case "IEND":
                guard let header else { throw PNGError("no IHDR chunk") }
                return try image(header, palette: palette, transparency: transparency, compressed: compressed)
            default: break
            }
        }
    }

    /// Bits a pixel takes in a scanline.
    static func bitsPerPixel(depth: Int, colour: Int) -> Int {
        depth * [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colour, default: 1]
    }

    static func image(_ header: (width: Int, height: Int, depth: Int, colour: Int), palette: [UInt8], transparency: [UInt8],
                      compressed: [UInt8]) throws -> RGBAImage {
        let bits = bitsPerPixel(depth: header.depth, colour: header.colour)
        let stride = (header.width * bits + 7) / 8
        let raw = try inflate(compressed, expected: (stride + 1) * header.height)
        let rows = try unfilter(raw, stride: stride, height: header.height, bytesPerPixel: max(1, bits / 8))
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        for y in 0..<header.height {
            for x in 0..<header.width {
                let out = (y * header.width + x) * 4
                let row = y * stride
                func sample(_ index: Int) -> Int {
                    // The index-th sample of the row at the image's bit depth.
                    let bit = index * header.depth
                    let byte = Int(rows[row + bit / 8])
                    return header.depth == 8 ? byte : (byte >> (8 - header.depth - bit % 8)) & ((1 << header.depth) - 1)
                }
                let scale = 255 / ((1 << header.depth) - 1)
                switch header.colour {
                case 0:
                    let grey = sample(x)
                    let opaque = transparency.count >= 2 && (Int(transparency[0]) << 8 | Int(transparency[1])) == grey
                    pixels[out] = UInt8(grey * scale); pixels[out + 1] = pixels[out]; pixels[out + 2] = pixels[out]
                    pixels[out + 3] = opaque ? 0 : 255
                case 2:
                    let r = sample(x * 3), g = sample(x * 3 + 1), b = sample(x * 3 + 2)
                    let key = transparency.count >= 6 ? (Int(transparency[1]), Int(transparency[3]), Int(transparency[5])) : (-1, -1, -1)
                    pixels[out] = UInt8(r); pixels[out + 1] = UInt8(g); pixels[out + 2] = UInt8(b)
                    pixels[out + 3] = key == (r, g, b) ? 0 : 255
                case 3:
                    let entry = sample(x)
                    guard entry * 3 + 2 < palette.count else { throw PNGError("palette index \(entry) past the palette's \(palette.count / 3) colours") }
                    pixels[out] = palette[entry * 3]; pixels[out + 1] = palette[entry * 3 + 1]; pixels[out + 2] = palette[entry * 3 + 2]
                    pixels[out + 3] = entry < transparency.count ? transparency[entry] : 255
                case 4:
                    pixels[out] = UInt8(sample(x * 2)); pixels[out + 1] = pixels[out]; pixels[out + 2] = pixels[out]
                    pixels[out + 3] = UInt8(sample(x * 2 + 1))
                default:
                    for k in 0..<4 { pixels[out + k] = UInt8(sample(x * 4 + k)) }
                }
            }
        }
        return RGBAImage(width: header.width, height: header.height, pixels: pixels)
    }

    /// The zlib stream inflated: exactly `expected` bytes (the scanlines), no more (a stream
    /// that would inflate further is refused without inflating the rest).
    static func inflate(_ compressed: [UInt8], expected: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected + 1)
        var stream = z_stream()
        guard pokesearch_inflate_init(&stream) == Z_OK else { throw PNGError("zlib could not start inflating") }
        defer { inflateEnd(&stream) }
        var input = compressed
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = output.count - Int(stream.avail_out)
        guard produced == expected, status == Z_STREAM_END else {
            if produced > expected { throw PNGError("the image data inflates past the \(expected) bytes its size gives") }
            throw PNGError("the image data is damaged (zlib status \(status), \(produced) of \(expected) bytes)")
        }
        return Array(output.prefix(expected))
    }

    /// Undoes the scanline filters (None, Sub, Up, Average, Paeth), dropping each row's
    /// filter byte.
    static func unfilter(_ raw: [UInt8], stride: Int, height: Int, bytesPerPixel bpp: Int) throws -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let input = y * (stride + 1) + 1
            let out = y * stride
            for i in 0..<stride {
                let x = Int(raw[input + i])
                let a = i >= bpp ? Int(rows[out + i - bpp]) : 0
                let b = y > 0 ? Int(rows[out - stride + i]) : 0
                let c = i >= bpp && y > 0 ? Int(rows[out - stride + i - bpp]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw PNGError("row \(y) has filter type \(filter) (0 to 4 exist)")
                }
                rows[out + i] = UInt8(truncatingIfNeeded: x + predicted)
            }
        }
        return rows
    }
}
