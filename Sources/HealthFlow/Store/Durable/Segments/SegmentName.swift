/// The name of a segment file: its type and the range of segment numbers it covers.
///
/// ```text
/// segment-<type identifier>-<first: 16 hex digits>-<last: 16 hex digits>.hfseg
/// .healthflow-segment-….hfseg.tmp       the same, while it is being written
/// ```
///
/// A flush writes segment `n…n`, `n` one more than the largest number its type's segments cover; a compaction of
/// segments `a…x`, …, `y…b` writes `a…b`, which supersedes every segment whose range lies inside its own (those
/// are removed once it is in place, or by the next opening if that removal did not happen). Numbers order a
/// type's segments: a segment covering larger numbers holds newer changes.
///
/// A name is a segment's only when its bytes are exactly those ``fileName`` generates (lowercase hex, 16 digits,
/// a type the library knows): anything else in the directory is never read, kept or removed by segment code.
struct SegmentName: Hashable, CustomStringConvertible {
    let type: HealthObjectType
    /// The segment numbers covered, `first <= last`.
    let first: UInt64
    let last: UInt64

    static let prefix = "segment-"
    static let suffix = ".hfseg"

    init(type: HealthObjectType, first: UInt64, last: UInt64) {
        precondition(first <= last, "a segment covers \(first)…\(last)")
        precondition(
            type.identifier.utf8.allSatisfy { Self.identifierBytes.contains($0) },
            "a type identifier in a file name is ASCII letters, digits, `_` and `.`")
        self.type = type
        self.first = first
        self.last = last
    }

    var fileName: String {
        Self.prefix + type.identifier + "-" + Self.hex(first) + "-" + Self.hex(last) + Self.suffix
    }

    /// The name the file has while it is written; renamed to ``fileName`` once complete and flushed.
    var temporaryFileName: String {
        StoreLayout.temporaryName(for: fileName)
    }

    /// The scratch file a ``SegmentWriter`` spills its look-up columns to while the segment is written; removed
    /// once it is complete, and by the next opening when a crash leaves it.
    var scratchFileName: String {
        StoreLayout.temporaryName(for: fileName + Self.scratchSuffix)
    }

    private static let scratchSuffix = ".runs"

    var description: String { fileName }

    /// Whether this segment's range holds `other`'s (and so supersedes it, when they differ).
    func covers(_ other: SegmentName) -> Bool {
        first <= other.first && other.last <= last
    }

    /// What a directory entry is to the segments of `type`.
    enum Entry: Equatable {
        /// A segment of `type`.
        case segment(SegmentName)
        /// A segment of `type` left half written, or its writer's scratch file: ``temporaryFileName`` or
        /// ``scratchFileName`` of a segment name.
        case temporary(SegmentName)
        /// Anything else, including another type's segments.
        case other
    }

    /// What `name` is to the segments of `type`: the name is parsed, generated again and compared byte for byte,
    /// so only the spelling ``fileName`` writes is a segment.
    /// - Complexity: O(name length).
    static func classify(_ name: String, for type: HealthObjectType) -> Entry {
        let temporaryPrefix = Array(StoreLayout.temporaryPrefix.utf8)
        let temporarySuffix = Array(StoreLayout.temporarySuffix.utf8)
        let bytes = Array(name.utf8)
        if bytes.count > temporaryPrefix.count + temporarySuffix.count, bytes.starts(with: temporaryPrefix),
            bytes.reversed().starts(with: temporarySuffix.reversed())
        {
            var inner = String(
                decoding: bytes[temporaryPrefix.count..<(bytes.count - temporarySuffix.count)], as: UTF8.self)
            if inner.hasSuffix(scratchSuffix) { inner = String(inner.dropLast(scratchSuffix.count)) }
            guard let parsed = parse(inner, for: type) else { return .other }
            return .temporary(parsed)
        }
        return parse(name, for: type).map(Entry.segment) ?? .other
    }

    private static func parse(_ name: String, for type: HealthObjectType) -> SegmentName? {
        guard type.identifier.utf8.allSatisfy({ identifierBytes.contains($0) }) else { return nil }
        let head = Array((prefix + type.identifier + "-").utf8)
        let tail = Array(suffix.utf8)
        let bytes = Array(name.utf8)
        // Two 16-digit numbers and the dash between them.
        guard bytes.count == head.count + 33 + tail.count, bytes.starts(with: head),
            bytes.reversed().starts(with: tail.reversed())
        else { return nil }
        let numbers = bytes[head.count..<(head.count + 33)]
        guard numbers[numbers.startIndex + 16] == UInt8(ascii: "-"),
            let first = UInt64(String(decoding: numbers.prefix(16), as: UTF8.self), radix: 16),
            let last = UInt64(String(decoding: numbers.suffix(16), as: UTF8.self), radix: 16),
            first <= last
        else { return nil }
        let parsed = SegmentName(type: type, first: first, last: last)
        return parsed.fileName.utf8.elementsEqual(name.utf8) ? parsed : nil
    }

    /// The bytes a type identifier may have to appear in a file name.
    private static let identifierBytes: Set<UInt8> = Set(
        Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [UInt8(ascii: "_"), UInt8(ascii: ".")])

    /// 16 lowercase hex digits, zero-padded.
    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
