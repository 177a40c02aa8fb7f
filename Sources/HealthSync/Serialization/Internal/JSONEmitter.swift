import Foundation

/// A hand-written JSON byte emitter with a fixed-size buffer that is handed to a sink whenever it fills.
///
/// It never holds more than `chunkSize` bytes: every append either fits in the buffer or flushes it first,
/// splitting long byte runs across chunks. Strings are escaped per RFC 8259 §7; numbers must be finite. Numbers,
/// UUIDs and timestamps are formatted straight into the buffer, without an intermediate `String`.
///
/// A copy shares the buffer with the original (like the sink it was given): use one emitter from one thread.
struct JSONEmitter {
    typealias Sink = (UnsafeRawBufferPointer) throws -> Void

    /// The buffer: `capacity` bytes, the first `count` of them written and not yet handed to the sink.
    private final class Buffer {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            self.base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    /// The most bytes one formatted value (a number, a UUID, a timestamp) takes, quotes included.
    private static let longestValue = 40

    private let sink: Sink
    private let buffer: Buffer
    /// Every byte handed to the sink or still buffered.
    private(set) var byteCount: Int64 = 0

    init(chunkSize: Int, sink: @escaping Sink) {
        self.sink = sink
        self.buffer = Buffer(capacity: max(chunkSize, 64))
    }

    /// Hands the buffered bytes (if any) to the sink.
    mutating func flush() throws {
        guard buffer.count > 0 else { return }
        let count = buffer.count
        buffer.count = 0
        try sink(UnsafeRawBufferPointer(start: buffer.base, count: count))
    }

    /// Room for `count` bytes (at most ``longestValue``) at the end of the buffer, flushing it first when they
    /// would not fit; ``commit(_:)`` then counts the bytes actually written there.
    @inline(__always)
    private mutating func room(_ count: Int) throws -> UnsafeMutablePointer<UInt8> {
        if buffer.count + count > buffer.capacity { try flush() }
        return buffer.base + buffer.count
    }

    @inline(__always)
    private mutating func commit(_ count: Int) {
        buffer.count += count
        byteCount += Int64(count)
    }

    mutating func byte(_ value: UInt8) throws {
        try room(1).pointee = value
        commit(1)
    }

    mutating func bytes(_ raw: UnsafeRawBufferPointer) throws {
        guard var source = raw.baseAddress, !raw.isEmpty else { return }
        var left = raw.count
        while left > 0 {
            if buffer.count == buffer.capacity { try flush() }
            let take = min(buffer.capacity - buffer.count, left)
            UnsafeMutableRawPointer(buffer.base + buffer.count).copyMemory(from: source, byteCount: take)
            commit(take)
            source += take
            left -= take
        }
    }

    /// Raw ASCII text known at compile time (keys, punctuation).
    mutating func raw(_ text: StaticString) throws {
        try bytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A JSON string literal: quotes, `\"`, `\\`, short escapes for `\b \f \n \r \t`, `\u00XX` for the other
    /// control characters; every other scalar is written as raw UTF-8.
    mutating func string(_ text: String) throws {
        try byte(UInt8(ascii: "\""))
        var text = text
        try text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let unit = utf8[index]
                guard unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") else { continue }
                try bytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart..<index])))
                try escape(unit)
                runStart = index + 1
            }
            try bytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])))
        }
        try byte(UInt8(ascii: "\""))
    }

    private mutating func escape(_ unit: UInt8) throws {
        switch unit {
        case UInt8(ascii: "\""): try raw("\\\"")
        case UInt8(ascii: "\\"): try raw("\\\\")
        case 0x08: try raw("\\b")
        case 0x0C: try raw("\\f")
        case 0x0A: try raw("\\n")
        case 0x0D: try raw("\\r")
        case 0x09: try raw("\\t")
        default:
            try raw("\\u00")
            try byte(Self.hexDigit(unit >> 4, uppercase: false))
            try byte(Self.hexDigit(unit & 0x0F, uppercase: false))
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8, uppercase: Bool) -> UInt8 {
        nibble < 10 ? nibble + UInt8(ascii: "0") : nibble - 10 + (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a"))
    }

    /// A UUID as a JSON string, in `uuidString`'s form: upper-case hex, hyphens after 4, 6, 8 and 10 bytes.
    mutating func uuid(_ uuid: UUID) throws {
        let target = try room(38)
        target[0] = UInt8(ascii: "\"")
        var at = 1
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    target[at] = UInt8(ascii: "-")
                    at += 1
                }
                target[at] = Self.hexDigit(bytes[index] >> 4, uppercase: true)
                target[at + 1] = Self.hexDigit(bytes[index] & 0x0F, uppercase: true)
                at += 2
            }
        }
        target[at] = UInt8(ascii: "\"")
        commit(38)
    }

    /// A finite number: integral values below 2^53 without a fraction (`72`), others in Swift's shortest
    /// round-trip form (`36.6`, `1e-05`), which is valid JSON.
    mutating func number(_ value: Double, field: @autoclosure () -> String) throws {
        guard value.isFinite else { throw SyncSerializationError.nonFiniteNumber(field: field()) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            try integer(Int64(value))
        } else {
            var text = value.description
            try text.withUTF8 { try bytes(UnsafeRawBufferPointer($0)) }
        }
    }

    mutating func integer(_ value: Int) throws {
        try integer(Int64(value))
    }

    /// Decimal digits, with `-` for a negative value: `String(value)`'s bytes.
    mutating func integer(_ value: Int64) throws {
        let target = try room(20)
        commit(DecimalDigits.write(value, to: target))
    }

    /// A timestamp as a JSON string (``ISO8601Timestamp``), or `false` when the date has none.
    mutating func timestamp(_ date: Date, offset: Int) throws -> Bool {
        let target = try room(ISO8601Timestamp.longest + 2)
        guard let length = ISO8601Timestamp.write(date, offset: offset, to: target + 1) else { return false }
        target[0] = UInt8(ascii: "\"")
        target[length + 1] = UInt8(ascii: "\"")
        commit(length + 2)
        return true
    }
}

/// Decimal formatting of integers into raw memory.
enum DecimalDigits {
    /// Writes `value` as `String(value)` does (at most 20 bytes) at `target`.
    /// - Returns: The number of bytes written.
    static func write(_ value: Int64, to target: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let sign = value < 0 ? 1 : 0
        if sign == 1 { target[0] = UInt8(ascii: "-") }
        var index = sign + digits - 1
        repeat {
            target[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        return sign + digits
    }

    /// Writes `value` (0 ≤ value < 10^width) as exactly `width` digits, zero-padded, at `target`.
    @inline(__always)
    static func writePadded(_ value: Int, width: Int, to target: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var index = width - 1
        while index >= 0 {
            target[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
    }
}
