import Foundation

/// Builds a record payload: little-endian integers, LEB128 varints, doubles as their bit patterns, raw
/// UUIDs, and strings through a table local to the payload (a string's second use costs one varint).
///
/// A string is `varint(n)`: when `n` is odd, it is entry `n >> 1` of the table (strings met earlier in this
/// payload, numbered from 0); when even, `n >> 1` UTF-8 bytes follow and become the next table entry.
///
/// The writer can also frame its records in place (``beginRecord()``, ``endRecord(_:kind:continues:)``): the
/// frame's header is left blank before the payload and filled in once the payload is complete, so a journal's
/// bytes are written once, where they are sent from.
struct BinaryWriter {
    /// The bytes written (the first `count`), then zeros: a write checks the room once and stores in place.
    private var storage: [UInt8]
    /// The number of bytes written.
    private(set) var count = 0
    /// Keyed by bytes (``ExactString``): a string equal to another under Unicode canonical equivalence but spelled
    /// differently is its own entry, so it reads back with its own bytes.
    private var strings: [ExactString: UInt64] = [:]
    /// Strings written lately, with their table entries: a run of samples repeats its type, source, unit and
    /// metadata keys and values, and comparing with these is cheaper than hashing (equal strings sharing storage
    /// compare in O(1)). A string found here is marked `repeated`; a new one takes the next slot from
    /// `recentNext` on whose string has not repeated since the clock hand last passed it (clearing the marks it
    /// passes), so strings written once each (an identifier per sample) cycle through the slots and leave those
    /// that repeat — a 200-byte device description, hashed on every miss — where they are.
    private var recent: [(text: String, length: Int, entry: UInt64, repeated: Bool)] = []
    private var recentNext = 0
    /// Units met in this payload with their printed strings' table entries, compared by value (a payload names
    /// few units), so that a unit is printed once per payload.
    private var units: [(unit: HealthUnit, entry: UInt64)] = []
    /// The last type and source written, with their strings' table entries: the next sample's are usually the
    /// same objects, found by identity without reading a string.
    private var lastType: (type: HealthObjectType, entry: UInt64)?
    private var lastSource: (source: HealthSource, bundleIdentifier: UInt64, name: UInt64)?
    /// Room for the strings an interleaved run repeats: an export's samples of four types from two sources
    /// name about a dozen (metadata keys, versions, device descriptions) between them.
    private static let recentCapacity = 16
    private static let unitCapacity = 8

