import Foundation
import Testing

@testable import HealthFlow

/// A ``SegmentedTypeStorage`` of heart-rate samples beside its ``SegmentStorageReference``, fed the same changes
/// from one seeded generator, and the check that every query answers alike.
final class SegmentStorageHarness {
    static let base = Fixture.noon.timeIntervalSinceReferenceDate
    /// Starts fall in three days from noon.
    static let span = 3.0 * 86_400

    let directory: FileSystemPath
    let limit: SegmentMemtableLimit
    /// The writers' run length: small, so that flushes and compactions spill and merge their look-up columns.
    let runLength: Int
    var storage: SegmentedTypeStorage
    var reference = SegmentStorageReference()
    var generator: SeededGenerator
    var sequence: UInt64 = 0
    /// When set, the next row starts here and each row a minute after the one before (rows in time order, as an
    /// import writes them); when `nil`, rows start anywhere in ``span``.
    var clock: Double?
    /// Every UUID ever inserted.
    private(set) var uuids: [UUID] = []

    init(directory: FileSystemPath, limit: SegmentMemtableLimit, seed: UInt64, runLength: Int = 37) throws {
        self.directory = directory
        self.limit = limit
        self.runLength = runLength
        generator = SeededGenerator(seed: seed)
        storage = try SegmentedTypeStorage(
            type: .heartRate, directory: directory, fileSystem: PosixFileSystem(), memtableLimit: limit,
            writerRunLength: runLength)
    }

    /// A new row: a start in ``span`` (or at ``clock``), most durations under 10 minutes and one in ten up to a day, metadata on
    /// one in four, one in six held by a correlation.
    func makeRow(uuid: UUID? = nil) throws -> SegmentRow {
        sequence += 1
        let start = clock ?? Self.base + Double.random(in: 0..<Self.span, using: &generator).rounded()
        clock = clock.map { $0 + 60 }
        let duration =
            Int.random(in: 0..<10, using: &generator) == 0
            ? Double(Int.random(in: 0...86_400, using: &generator))
            : Double(Int.random(in: 0...600, using: &generator))
        let metadata: [MetadataKey: MetadataValue] =
            Int.random(in: 0..<4, using: &generator) == 0 ? [.syncVersion: .number(Double(sequence))] : [:]
        let sample = try StoreFixture.sample(
            .heartRate, Double(Int.random(in: 40...180, using: &generator)), unit: "count/min",
            start: Date(timeIntervalSinceReferenceDate: start), duration: duration, metadata: metadata,
            uuid: uuid ?? UUID.random(using: &generator))
        return SegmentRow(
            entry: IndexedSample(sample: sample, sequence: sequence, isOwned: Bool.random(using: &generator)),
            correlation: Int.random(in: 0..<6, using: &generator) == 0 ? UUID.random(using: &generator) : nil)
    }

    /// Inserts `count` new samples (and, with `reinserting`, a stored UUID again as a new version).
    func insert(_ count: Int, reinserting existing: UUID? = nil) throws {
        var rows = try (0..<count).map { _ in try makeRow() }
        if let existing { rows.append(try makeRow(uuid: existing)) }
        for row in rows { reference.insert(row) }
        uuids += rows.map(\.entry.sample.uuid)
        if try storage.insert(rows) { reference.flushed(into: storage.segments.last!.name.last) }
    }

    /// Deletes `chosen`, or a UUID chosen among all ever inserted (so sometimes one already deleted).
    func deleteOne(_ chosen: UUID? = nil) throws {
        guard let uuid = chosen ?? uuids.randomElement(using: &generator) else { return }
        let flushesBefore = storage.segments.count
        let next = sequence + 1
        let expected = reference.delete(uuid, sequence: next)
        let deleted = try storage.delete(uuid, sequence: next)
        #expect(deleted.map { sameRow($0, expected!) } ?? (expected == nil), "deleting \(uuid)")
        if expected != nil { sequence = next }
        if storage.segments.count != flushesBefore { reference.flushed(into: storage.segments.last!.name.last) }
    }

    func flush() throws {
        try storage.flush()
        if let last = storage.segments.last { reference.flushed(into: last.name.last) }
    }

    /// Compacts the segments at `run` (all of them by default).
    @discardableResult
    func compact(_ run: Range<Int>? = nil, keepingDeletionsAfter floor: UInt64) throws -> SegmentCompaction? {
        guard !storage.segments.isEmpty else { return nil }
        let run = run ?? storage.segments.indices
        let numbers = storage.segments[run.lowerBound].name.first...storage.segments[run.upperBound - 1].name.last
        let compaction = try storage.compact(run, keepingDeletionsAfter: floor)
        reference.compacted(numbers, dropsDeletions: run.lowerBound == 0, keepingDeletionsAfter: floor)
        return compaction
    }

