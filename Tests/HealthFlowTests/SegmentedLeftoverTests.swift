import Foundation
import Testing

@testable import HealthFlow

/// Opening a ``SegmentedHealthStoreBackend`` removes the files an interrupted step of its own left — only names
/// it generates — and reports each one it removed in ``SegmentedBackendRecovery/removedFiles``.
struct SegmentedLeftoverTests {
    @Test func leftoversOfInterruptedStepsAreRemovedAndEachIsReported() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try SegmentedHealthStoreBackendTests.open(directory)
            let samples = try (0..<5).map { _ in
                StoredHealthSample(sample: try StoreFixture.sample(.heartRate, 60, unit: "count/min"), correlation: nil)
            }
            try backend.insert(samples)
            try backend.checkpoint()
            backend.close()
            #expect(backend.recovery.removedFiles.isEmpty, "a new folder has nothing to remove")

            let ours = [
                SegmentName(type: .heartRate, first: 9, last: 9).temporaryFileName,
                StoreLayout.temporaryName(for: SegmentLog.name(9)),
                StoreLayout.temporaryName(for: SegmentHistory.fileName),
                StoreLayout.temporaryName(for: SegmentAuthorization.fileName),
            ]
            let strangers = [
                ".healthflow-notes.txt.tmp", StoreLayout.temporaryName(for: "segment-log-9.hfj"),
                StoreLayout.temporaryName(for: StoreLayout.journalName(1)), "segments-history.hfh.bak",
            ]
            for name in ours + strangers {
                #expect(
                    FileManager.default.createFile(
                        atPath: directory.appendingPathComponent(name).path, contents: Data([1, 2, 3])))
            }

            let reopened = try SegmentedHealthStoreBackendTests.open(directory)
            defer { reopened.close() }
            #expect(reopened.recovery.removedFiles == ours.sorted())
            for name in ours {
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
            }
            for name in strangers {
                #expect(
                    try Data(contentsOf: directory.appendingPathComponent(name)) == Data([1, 2, 3]), "\(name) kept")
            }
            #expect(reopened.samples(of: .heartRate, matching: nil).count == 5)
        }
    }
}
