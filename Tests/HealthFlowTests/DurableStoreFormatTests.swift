import Foundation
import Testing

@testable import HealthFlow

/// A folder's store format is told by the names its store generates, and neither durable store opens (or writes
/// its own files beside) a store of the other format.
struct DurableStoreFormatTests {
    static func format(_ directory: URL) throws -> DurableStoreFormat? {
        try DurableStoreFormat.of(directoryPath: FileSystemPath(directory))
    }

    static func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func aMissingOrEmptyFolderHoldsNoStore() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            #expect(try Self.format(directory) == nil)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(try Self.format(directory) == nil)
        }
    }

    @Test func namesNeitherStoreGeneratesAreNotLookedAt() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in [
                "journal-+000000000000001.hfj", "snapshot-000000000000000F.hfs", "segment-log-1.hfj",
                "segment-notAType-0000000000000001-0000000000000001.hfseg", "LOCK", "segments.lock", "notes.txt",
            ] {
                let path = directory.appendingPathComponent(name).path
                #expect(FileManager.default.createFile(atPath: path, contents: nil))
            }
            #expect(try Self.format(directory) == nil)
        }
    }

    @Test func eachStoresFolderIsToldByItsFiles() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let journal = directory.appendingPathComponent("journal")
            let file = try FileHealthStore(directory: journal, configuration: StoreFixture.app)
            try file.ingest([try StoreFixture.sample()])
            file.close()
            #expect(try Self.format(journal) == .journal)

            let segments = directory.appendingPathComponent("segments")
            let backend = try SegmentedHealthStoreBackendTests.open(segments)
            backend.close()
            #expect(try Self.format(segments) == .segments, "a new backend's first log tells it")
        }
    }

    @Test func theJournalStoreRefusesADiskBackedFolderAndWritesNothingOfItsOwn() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try SegmentedHealthStoreBackendTests.open(directory)
            try backend.insert([StoredHealthSample(sample: try StoreFixture.sample(), correlation: nil)])
            backend.close()
            let before = try Self.names(directory)

            #expect(throws: FileStoreError.otherFormat(path: directory.path, holds: .segments)) {
                try FileHealthStore(directory: directory, configuration: StoreFixture.app)
            }
            #expect(try Self.names(directory).filter { $0 != StoreLayout.lockName } == before)
            #expect(try Self.format(directory) == .segments)
            #expect(try SegmentedHealthStoreBackendTests.open(directory).lastSequence == 1, "the store still opens")
        }
    }

    @Test func theDiskBackedStoreRefusesAJournalFolderAndWritesNothingOfItsOwn() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let file = try FileHealthStore(directory: directory, configuration: StoreFixture.app)
            try file.ingest([try StoreFixture.sample()])
            file.close()
            let before = try Self.names(directory)

            #expect(throws: FileStoreError.otherFormat(path: directory.path, holds: .journal)) {
                try SegmentedHealthStoreBackendTests.open(directory)
            }
            #expect(try Self.names(directory).filter { $0 != SegmentedBackendState.lockName } == before)
            let reopened = try FileHealthStore(directory: directory, configuration: StoreFixture.app)
            #expect(reopened.lastChangeSequence == 1, "the store still opens")
            reopened.close()
        }
    }

    @Test func aFolderHoldingBothStoresOpensAsNeither() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let file = try FileHealthStore(directory: directory, configuration: StoreFixture.app)
            file.close()
            let log = SegmentLog.name(1)
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(log).path, contents: nil))

            #expect(throws: FileStoreError.self) { try Self.format(directory) }
            do {
                _ = try Self.format(directory)
            } catch let error as FileStoreError {
                guard case .corruptFile(let name, _, .inconsistent(let reason)) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(name == log)
                #expect(reason.contains("journal-"))
            }
            #expect(throws: FileStoreError.self) { try SegmentedHealthStoreBackendTests.open(directory) }
            #expect(throws: FileStoreError.self) {
                try FileHealthStore(directory: directory, configuration: StoreFixture.app)
            }
        }
    }
}