    func reopen(fileSystem: any StoreFileSystem = PosixFileSystem()) throws {
        storage = try SegmentedTypeStorage(
            type: .heartRate, directory: directory, fileSystem: fileSystem, memtableLimit: limit,
            writerRunLength: runLength)
        reference.reopened()
    }

    /// Opens the storage again over `fileSystem` and gives it the memtable it had (the reference's versions not
    /// yet flushed, in sequence order), as the store's journal replay would.
    func reopenKeepingMemtable(fileSystem: any StoreFileSystem) throws {
        let pending = reference.histories.values.flatMap { $0.filter { !$0.isFlushed }.map(\.row) }
            .sorted { $0.entry.sequence < $1.entry.sequence }
        storage = try SegmentedTypeStorage(
            type: .heartRate, directory: directory, fileSystem: fileSystem, memtableLimit: limit,
            writerRunLength: runLength)
        for row in pending {
            if row.isDeletion {
                _ = try storage.delete(row.entry.sample.uuid, sequence: row.entry.sequence)
            } else {
                try storage.insert([row])
            }
        }
    }

    /// Runs `steps` steps, each drawn from the generator: an action of `mix`, with the chance in 100 its weight
    /// gives (in order), or, when the draw falls past them all, ``expectSameAnswers(_:queries:)``.
    func runSteps(_ steps: Int, _ mix: [(weight: Int, action: () throws -> Void)]) throws {
        for step in 0..<steps {
            var draw = Int.random(in: 0..<100, using: &generator)
            var chosen: (() throws -> Void)?
            for entry in mix {
                if draw < entry.weight {
                    chosen = entry.action
                    break
                }
                draw -= entry.weight
            }
            if let chosen { try chosen() } else { try expectSameAnswers("step \(step)") }
        }
    }

    /// Look-ups, date ranges and anchored queries, drawn from the generator, answered alike by both.
    func expectSameAnswers(_ label: String, queries: Int = 4) throws {
        let probes = (0..<queries * 4).compactMap { _ in uuids.randomElement(using: &generator) } + [UUID()]
        for uuid in probes {
            let found = try storage.row(withUUID: uuid)
            let expected = reference.row(withUUID: uuid)
            #expect(
                found.map { row in expected.map { sameRow(row, $0) } ?? false } ?? (expected == nil),
                "\(label): look-up of \(uuid)")
        }
        for _ in 0..<queries {
            let lower = Self.base + Double.random(in: -3_600..<Self.span, using: &generator)
            let upper = lower + Double.random(in: 0..<(Self.span / 4), using: &generator)
            let shape = Int.random(in: 0..<5, using: &generator)
            let bounds: (Double?, Double?, Double?) =
                switch shape {
                case 0: (lower, upper, nil)
                case 1: (nil, upper, lower)
                case 2: (lower, nil, nil)
                case 3: (nil, nil, nil)
                default: (nil, upper, nil)
                }
            let found = try storage.rows(startingFrom: bounds.0, below: bounds.1, endingAtOrAfter: bounds.2)
            let expected = reference.rows(startingFrom: bounds.0, below: bounds.1, endingAtOrAfter: bounds.2)
            #expect(
                found.count == expected.count && zip(found, expected).allSatisfy(sameRow),
                "\(label): range \(bounds) gave \(found.count) rows, expected \(expected.count)")
        }
        for _ in 0..<queries {
            let anchor = UInt64.random(in: 0...sequence, using: &generator)
            let limit = Bool.random(using: &generator) ? Int.max : Int.random(in: 1...40, using: &generator)
            let (changes, exhausted) = try storage.changes(after: anchor, limit: limit)
            let all = reference.changes(after: anchor)
            let expected = all.prefix(limit)
            let same =
                changes.count == expected.count
                && zip(changes, expected).allSatisfy { change, row in
                    switch change {
                    case .added(let added): sameRow(added, row)
                    case .deleted(let tombstone):
                        row.isDeletion && tombstone.sequence == row.entry.sequence
                            && tombstone.sample == row.entry.sample && tombstone.object.uuid == row.entry.sample.uuid
                    }
                }
            #expect(
                same, "\(label): changes after \(anchor) (limit \(limit)): \(changes.count), expected \(expected.count)"
            )
            #expect(exhausted == (all.count <= limit), "\(label): exhausted is \(exhausted) after \(anchor)")
        }
    }
}
