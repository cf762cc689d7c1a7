import Foundation

/// A growable run of bytes written through a raw pointer: what JSON answers are written
/// into (the server's output per connection, the command line's JSON lines). Appending a
/// field costs a capacity check and a copy, several times less than appending to a
/// `[UInt8]` (measured on the server's answers). Owned by one thread at a time.
public final class ByteBuffer {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// Bytes written so far.
    public var count: Int { used }

    public init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    public var isEmpty: Bool { count == 0 }

    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if used + bytes.count > capacity { grow(toHold: bytes.count) }
        UnsafeMutableRawPointer(base + used).copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
    }

    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

    /// A literal's UTF-8 bytes.
    @inlinable @inline(__always)
    public func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8 bytes, as they are (no escaping).
    public func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Room for `extra` more bytes at least, doubling.
    @usableFromInline
    func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, used + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// The bytes written, valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: used))
    }

    /// Forgets the first `n` bytes (those already sent), moving the rest to the front.
    public func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= used, "removing more bytes than the buffer holds")
        memmove(base, base + n, used - n)
        used -= n
    }

    /// Forgets everything; gives back all but `capacity` bytes of its room when it holds more.
    public func removeAll(keepingCapacity limit: Int) {
        used = 0
        if capacity > limit {
            base.deallocate()
            capacity = max(16, limit)
            base = .allocate(capacity: capacity)
        }
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as text (they are UTF-8 when written by JSONText).
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}
