import Foundation

/// Builds a record payload: little-endian integers, LEB128 varints, doubles as their bit patterns, raw
/// UUIDs, and strings through a table local to the payload (a string's second use costs one varint).
///
/// A string is `varint(n)`: when `n` is odd, it is entry `n >> 1` of the table (strings met earlier in this
/// payload, numbered from 0); when even, `n >> 1` UTF-8 bytes follow and become the next table entry.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []
    private var strings: [String: UInt64] = [:]
    /// The last strings written, with their table entries: a run of samples repeats its type, source and unit,
    /// and comparing with these is cheaper than hashing (equal strings sharing storage compare in O(1)).
    private var recent: [(text: String, entry: UInt64)] = []
    /// Units met in this payload with their printed strings' table entries, compared by value (a payload names
    /// few units), so that a unit is printed once per payload.
    private var units: [(unit: HealthUnit, entry: UInt64)] = []
    private static let recentCapacity = 4
    private static let unitCapacity = 8

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func uint64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func varint(_ value: UInt64) {
        if value < 0x80 { return bytes.append(UInt8(truncatingIfNeeded: value)) }
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func count(_ value: Int) {
        varint(UInt64(max(0, value)))
    }

    /// A signed integer, zigzag-encoded so small negative numbers stay short.
    mutating func signed(_ value: Int) {
        let value = Int64(value)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func double(_ value: Double) {
        uint64(value.bitPattern)
    }

    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        _ = tableEntry(value)
    }

    /// A unit as its printed string (`HealthUnit.unitString`).
    mutating func unit(_ value: HealthUnit) {
        if let known = units.first(where: { $0.unit == value }) {
            varint(known.entry << 1 | 1)
            return
        }
        let entry = tableEntry(value.unitString)
        if units.count < Self.unitCapacity { units.append((value, entry)) }
    }

    /// Writes `value` (see the type's description) and returns its table entry.
    private mutating func tableEntry(_ value: String) -> UInt64 {
        // Lengths first: comparing different strings of one length reads them, of different lengths need not.
        let length = value.utf8.count
        if let known = recent.first(where: { $0.text.utf8.count == length && $0.text == value }) {
            varint(known.entry << 1 | 1)
            return known.entry
        }
        let entry: UInt64
        if let known = strings[value] {
            entry = known
            varint(entry << 1 | 1)
        } else {
            entry = UInt64(strings.count)
            strings[value] = entry
            var value = value
            value.withUTF8 { utf8 in
                varint(UInt64(utf8.count) << 1)
                bytes.append(contentsOf: utf8)
            }
        }
        if recent.count == Self.recentCapacity { recent.removeFirst() }
        recent.append((value, entry))
        return entry
    }
}