    init(capacity: Int = 256) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
    }

    /// A copy of the bytes written: O(`count`), so ask `count` for their size.
    var bytes: [UInt8] { Array(storage[..<count]) }

    /// The bytes written, handed over without a copy; the writer is left empty.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &storage)
        taken.removeSubrange(count...)
        count = 0
        return taken
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if storage.count &- count < extra { grow(by: extra) }
    }

    private mutating func grow(by extra: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(storage.count, extra)))
    }

    /// Stores the bytes of `value` (a trivial type) at the end; the room must be reserved.
    @inline(__always)
    private mutating func store<T: BitwiseCopyable>(_ value: T) {
        let offset = count
        storage.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: T.self) }
        count = offset &+ MemoryLayout<T>.size
    }

    mutating func byte(_ value: UInt8) {
        reserve(1)
        storage[count] = value
        count &+= 1
    }

    mutating func uint64(_ value: UInt64) {
        reserve(8)
        store(value.littleEndian)
    }

    mutating func varint(_ value: UInt64) {
        reserve(10)
        if value < 0x80 {
            storage[count] = UInt8(truncatingIfNeeded: value)
            count &+= 1
            return
        }
        var offset = count
        storage.withUnsafeMutableBufferPointer { buffer in
            var value = value
            while value >= 0x80 {
                buffer[offset] = UInt8(truncatingIfNeeded: value) | 0x80
                value >>= 7
                offset &+= 1
            }
            buffer[offset] = UInt8(truncatingIfNeeded: value)
            offset &+= 1
        }
        count = offset
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
        reserve(16)
        store(value.uuid)
    }

    /// Raw bytes, as they are.
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        copy(bytes.withUnsafeBufferPointer(UnsafeRawBufferPointer.init))
    }

    /// Copies `bytes` to the end; the room must be reserved.
    private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        let offset = count
        storage.withUnsafeMutableBytes {
            UnsafeMutableRawBufferPointer(rebasing: $0[offset...]).copyMemory(from: bytes)
        }
        count = offset &+ bytes.count
    }

    mutating func string(_ value: String) {
        _ = tableEntry(value)
    }

    /// A type as its identifier.
    mutating func type(_ value: HealthObjectType) {
        if let last = lastType, last.type.isIdentical(to: value) { return varint(last.entry << 1 | 1) }
        lastType = (value, tableEntry(value.identifier))
    }

    /// A source as its bundle identifier, then its name.
    mutating func source(_ value: HealthSource) {
        if let last = lastSource, last.source.isIdentical(to: value) {
            varint(last.bundleIdentifier << 1 | 1)
            return varint(last.name << 1 | 1)
        }
        let bundleIdentifier = tableEntry(value.bundleIdentifier)
        lastSource = (value, bundleIdentifier, tableEntry(value.name))
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
        // Lengths first, kept beside each string: comparing strings of one length reads them, of different lengths
        // need not. Slots are read in place (by index): binding one would copy (retain) its string.
        let length = value.utf8.count
        for slot in recent.indices
        where recent[slot].length == length && ExactString(recent[slot].text) == ExactString(value) {
            recent[slot].repeated = true
            let entry = recent[slot].entry
            varint(entry << 1 | 1)
            return entry
        }
        let entry: UInt64
        if let known = strings[ExactString(value)] {
            entry = known
            varint(entry << 1 | 1)
        } else {
            entry = UInt64(strings.count)
            strings[ExactString(value)] = entry
            var value = value
            value.withUTF8 { utf8 in
                varint(UInt64(utf8.count) << 1)
                reserve(utf8.count)
                copy(UnsafeRawBufferPointer(utf8))
            }
        }
        if recent.count < Self.recentCapacity {
            recent.append((value, length, entry, false))
        } else {
            // At most one turn: the hand clears each mark it passes.
            while recent[recentNext].repeated {
                recent[recentNext].repeated = false
                recentNext = recentNext == Self.recentCapacity - 1 ? 0 : recentNext + 1
            }
            recent[recentNext] = (value, length, entry, false)
            recentNext = recentNext == Self.recentCapacity - 1 ? 0 : recentNext + 1
        }
        return entry
    }

    // MARK: Framing in place

    /// Starts a record: leaves room for its frame's header and starts a new string table (each payload has its
    /// own). Returns where the record starts, for ``endRecord(_:kind:continues:)``.
    mutating func beginRecord() -> Int {
        strings.removeAll(keepingCapacity: true)
        recent.removeAll(keepingCapacity: true)
        recentNext = 0
        units.removeAll(keepingCapacity: true)
        lastType = nil
        lastSource = nil
        let start = count
        reserve(RecordFrame.headerSize)
        count &+= RecordFrame.headerSize
        return start
    }

    /// The number of payload bytes written since the record at `start` began.
    func payloadCount(ofRecordAt start: Int) -> Int {
        count - start - RecordFrame.headerSize
    }

    /// Replaces the varint `old`, written at `offset`, with the varint `new`, moving the bytes after it.
    mutating func replaceVarint(at offset: Int, _ old: UInt64, with new: UInt64) {
        var replacement = BinaryWriter(capacity: 16)
        replacement.varint(new)
        let tail = offset + Self.varintSize(old)
        let shift = tail - offset - replacement.count
        let end = count
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            (base + tail - shift).update(from: base + tail, count: end - tail)
            for position in 0..<replacement.count { base[offset + position] = replacement.storage[position] }
        }
        count = end - shift
    }

    /// The number of bytes `varint(value)` writes.
    private static func varintSize(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// Fills in the frame's header of the record begun at `start` (``beginRecord()``), whose payload is every
    /// byte written since.
    mutating func endRecord(_ start: Int, kind: RecordKind, continues: Bool) {
        let end = count
        storage.withUnsafeMutableBufferPointer { buffer in
            let payload = UnsafeBufferPointer(rebasing: buffer[(start + RecordFrame.headerSize)..<end])
            RecordFrame.writeHeader(
                kind: kind, payloadCount: payload.count, payloadChecksum: CRC32.checksum(payload),
                continues: continues, to: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + 16)]))
        }
    }
}
