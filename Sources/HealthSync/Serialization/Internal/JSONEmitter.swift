import Foundation

/// A hand-written JSON byte emitter with a fixed-size buffer that is handed to a sink whenever it fills.
///
/// It never holds more than `chunkSize` bytes: every append either fits in the buffer or flushes it first,
/// splitting long byte runs across chunks. Strings are escaped per RFC 8259 §7; numbers must be finite.
struct JSONEmitter {
    typealias Sink = (UnsafeRawBufferPointer) throws -> Void

    private let sink: Sink
    private let chunkSize: Int
    private var buffer: [UInt8]
    /// Every byte handed to the sink or still buffered.
    private(set) var byteCount: Int64 = 0

    init(chunkSize: Int, sink: @escaping Sink) {
        self.chunkSize = max(chunkSize, 64)
        self.sink = sink
        self.buffer = []
        self.buffer.reserveCapacity(self.chunkSize)
    }

    /// Hands the buffered bytes (if any) to the sink.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func byte(_ value: UInt8) throws {
        if buffer.count == chunkSize { try flush() }
        buffer.append(value)
        byteCount += 1
    }

    mutating func bytes(_ raw: UnsafeRawBufferPointer) throws {
        var rest = raw[...]
        while !rest.isEmpty {
            if buffer.count == chunkSize { try flush() }
            let take = min(chunkSize - buffer.count, rest.count)
            buffer.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            byteCount += Int64(take)
        }
    }

    /// Raw ASCII or pre-escaped UTF-8 text (keys, punctuation, numbers, dates).
    mutating func raw(_ text: String) throws {
        var text = text
        try text.withUTF8 { try bytes(UnsafeRawBufferPointer($0)) }
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
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            try raw("\\u00")
            try byte(hex[Int(unit >> 4)])
            try byte(hex[Int(unit & 0x0F)])
        }
    }

    /// A finite number: integral values below 2^53 without a fraction (`72`), others in Swift's shortest
    /// round-trip form (`36.6`, `1e-05`), which is valid JSON.
    mutating func number(_ value: Double, field: @autoclosure () -> String) throws {
        guard value.isFinite else { throw SyncSerializationError.nonFiniteNumber(field: field()) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            try raw(String(Int64(value)))
        } else {
            try raw(value.description)
        }
    }

    mutating func integer(_ value: Int) throws {
        try raw(String(value))
    }
}
