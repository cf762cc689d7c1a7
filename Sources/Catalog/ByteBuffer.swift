import Foundation

/// A growable run of bytes written through a raw pointer: what JSON answers are written
/// into (the server's output per connection, the command line's JSON lines). Appending a
/// field costs a capacity check and a copy, several times less than appending to a
/// `[UInt8]` (on the server's answers). Owned by one thread at a time.
///
/// Its state lives behind a pointer rather than in stored `var`s: a class's stored
/// properties get a dynamic exclusivity check on every access, which cost more than the
/// appends themselves.
public final class ByteBuffer {
    @usableFromInline
    struct State {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    public init(capacity: Int = 256) {
        let capacity = max(16, capacity)
        state = .allocate(capacity: 1)
        state.initialize(to: State(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }

    deinit {
        state.pointee.base.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Bytes written so far.
    public var count: Int { state.pointee.count }
    /// Bytes it can hold before it grows.
    public var capacity: Int { state.pointee.capacity }
    public var isEmpty: Bool { count == 0 }

    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        if state.pointee.count == state.pointee.capacity { grow(toHold: 1) }
        state.pointee.base[state.pointee.count] = byte
        state.pointee.count += 1
    }

    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if state.pointee.count + bytes.count > state.pointee.capacity { grow(toHold: bytes.count) }
        UnsafeMutableRawPointer(state.pointee.base + state.pointee.count).copyMemory(from: source, byteCount: bytes.count)
        state.pointee.count += bytes.count
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
        let newCapacity = max(state.pointee.capacity * 2, state.pointee.count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: state.pointee.base, count: state.pointee.count)
        state.pointee.base.deallocate()
        state.pointee.base = grown
        state.pointee.capacity = newCapacity
    }

    /// The bytes written, valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: state.pointee.base, count: state.pointee.count))
    }

    /// Forgets the first `n` bytes (those already sent), moving the rest to the front.
    public func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "removing more bytes than the buffer holds")
        memmove(state.pointee.base, state.pointee.base + n, count - n)
        state.pointee.count -= n
    }

    /// Forgets everything, keeping its room for what comes next.
    public func removeAll() { state.pointee.count = 0 }

    /// Forgets everything; gives back all but `limit` bytes of its room when it holds more.
    public func removeAll(keepingCapacity limit: Int) {
        state.pointee.count = 0
        if state.pointee.capacity > limit {
            state.pointee.base.deallocate()
            state.pointee.capacity = max(16, limit)
            state.pointee.base = .allocate(capacity: state.pointee.capacity)
        }
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as text (they are UTF-8 when written by JSONText).
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}
