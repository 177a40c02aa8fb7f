import Foundation
import Testing

@testable import HealthFlow

/// ``SegmentMemtable`` answers as a plain model of its rules: per UUID the newest version, the deletions a newer
/// version replaced kept, a replaced live version dropped, and the estimated bytes of what it holds.
struct SegmentMemtableTests {
    /// The rules, spelled out with a dictionary of newest versions and a list of replaced deletions.
    struct Model {
        var newest: [UUIDKey: SegmentRow] = [:]
        var superseded: [SegmentRow] = []
        var bytes = 0

        mutating func put(_ row: SegmentRow) {
            let key = UUIDKey(row.entry.sample.uuid)
            if let replaced = newest.updateValue(row, forKey: key) {
                if replaced.isDeletion {
                    superseded.append(replaced)
                } else {
                    bytes -= SegmentRowFootprint.bytes(of: replaced)
                }
            }
            bytes += SegmentRowFootprint.bytes(of: row)
        }

        var all: [(row: SegmentRow, isNewest: Bool)] {
            newest.values.map { ($0, true) } + superseded.map { ($0, false) }
        }
    }

    /// A row's identity in a comparison: its UUID, sequence and kind.
    static func describe(_ row: SegmentRow) -> String {
        "\(row.entry.sample.uuid) \(row.entry.sequence) \(row.isDeletion ? "deleted" : "live")"
    }

    /// The versions as a flush visits them.
    static func startOrder(of memtable: SegmentMemtable) -> [(row: SegmentRow, isNewest: Bool)] {
        var rows: [(row: SegmentRow, isNewest: Bool)] = []
        memtable.forEachInStartOrder { rows.append(($0, $1)) }
        return rows
    }

    @Test(arguments: [(seed: UInt64(1), inOrder: true), (2, false), (3, true), (4, false)])
    func theMemtableAnswersAsTheModelOfItsRules(seed: UInt64, inOrder: Bool) throws {
        var generator = SeededGenerator(seed: seed)
        var memtable = SegmentMemtable()
        var model = Model()
        let pool = (0..<60).map { _ in UUID.random(using: &generator) }
        let base = Fixture.noon.timeIntervalSinceReferenceDate
        for sequence in UInt64(1)...600 {
            let start =
                inOrder
                ? base + Double(sequence / 3) * 60 : base + Double(Int.random(in: 0..<200, using: &generator)) * 60
            let sample = try StoreFixture.sample(
                .heartRate, 60, unit: "count/min", start: Date(timeIntervalSinceReferenceDate: start),
                duration: Double(Int.random(in: 0..<3, using: &generator)) * 60,
                uuid: pool.randomElement(using: &generator)!)
            let row = SegmentRow(
                entry: IndexedSample(sample: sample, sequence: sequence, isOwned: false), correlation: nil,
                isDeletion: Int.random(in: 0..<3, using: &generator) == 0)
            memtable.put(row)
            model.put(row)

            #expect(memtable.count == model.all.count)
            #expect(memtable.bytes == model.bytes)
            guard sequence % 50 == 0 else { continue }
            for uuid in pool {
                #expect(
                    memtable.version(of: UUIDKey(uuid)).map(Self.describe)
                        == model.newest[UUIDKey(uuid)].map(Self.describe))
            }
            let expected = model.all.sorted {
                ($0.row.entry.start, $0.row.entry.sequence) < ($1.row.entry.start, $1.row.entry.sequence)
            }
            #expect(
                Self.startOrder(of: memtable).map { "\(Self.describe($0.row)) \($0.isNewest)" }
                    == expected.map { "\(Self.describe($0.row)) \($0.isNewest)" })
            let lower = base + 3_000
            let live = memtable.liveRows(startingFrom: lower, below: lower + 3_000, endingAtOrAfter: lower + 60)
            let expectedLive = expected.map(\.row).filter {
                !$0.isDeletion && $0.entry.start >= lower && $0.entry.start < lower + 3_000
                    && $0.entry.end >= lower + 60
            }
            #expect(live.map(Self.describe) == expectedLive.map(Self.describe))
            let after = sequence > 120 ? sequence - 120 : 0
            #expect(
                memtable.rows(after: after).map(Self.describe)
                    == model.all.map(\.row).filter { $0.entry.sequence > after }
                    .sorted { $0.entry.sequence < $1.entry.sequence }.map(Self.describe))
        }
        memtable.removeAll()
        #expect(memtable.isEmpty && memtable.count == 0 && memtable.bytes == 0)
        #expect(Self.startOrder(of: memtable).isEmpty)
    }

    /// A few samples saved again and again: each replaced live version is dropped, and the memory it held is
    /// given back once the dropped ones outnumber the held ones, so the memtable keeps about twice what it holds
    /// however often its samples are replaced; every answer stays the model's.
    @Test func samplesSavedAgainAndAgainKeepTheMemtableBounded() throws {
        var memtable = SegmentMemtable()
        var model = Model()
        let uuids = (0..<3).map { _ in UUID() }
        let deleted = UUID()
        let base = Fixture.noon.timeIntervalSinceReferenceDate
        for sequence in UInt64(1)...3_000 {
            let isDeletion = sequence % 500 == 0
            let sample = try StoreFixture.sample(
                .heartRate, Double(60 + sequence % 40), unit: "count/min",
                start: Date(timeIntervalSinceReferenceDate: base + Double(sequence) * 60),
                uuid: isDeletion ? deleted : uuids[Int(sequence) % uuids.count])
            let row = SegmentRow(
                entry: IndexedSample(sample: sample, sequence: sequence, isOwned: false), correlation: nil,
                isDeletion: isDeletion)
            memtable.put(row)
            model.put(row)
            #expect(memtable.keptVersions <= 2 * memtable.count + 65, "kept \(memtable.keptVersions) at \(sequence)")
        }
        #expect(memtable.count == model.all.count && memtable.bytes == model.bytes)
        for uuid in uuids + [deleted] {
            #expect(
                memtable.version(of: UUIDKey(uuid)).map(Self.describe)
                    == model.newest[UUIDKey(uuid)].map(Self.describe))
        }
        #expect(
            Self.startOrder(of: memtable).map { "\(Self.describe($0.row)) \($0.isNewest)" }
                == model.all.sorted { $0.row.entry.sequence < $1.row.entry.sequence }
                .map { "\(Self.describe($0.row)) \($0.isNewest)" })
        #expect(
            memtable.rows(after: 0).map(Self.describe)
                == model.all.map(\.row).sorted {
                    $0.entry.sequence < $1.entry.sequence
                }.map(Self.describe))
    }
}
