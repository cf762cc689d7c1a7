#if canImport(Glibc)
import Glibc
#endif

/// One unit the framer cuts from a connection's byte stream, before it is decoded.
enum RawFrame {
    /// A complete request line (without its `\n` or `\r\n`), at most `maxLineBytes`; the
    /// bytes are valid only while the framer's handler runs.
    case line(UnsafeRawBufferPointer)
    /// A line longer than `LineFramer.maxLineBytes`; the rest of it is skipped.
    case tooLong
}

/// A frame decoded as text (what the framing tests look at).
enum Frame: Equatable {
    /// A complete request line (without its `\n` or `\r\n`), valid UTF-8.
    case line(String)
    /// A line longer than `LineFramer.maxLineBytes`; the rest of it is skipped.
    case tooLong
    /// A complete line that is not valid UTF-8.
    case badUTF8
}

/// Cuts request lines out of a byte stream that arrives in arbitrary pieces. Complete lines
/// are decoded straight from the bytes read; only the unfinished tail of a read is kept,
/// and never more than `maxLineBytes` of it: an over-long line is reported as soon as it
/// passes the limit and then discarded up to its newline, so that the next line is read
/// normally.
struct LineFramer {
    static let maxLineBytes = 8192

    /// The start of a line whose newline has not arrived yet.
    private(set) var partial: [UInt8] = []
    /// Inside an over-long line that was already answered: discarding up to its newline.
    private(set) var skipping = false

    /// The next frame in `bytes` from `position`, advancing `position` past it. Returns nil
    /// when `bytes` holds no further complete frame (the unfinished tail is kept).
    mutating func next(_ bytes: UnsafeRawBufferPointer, position: inout Int) -> Frame? {
        next(bytes, position: &position) { frame in
            switch frame {
            case .tooLong: return .tooLong
            case .line(let line): return String(validating: line, as: UTF8.self).map { .line($0) } ?? .badUTF8
            }
        }
    }

    /// The next frame in `bytes` from `position`, handed to `handle` (which must not keep
    /// the line's bytes), advancing `position` past it. Returns nil, without calling
    /// `handle`, when `bytes` holds no further complete frame (the unfinished tail is kept).
    mutating func next<Result>(_ bytes: UnsafeRawBufferPointer, position: inout Int,
                               _ handle: (RawFrame) -> Result) -> Result? {
        while position < bytes.count {
            let start = position
            let remaining = bytes.count - start
            guard let newline = memchr(bytes.baseAddress! + start, 10, remaining) else {
                position = bytes.count
                if skipping { return nil }
                if partial.count + remaining > Self.maxLineBytes + 1 {
                    // +1: a `\r` may still turn out to end the line; decided when the line ends.
                    partial.removeAll(keepingCapacity: false)
                    skipping = true
                    return handle(.tooLong)
                }
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return nil
            }
            let end = UnsafeRawPointer(newline) - bytes.baseAddress!
            position = end + 1
            if skipping {
                skipping = false
                continue
            }
            if partial.isEmpty {
                return handle(Self.frame(UnsafeRawBufferPointer(rebasing: bytes[start..<end])))
            }
            partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            let result = partial.withUnsafeBytes { handle(Self.frame($0)) }
            partial.removeAll(keepingCapacity: partial.capacity <= 1024)
            return result
        }
        return nil
    }

    /// Whether a line has begun and not ended (its start kept, or its over-long rest being
    /// skipped).
    var hasLineUnderWay: Bool { !partial.isEmpty || skipping }

    /// Forgets an unfinished line (the client hung up in the middle of it).
    mutating func reset() {
        partial = []
        skipping = false
    }

    /// A complete line without its `\r`, or `.tooLong`.
    private static func frame(_ line: UnsafeRawBufferPointer) -> RawFrame {
        var length = line.count
        if length > 0 && line[length - 1] == 13 { length -= 1 }
        return length > maxLineBytes ? .tooLong : .line(UnsafeRawBufferPointer(rebasing: line[..<length]))
    }
}
