import Foundation
import Testing

@testable import HealthFlow

/// A disk-backed folder whose newest log was removed by something else (a hand, a sync tool, a restore that
/// missed a file) stops opening with a typed error naming the missing log, instead of opening without the
/// changes only that log held; nothing in the folder is changed.
struct SegmentedMissingLogTests {
    static func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// A backend whose memtables hold every change of these tests until a checkpoint (no flush or rotation of
    /// its own in between).
    static func open(_ directory: URL) throws -> SegmentedHealthStoreBackend {
        try SegmentedHealthStoreBackendTests.open(
            directory, memtableLimit: SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20), logLimit: 1 << 20)
    }

    static func heartRates(_ count: Int) throws -> [StoredHealthSample] {
        try (0..<count).map { _ in
            StoredHealthSample(sample: try StoreFixture.sample(.heartRate, 60, unit: "count/min"), correlation: nil)
        }
    }

    @Test func segmentsWithoutAnyLogStopOpening() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try Self.open(directory)
            try backend.insert(try Self.heartRates(5))
            try backend.checkpoint()
            backend.close()
            let log = try #require(try Self.names(directory).first { $0.hasPrefix("segment-log-") })
            try FileManager.default.removeItem(at: directory.appendingPathComponent(log))
            let before = try Self.names(directory)

            #expect(
                throws: FileStoreError.corruptFile(
                    name: SegmentLog.name(1), offset: 0, problem: .missingFile)
            ) {
                try SegmentedHealthStoreBackendTests.open(directory)
            }
            #expect(try Self.names(directory) == before, "no log was made and nothing removed")
        }
    }

    @Test func anOlderLogInPlaceOfTheNewestStopsOpening() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try Self.open(directory)
            try backend.insert(try Self.heartRates(3))
            let first = SegmentLog.name(1)
            let older = try Data(contentsOf: directory.appendingPathComponent(first))
            try backend.checkpoint()
            try backend.insert(try Self.heartRates(4))
            try backend.checkpoint()
            let newest = try #require(try Self.names(directory).last { $0.hasPrefix("segment-log-") })
            backend.close()
            try FileManager.default.removeItem(at: directory.appendingPathComponent(newest))
            try older.write(to: directory.appendingPathComponent(first))
            let before = try Self.names(directory)

            #expect(
                throws: FileStoreError.corruptFile(name: SegmentLog.name(2), offset: 0, problem: .missingFile)
            ) {
                try SegmentedHealthStoreBackendTests.open(directory)
            }
            #expect(try Self.names(directory) == before)
        }
    }

    @Test func aMissingOlderLogIsNotNeeded() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try Self.open(directory)
            try backend.insert(try Self.heartRates(3))
            try backend.checkpoint()
            try backend.insert(try Self.heartRates(4))
            backend.close()
            // The rotation removed log 1: its changes are in segments, and log 2 holds the rest.
            #expect(try Self.names(directory).filter { $0.hasPrefix("segment-log-") } == [SegmentLog.name(2)])
            let reopened = try SegmentedHealthStoreBackendTests.open(directory)
            defer { reopened.close() }
            #expect(reopened.samples(of: .heartRate, matching: nil).count == 7)
        }
    }
}
