import Foundation

/// The names of a store directory's files and the magic bytes that open them.
///
/// ```text
/// LOCK                                  flock'd while a store has the directory open (empty)
/// journal-0000000000000003.hfj          journal generation 3: records made after snapshot 3
/// snapshot-0000000000000003.hfs         the state before journal 3 (every journal < 3 applied)
/// .healthflow-<journal or snapshot>.tmp  a file being written; renamed into place once flushed
/// ```
///
/// The store removes only files whose names it generated: a leftover `.healthflow-…tmp` whose middle is one of
/// its own journal or snapshot names, and journals or snapshots a loaded snapshot covers (``classify(_:)``). Anything
/// else in the folder (another program's `*.tmp`, a directory, a name spelled otherwise than the store spells it,
/// such as `journal-000000000000000A.hfj` or `journal-+000000000000000.hfj`) is never touched.
enum StoreLayout {
    static let lockName = "LOCK"
    static let journalMagic: [UInt8] = Array("HFJRNL01".utf8)
    static let snapshotMagic: [UInt8] = Array("HFSNAP01".utf8)
    static let temporaryPrefix = ".healthflow-"
    static let temporarySuffix = ".tmp"
    /// Where a repairing open moves damaged files (never read, never removed by the store).
    static let damagedFolder = "damaged"

    /// `20261125T130411Z`: the UTC time a damaged file was moved aside, appended to its name.
    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// What a directory entry is.
    enum Entry: Equatable {
        case journal(UInt64)
        case snapshot(UInt64)
        case temporary
        case other
    }

    static func journalName(_ generation: UInt64) -> String {
        journal.prefix + hex(generation) + journal.suffix
    }

    static func snapshotName(_ generation: UInt64) -> String {
        snapshot.prefix + hex(generation) + snapshot.suffix
    }

    /// The name a journal or snapshot file has while it is being written.
    static func temporaryName(for name: String) -> String {
        temporaryPrefix + name + temporarySuffix
    }

    /// What `name` is. The one rule for every name the store reads, keeps or removes: a name is the store's only
    /// when its bytes are exactly those the store generates — ``journalName(_:)`` or ``snapshotName(_:)`` of the
    /// generation it spells (16 lowercase hex digits), or ``temporaryName(for:)`` of one of those. A sign, an
    /// uppercase digit, another count of digits or anything before or after makes it `.other`.
    static func classify(_ name: String) -> Entry {
        if let inner = middle(of: name, prefix: temporaryPrefix, suffix: temporarySuffix) {
            switch classify(inner) {
            case .journal, .snapshot: return .temporary
            case .temporary, .other: return .other
            }
        }
        if let generation = generation(in: name, journal) { return .journal(generation) }
        if let generation = generation(in: name, snapshot) { return .snapshot(generation) }
        return .other
    }

    private static let journal = (prefix: "journal-", suffix: ".hfj")
    private static let snapshot = (prefix: "snapshot-", suffix: ".hfs")

    /// 16 lowercase hex digits, zero-padded: the only spelling of a generation in a name.
    private static func hex(_ generation: UInt64) -> String {
        let digits = String(generation, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// The generation whose name (`prefix`, ``hex(_:)``, `suffix`) is `name` byte for byte, if any: the digits are
    /// parsed, then formatted again and compared, so only the spelling the store writes is accepted.
    private static func generation(in name: String, _ kind: (prefix: String, suffix: String)) -> UInt64? {
        guard let digits = middle(of: name, prefix: kind.prefix, suffix: kind.suffix),
            let generation = UInt64(digits, radix: 16), hex(generation).utf8.elementsEqual(digits.utf8)
        else { return nil }
        return generation
    }

    /// What lies between `prefix` and `suffix` in `name`, comparing bytes (not characters); `nil` when `name` does
    /// not start and end with them or nothing lies between.
    private static func middle(of name: String, prefix: String, suffix: String) -> String? {
        let bytes = Array(name.utf8)
        let head = Array(prefix.utf8)
        let tail = Array(suffix.utf8)
        guard bytes.count > head.count + tail.count, bytes.starts(with: head),
            bytes.reversed().starts(with: tail.reversed())
        else { return nil }
        return String(decoding: bytes[head.count..<(bytes.count - tail.count)], as: UTF8.self)
    }
}
