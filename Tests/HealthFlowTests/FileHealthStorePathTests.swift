import Foundation
import HealthFlow
import RawPathSupport
import Testing

/// A durable store opened at a path that is not UTF-8 lives in exactly that folder — never in one whose name has
/// U+FFFD in place of the bytes — and reopens there with its data.
struct FileHealthStorePathTests {
    @Test func aStoreInAFolderNamedWithByteFFLandsThereAndReopens() async throws {
        let parent = RawPaths.temporaryFolder("store-ff")
        defer { try? FileSystemPath(bytes: parent).removeTree() }
        let name = RawPaths.withFF("store-")
        try await Self.saveAndReopen(at: try FileSystemPath(bytes: RawPaths.join(parent, name)))
        #expect(RawPaths.names(in: parent) == [name])
        #expect(!RawPaths.holdsReplacement(parent))
    }

    @Test func aStoreBelowAFolderWithABrokenSequenceLandsThereAndReopens() async throws {
        let parent = RawPaths.temporaryFolder("store-middle")
        defer { try? FileSystemPath(bytes: parent).removeTree() }
        let middle = RawPaths.withBrokenSequence("mid-", "-dle")
        #expect(RawPaths.makeFolder(RawPaths.join(parent, middle)))
        try await Self.saveAndReopen(
            at: try FileSystemPath(bytes: RawPaths.join(RawPaths.join(parent, middle), Array("store".utf8))))
        #expect(RawPaths.names(in: parent) == [middle])
        #expect(RawPaths.names(in: RawPaths.join(parent, middle)) == [Array("store".utf8)])
        #expect(!RawPaths.holdsReplacement(parent))
    }

    /// Opens a store at `path`, saves three samples, snapshots and saves one more (so both a snapshot and a
    /// journal are read back), then checks the files are in `path` and a reopened store has the four samples.
    private static func saveAndReopen(at path: FileSystemPath) async throws {
        let samples = try (0..<4).map { try StoreFixture.sample(.stepCount, Double(100 + $0)) }
        let store = try FileHealthStore(directoryPath: path, configuration: StoreFixture.app)
        #expect(store.directoryPath == path)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        try await store.save(Array(samples[0..<3]))
        try store.snapshot()
        try await store.save(samples[3])
        store.close()

        let files = Set(RawPaths.names(in: path.bytes).map { String(decoding: $0, as: UTF8.self) })
        #expect(files.contains("LOCK") && files.contains { $0.hasPrefix("snapshot-") })
        #expect(files.contains { $0.hasPrefix("journal-") })
        let assessment = try FileHealthStore.assessDamage(directoryPath: path, configuration: StoreFixture.app)
        #expect(assessment.repairs.isEmpty && assessment.keptObjects == 4)

        let reopened = try FileHealthStore(directoryPath: path, configuration: StoreFixture.app)
        defer { reopened.close() }
        #expect(reopened.recovery.snapshotGeneration == 1)
        let found = try await reopened.samples(of: .stepCount)
        #expect(Set(found.map(\.uuid)) == Set(samples.map(\.uuid)))
    }
}
