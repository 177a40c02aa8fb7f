import Foundation
import HealthFlow
import Testing

extension DocExamples {
    /// The examples of the doc comments of `FileHealthStore`, `FileStoreRecovery` and `FileStoreRecoveryMode`.
    ///
    /// Each test makes its own folder under the temporary directory and removes it.
    @Suite struct FileHealthStoreComments {
        let app = HealthAppConfiguration(
            bundleIdentifier: "com.example.steps", name: "Steps",
            healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")

        func walk(_ count: Double) throws -> HealthQuantitySample {
            try HealthQuantitySample(
                type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: count), date: Date(),
                source: app.source)
        }

        /// Runs `body` with the path of a store directory not yet made, in a folder removed afterwards.
        func withScratchFolder(_ body: (URL) async throws -> Void) async throws {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("healthflow-doc-examples-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try await body(folder.appendingPathComponent("health", isDirectory: true))
        }

        /// The store's one journal: its name and its size in bytes.
        func journal(in directory: URL) throws -> (name: String, size: Int) {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".hfj") }
            try #require(names.count == 1)
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(names[0]).path)
            return (names[0], try #require(attributes[.size] as? Int))
        }

        /// Saves `walks`, one change each, in a new store in `directory` and closes it. Returns the store's
        /// journal, its sizes after the authorization and after each save, and a handle for changing its bytes.
        func journalOfSaves(
            _ walks: [HealthQuantitySample], in directory: URL
        ) async throws -> (name: String, sizes: [Int], handle: FileHandle) {
            let writer = try FileHealthStore(directory: directory, configuration: app)
            try await writer.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
            var sizes = [try journal(in: directory).size]
            for walk in walks {
                try await writer.save(.quantity(walk))
                sizes.append(try journal(in: directory).size)
            }
            writer.close()
            let name = try journal(in: directory).name
            return (name, sizes, try FileHandle(forUpdating: directory.appendingPathComponent(name)))
        }

        @Test func anAcknowledgedSaveIsThereAfterReopening() async throws {
            let walk = try walk(1_200)
            try await withScratchFolder { directory in
                let store = try FileHealthStore(directory: directory, configuration: app)
                try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
                try await store.save(.quantity(walk))  // returns once the record is on disk
                store.close()

                let reopened = try FileHealthStore(directory: directory, configuration: app)
                let walks = try await reopened.samples(of: .stepCount)  // the walk, with the same anchors
                #expect(walks.map(\.uuid) == [walk.uuid])
                #expect(reopened.lastChangeSequence == store.lastChangeSequence)
                #expect(reopened.recovery.tornTail == nil)
                reopened.close()
            }
        }

        @Test func openingDropsAndReportsAWriteCutShort() async throws {
            Printed.reset()
            let (first, second) = (try walk(1_200), try walk(800))
            try await withScratchFolder { directory in
                let (name, sizes, handle) = try await journalOfSaves([first, second], in: directory)
                let (kept, written) = (sizes[1], sizes[2])
                // A crash while the second record was being written: its last 3 bytes never reached the disk.
                try handle.truncate(atOffset: UInt64(written - 3))
                try handle.close()

                let store = try FileHealthStore(directory: directory, configuration: app)
                if let torn = store.recovery.tornTail {
                    print("dropped \(torn.length) bytes of an unfinished write at \(torn.file):\(torn.offset)")
                }
                #expect(
                    await Printed.lines(count: 1) == [
                        "dropped \(written - 3 - kept) bytes of an unfinished write at \(name):\(kept)"
                    ])
                #expect(try await store.samples(of: .stepCount).map(\.uuid) == [first.uuid])
                #expect(try journal(in: directory).size == kept)
                store.close()
            }
        }

        @Test func aDamagedStoreIsAssessedThenRepairedWithEveryLossReported() async throws {
            Printed.reset()
            let (first, second) = (try walk(1_200), try walk(800))
            try await withScratchFolder { directory in
                let (name, sizes, handle) = try await journalOfSaves([first, second], in: directory)
                let (before, after) = (sizes[0], sizes[1])
                // Flip the last byte of the first save's record: damage before the journal's last record.
                try handle.seek(toOffset: UInt64(after - 1))
                let byte = try #require(try handle.read(upToCount: 1)?.first)
                try handle.seek(toOffset: UInt64(after - 1))
                try handle.write(contentsOf: [~byte])
                try handle.close()

                let store: FileHealthStore
                do {
                    store = try FileHealthStore(directory: directory, configuration: app)
                } catch FileStoreError.corruptFile {
                    let assessment = try FileHealthStore.assessDamage(directory: directory, configuration: app)
                    print("a repair keeps \(assessment.keptObjects), loses at least \(assessment.samplesLost) samples")
                    store = try FileHealthStore(
                        directory: directory, configuration: app, options: FileStoreOptions(recovery: .repair))
                    for repair in store.recovery.repairs { print(repair) }  // exactly what was skipped
                }
                let repair = try #require(store.recovery.repairs.first)
                #expect(store.recovery.repairs.count == 1)
                #expect(repair.file == name)
                #expect(repair.offset == before)
                #expect(repair.skippedBytes == after - before)
                #expect(repair.problem == .payloadChecksumMismatch)
                #expect(
                    await Printed.lines(count: 2) == [
                        "a repair keeps 1, loses at least \(repair.samplesLost) samples", repair.description,
                    ])
                #expect(try await store.samples(of: .stepCount).map(\.uuid) == [second.uuid])
                #expect(store.recovery.movedAside.count == 1)
                store.close()
            }
        }
    }
}
