import Foundation

@testable import HealthFlow

/// What a ``SegmentedTypeStorage`` must answer, kept the simplest way: every version of every UUID in memory,
/// each marked flushed (in a segment) or not (in the memtable, lost by a reopening).
struct SegmentStorageReference {
    struct Version {
        let row: SegmentRow
        var isFlushed: Bool
    }

    /// Every UUID's versions, oldest first.
    private(set) var histories: [UUID: [Version]] = [:]

    func newest(_ uuid: UUID) -> SegmentRow? {
        histories[uuid]?.last?.row
    }

    mutating func insert(_ row: SegmentRow) {
        histories[row.entry.sample.uuid, default: []].append(Version(row: row, isFlushed: false))
    }

    /// The live row deleted, as the storage's ``SegmentedTypeStorage/delete(_:sequence:)`` returns it.
    mutating func delete(_ uuid: UUID, sequence: UInt64) -> SegmentRow? {
        guard let live = newest(uuid), !live.isDeletion else { return nil }
        let tombstone = SegmentRow(
            entry: IndexedSample(
                sample: live.entry.sample, start: live.entry.start, end: live.entry.end, sequence: sequence,
                isOwned: live.entry.isOwned),
            correlation: live.correlation, isDeletion: true)
        histories[uuid, default: []].append(Version(row: tombstone, isFlushed: false))
        return live
    }

    mutating func flushed() {
        for uuid in histories.keys {
            histories[uuid] = histories[uuid]!.map { Version(row: $0.row, isFlushed: true) }
        }
    }

    /// A compaction: of the flushed versions only the newest stays, unless it is a deletion at or before
    /// `deletionFloor`.
    mutating func compacted(keepingDeletionsAfter deletionFloor: UInt64) {
        for (uuid, versions) in histories {
            var kept: [Version] = []
            if let newestFlushed = versions.last(where: \.isFlushed),
                !(newestFlushed.row.isDeletion && newestFlushed.row.entry.sequence <= deletionFloor)
            {
                kept.append(newestFlushed)
            }
            kept += versions.filter { !$0.isFlushed }
            histories[uuid] = kept.isEmpty ? nil : kept
        }
    }

    /// A reopening: the memtable's versions are gone.
    mutating func reopened() {
        for (uuid, versions) in histories {
            let kept = versions.filter(\.isFlushed)
            histories[uuid] = kept.isEmpty ? nil : kept
        }
    }

    func row(withUUID uuid: UUID) -> SegmentRow? {
        newest(uuid).flatMap { $0.isDeletion ? nil : $0 }
    }

    func rows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        -> [SegmentRow]
    {
        histories.values.compactMap { $0.last?.row }
            .filter {
                !$0.isDeletion
                    && SegmentRangeFilter.matches(
                        $0.entry, startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
            }
            .sorted { ($0.entry.start, $0.entry.sequence) < ($1.entry.start, $1.entry.sequence) }
    }

    /// Every change after `anchor` in sequence order (no limit).
    func changes(after anchor: UInt64) -> [SegmentRow] {
        histories.values.compactMap { $0.last?.row }.filter { $0.entry.sequence > anchor }
            .sorted { $0.entry.sequence < $1.entry.sequence }
    }

    var liveCount: Int {
        histories.values.count { $0.last.map { !$0.row.isDeletion } ?? false }
    }
}

/// Whether two rows are the same version: sample, keys, owner, correlation, deletion.
func sameRow(_ left: SegmentRow, _ right: SegmentRow) -> Bool {
    left.entry.sample == right.entry.sample && left.entry.start == right.entry.start
        && left.entry.end == right.entry.end && left.entry.sequence == right.entry.sequence
        && left.entry.isOwned == right.entry.isOwned && left.correlation == right.correlation
        && left.isDeletion == right.isDeletion
}
