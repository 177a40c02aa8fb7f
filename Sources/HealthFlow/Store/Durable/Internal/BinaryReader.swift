import Foundation

/// Reads what ``BinaryWriter`` wrote, from a range of a file's bytes, checking every bound: malformed input
/// throws ``Failure``, never traps.
struct BinaryReader {
    /// Why a payload did not decode.
    struct Failure: Error {
        let reason: String
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int
    private var strings: [String] = []

    /// A reader of `bytes[range]` (the range must lie within `bytes`).
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = max(0, min(range.lowerBound, bytes.count))
        self.end = max(position, min(range.upperBound, bytes.count))
    }

    var isAtEnd: Bool { position == end }

    private mutating func take(_ count: Int) throws(Failure) -> Int {
        guard count >= 0, end - position >= count else { throw Failure(reason: "the payload ends early") }
        defer { position += count }
        return position
    }

    mutating func byte() throws(Failure) -> UInt8 {
        bytes[try take(1)]
    }

    mutating func uint64() throws(Failure) -> UInt64 {
        let start = try take(8)
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
    }

    mutating func varint() throws(Failure) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64, shift < 63 || next <= 1 else { throw Failure(reason: "a number is too long") }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    /// A count or length: a varint that must fit the bytes left when each element takes at least
    /// `minimumSize` bytes (so a damaged count cannot make the caller allocate wildly).
    mutating func count(minimumSize: Int = 1) throws(Failure) -> Int {
        let value = try varint()
        guard value <= UInt64(end - position) / UInt64(max(1, minimumSize)) else {
            throw Failure(reason: "a count exceeds the payload")
        }
        return Int(value)
    }

    /// A varint that fits an `Int` (a total, not bounded by this payload).
    mutating func integer() throws(Failure) -> Int {
        guard let value = Int(exactly: try varint()) else { throw Failure(reason: "a number is out of range") }
        return value
    }

    mutating func signed() throws(Failure) -> Int {
        let raw = try varint()
        let value = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        guard let result = Int(exactly: value) else { throw Failure(reason: "an integer is out of range") }
        return result
    }

    mutating func double() throws(Failure) -> Double {
        Double(bitPattern: try uint64())
    }

    mutating func uuid() throws(Failure) -> UUID {
        let start = try take(16)
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(fromByteOffset: start, as: uuid_t.self)) }
    }

    mutating func string() throws(Failure) -> String {
        let tag = try varint()
        if tag & 1 == 1 {
            let entry = tag >> 1
            guard entry < UInt64(strings.count) else { throw Failure(reason: "a string refers to no earlier string") }
            return strings[Int(entry)]
        }
        guard tag >> 1 <= UInt64(end - position) else { throw Failure(reason: "a string exceeds the payload") }
        let start = try take(Int(tag >> 1))
        let text = bytes.withUnsafeBytes {
            UTF8Bytes.string(validating: UnsafeRawBufferPointer(rebasing: $0[start..<position]))
        }
        guard let value = text else {
            throw Failure(reason: "a string is not UTF-8")
        }
        strings.append(value)
        return value
    }

    /// Throws unless every byte was read.
    func expectEnd() throws(Failure) {
        guard isAtEnd else { throw Failure(reason: "\(end - position) bytes follow the payload") }
    }
}
