import Foundation
import Testing

@testable import HealthFlow

/// The decode step of the snapshot reader: a payload as typed values, knowing nothing of the records before it.
struct SnapshotRecordTests {
    private static func decode(_ kind: RecordKind, _ write: (inout BinaryWriter) -> Void) throws -> SnapshotRecord {
        var writer = BinaryWriter()
        write(&writer)
        var reader = BinaryReader(writer.bytes, range: 0..<writer.bytes.count)
        var decoder = SampleDecoder()
        return try SnapshotRecord.decode(kind, from: &reader, decoder: &decoder)
    }

    @Test func additionsKeepTheEntriesBeforeTheFirstThatFailsAndThatEntrysSequence() throws {
        let removed = UUID()
        let record = try Self.decode(.additions) { writer in
            writer.varint(5)
            writer.byte(0)
            writer.uuid(removed)
            writer.varint(2)
            writer.byte(7)
        }
        guard case .additions(let entries) = record else { throw Unexpected(record: record) }
        guard case .removed(let sequence, let uuid) = try #require(entries.decoded.first) else {
            throw Unexpected(record: record)
        }
        #expect(entries.decoded.count == 1)
        #expect(sequence == 5 && uuid == removed)
        #expect(entries.failure?.reason == "unknown addition state")
        #expect(entries.failedSequence == 7)
    }

    @Test func additionsHandedOutAsDecodedAreTheRecordsEntriesWithTheSameEnd() throws {
        let removed = UUID()
        var writer = BinaryWriter()
        writer.varint(5)
        writer.byte(0)
        writer.uuid(removed)
        writer.varint(1)
        Self.heartRate(55, into: &writer)
        writer.varint(2)
        writer.byte(7)
        var reader = BinaryReader(writer.bytes, range: 0..<writer.bytes.count)
        var decoder = SampleDecoder()
        var streamed: [SnapshotRecord.Addition] = []
        let end = SnapshotRecord.forEachAddition(from: &reader, decoder: &decoder) { streamed.append($0) }
        let record = try Self.decode(.additions) { $0 = writer }
        guard case .additions(let entries) = record else { throw Unexpected(record: record) }
        #expect(streamed.map(Self.summary) == entries.decoded.map(Self.summary))
        #expect(streamed.map(Self.summary) == ["5 removed \(removed)", "6 live heartRate 55.0"])
        #expect(end.failure?.reason == entries.failure?.reason && end.failure?.reason == "unknown addition state")
        #expect(end.failedSequence == entries.failedSequence && end.failedSequence == 8)
    }

    @Test func aSnapshotDecoderChecksTheFirstSampleOfEachTypeAndUnitAndAJournalDecoderEverySample() throws {
        func decodeBoth(_ values: [Double], trusting: Bool) throws -> [HealthSample] {
            var writer = BinaryWriter()
            for value in values { Self.heartRate(value, into: &writer, kindOnly: true) }
            var reader = BinaryReader(writer.bytes, range: 0..<writer.bytes.count)
            var decoder = SampleDecoder(trustsKnownQuantitySamples: trusting)
            return try values.map { _ in try decoder.sample(from: &reader) }
        }
        #expect(throws: BinaryReader.Failure.self) { try decodeBoth([-1, 60], trusting: true) }
        #expect(throws: BinaryReader.Failure.self) { try decodeBoth([60, -1], trusting: false) }
        #expect(try decodeBoth([60, 61], trusting: true).count == 2)
    }

    /// Writes a live heart-rate addition (state byte, then the sample) or, with `kindOnly`, the sample alone, as
    /// the snapshot writer lays them out; `value` in count/min, unchecked.
    private static func heartRate(_ value: Double, into writer: inout BinaryWriter, kindOnly: Bool = false) {
        if !kindOnly { writer.byte(1) }
        writer.byte(1)
        writer.uuid(UUID())
        writer.string(HealthObjectType.heartRate.identifier)
        writer.double(0)
        writer.double(0)
        writer.string("com.example.tests")
        writer.string("Tests")
        writer.count(0)
        writer.double(value)
        writer.unit(HealthUnit.count().unitDivided(by: .minute()))
    }

    private static func summary(_ addition: SnapshotRecord.Addition) -> String {
        switch addition {
        case .removed(let sequence, let uuid): "\(sequence) removed \(uuid)"
        case .live(let sequence, .quantity(let sample), nil): "\(sequence) live \(sample.type) \(sample.quantity.value)"
        case .live(let sequence, _, _): "\(sequence) another sample"
        }
    }

    @Test func anEntryWhoseSequenceDoesNotDecodeHasNoFailedSequence() throws {
        let record = try Self.decode(.tombstones) { writer in writer.byte(0x80) }
        guard case .tombstones(let entries) = record else { throw Unexpected(record: record) }
        #expect(entries.decoded.isEmpty)
        #expect(entries.failure != nil)
        #expect(entries.failedSequence == nil)
    }

    @Test func aTypeSectionAndTheEndRecordDecodeTheirCounts() throws {
        let section = try Self.decode(.typeSection) { writer in
            writer.string(HealthObjectType.heartRate.identifier)
            writer.varint(3)
            writer.varint(1)
        }
        guard case .typeSection(let type, let additions, let tombstones) = section else {
            throw Unexpected(record: section)
        }
        #expect(type == .heartRate && additions == 3 && tombstones == 1)

        let end = try Self.decode(.end) { writer in
            writer.uint64(42)
            writer.varint(1)
            writer.varint(2)
        }
        guard case .end(let sequence, let sections, let live) = end else { throw Unexpected(record: end) }
        #expect(sequence == 42 && sections == 1 && live == 2)
    }

    @Test(arguments: [RecordKind.insert, .delete, .authorization, .recording])
    func journalRecordsAreNotSnapshotRecords(kind: RecordKind) {
        #expect(throws: BinaryReader.Failure.self) { try Self.decode(kind) { _ in } }
    }

    /// A record of another kind than the test wrote.
    private struct Unexpected: Error {
        let record: String

        init(record: SnapshotRecord) {
            self.record = String(describing: record)
        }
    }
}
