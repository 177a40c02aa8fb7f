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
/// its own journal or snapshot names, and journals or snapshots a loaded snapshot covers. Anything else in the
/// folder (another program's `*.tmp`, a directory) is never touched.
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
        "journal-\(hex(generation)).hfj"
    }

    static func snapshotName(_ generation: UInt64) -> String {
        "snapshot-\(hex(generation)).hfs"
    }

    /// The name a journal or snapshot file has while it is being written.
    static func temporaryName(for name: String) -> String {
        temporaryPrefix + name + temporarySuffix
    }

    static func classify(_ name: String) -> Entry {
        if name.hasPrefix(temporaryPrefix), name.hasSuffix(temporarySuffix),
            name.count > temporaryPrefix.count + temporarySuffix.count
        {
            switch classify(String(name.dropFirst(temporaryPrefix.count).dropLast(temporarySuffix.count))) {
            case .journal, .snapshot: return .temporary
            case .temporary, .other: return .other
            }
        }
        if let generation = generation(in: name, prefix: "journal-", suffix: ".hfj") { return .journal(generation) }
        if let generation = generation(in: name, prefix: "snapshot-", suffix: ".hfs") { return .snapshot(generation) }
        return .other
    }

    private static func hex(_ generation: UInt64) -> String {
        let digits = String(generation, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    private static func generation(in name: String, prefix: String, suffix: String) -> UInt64? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count == 16 else { return nil }
        return UInt64(digits, radix: 16)
    }
}
