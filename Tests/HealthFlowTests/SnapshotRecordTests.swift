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
