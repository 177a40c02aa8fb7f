import Foundation

@testable import HealthFlow

/// What a ``SegmentedTypeStorage`` must answer, kept the simplest way: every version of every UUID in memory,
/// each with the number of the flush that wrote it to a segment, or none while it is in the memtable (which a
/// reopening loses).
struct SegmentStorageReference {
    struct Version {
        let row: SegmentRow
        /// The number of the segment its flush wrote (a compacted segment covers its inputs' numbers).
        var segment: UInt64?

        var isFlushed: Bool { segment != nil }
    }

    /// Every UUID's versions, oldest first.
    private(set) var histories: [UUID: [Version]] = [:]

    func newest(_ uuid: UUID) -> SegmentRow? {
        histories[uuid]?.last?.row
    }

    mutating func insert(_ row: SegmentRow) {
        histories[row.entry.sample.uuid, default: []].append(Version(row: row, segment: nil))
    }

    /// The live row deleted, as the storage's ``SegmentedTypeStorage/delete(_:sequence:)`` returns it.
    mutating func delete(_ uuid: UUID, sequence: UInt64) -> SegmentRow? {
        guard let live = newest(uuid), !live.isDeletion else { return nil }
        let tombstone = SegmentRow(
            entry: IndexedSample(
                sample: live.entry.sample, start: live.entry.start, end: live.entry.end, sequence: sequence,
                isOwned: live.entry.isOwned),
            correlation: live.correlation, isDeletion: true)
        histories[uuid, default: []].append(Version(row: tombstone, segment: nil))
        return live
    }

    /// A flush into segment `number`.
    mutating func flushed(into number: UInt64) {
        for uuid in histories.keys {
            histories[uuid] = histories[uuid]!.map { Version(row: $0.row, segment: $0.segment ?? number) }
        }
    }

    /// A compaction of the segments numbered `numbers`: a version in them stays when it is its UUID's newest
    /// flushed version, and, when `dropsDeletions`, is not a deletion at or before `deletionFloor`; or when it is
    /// an older deletion after `deletionFloor`.
    mutating func compacted(
        _ numbers: ClosedRange<UInt64>, dropsDeletions: Bool, keepingDeletionsAfter deletionFloor: UInt64
    ) {
        for (uuid, versions) in histories {
            let newestFlushed = versions.lastIndex(where: \.isFlushed)
            let kept = versions.indices.filter { index in
                guard let segment = versions[index].segment, numbers.contains(segment) else { return true }
                let row = versions[index].row
                guard index == newestFlushed else { return row.isDeletion && row.entry.sequence > deletionFloor }
                return !(dropsDeletions && row.isDeletion && row.entry.sequence <= deletionFloor)
            }
            histories[uuid] = kept.isEmpty ? nil : kept.map { versions[$0] }
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

    /// Every change after `anchor` in sequence order (no limit), as the in-memory store reports them: every
    /// deletion kept, and each UUID's newest version when it is live.
    func changes(after anchor: UInt64) -> [SegmentRow] {
        histories.values.flatMap { versions in
            versions.indices.compactMap { index in
                let row = versions[index].row
                return row.isDeletion || index == versions.count - 1 ? row : nil
            }
        }
        .filter { $0.entry.sequence > anchor }
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
