import FlowKit
import Foundation
import HealthExportTestSupport
import HealthFlow
import Testing

@testable import HealthExport

/// Ten minutes, longer than a whole `swift test` here (5–6 min): a hang guard that cannot fire on a test that only
/// waits. Swift Testing counts the time a test waits for the cooperative pool (two threads on a two-core machine),
/// which long synchronous tests running children can hold for minutes.
@Suite(.timeLimit(.minutes(10)))
struct HealthExportFacesTests {
    let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.importer", name: "Importer", healthShareUsageDescription: "Reads.",
        healthUpdateUsageDescription: "Writes.")

    /// Writes an export of ten step records into `directory`; returns its path.
    func tenWalks(in directory: URL) throws -> String {
        let records = (0..<10).map { index in
            ExportFixtures.record(
                "StepCount", value: "\(100 + index)", start: "2024-03-01 1\(index):00:00 +0100",
                end: "2024-03-01 1\(index):05:00 +0100")
        }
        return try ExportFixtures.write(
            ExportFixtures.export(records.joined()), in: directory)
    }

    @Test func cancellingKeepsWholeBatchesAndARerunFinishesTheImport() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try tenWalks(in: directory)
        let store = IngestObservingStore(InMemoryHealthStore(configuration: app))
        let options = HealthExportOptions(batchSize: 3)
        let first = HealthExportImport(path: path, options: options)
        store.onIngest.withLock { $0 = { first.cancel() } }
        await #expect(throws: CancellationError.self) { try await first.run(into: store) }
        #expect(try await store.inner.samples(of: .stepCount).count == 3)

        store.onIngest.withLock { $0 = nil }
        let rerun = try await HealthExportImport(path: path, options: options).run(into: store)
        #expect(rerun.imported == ["stepCount": 7])
        #expect(rerun.alreadyInStore == 3)
        #expect(try await store.inner.samples(of: .stepCount).count == 10)
    }

    /// A batch is written while the next is read; when the store refuses one, the import stops with the store's
    /// error at the next hand-over: the batches before it are written, in the order read, and none after it is
    /// started. A rerun imports the rest.
    @Test func aStoreRefusingABatchStopsTheImportWithTheBatchesBeforeItWrittenAndNoneStartedAfterIt() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try tenWalks(in: directory)
        let store = IngestObservingStore(InMemoryHealthStore(configuration: app), recordsBatches: true)
        store.refusing.withLock { $0 = 3 }
        let options = HealthExportOptions(batchSize: 2)

        await #expect(throws: IngestObservingStore.Refused(call: 3)) {
            try await HealthExportImport(path: path, options: options).run(into: store)
        }

        let calls = store.ingestCalls
        #expect(calls.count == 3, "the batch after the refused one is never handed to the store")
        let values = try calls.map { batch in
            try batch.map { sample in
                guard case .quantity(let steps) = sample else { throw IngestObservingStore.Refused(call: 0) }
                return try steps.quantity.doubleValue(for: .count())
            }
        }
        #expect(values == [[100, 101], [102, 103], [104, 105]], "in the order read")
        #expect(try await store.inner.samples(of: .stepCount).count == 4)

        store.refusing.withLock { $0 = nil }
        let rerun = try await HealthExportImport(path: path, options: options).run(into: store)
        #expect(rerun.imported == ["stepCount": 6] && rerun.alreadyInStore == 4)
    }

    @Test func callbackPromiseAndAsyncFacesReportTheSameAndEventsEndWithTheReport() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try tenWalks(in: directory)
        let viaCallback: HealthExportReport = try await withCheckedThrowingContinuation { continuation in
            HealthExportImport(path: path).start(into: InMemoryHealthStore(configuration: app)) {
                continuation.resume(with: $0)
            }
        }
        let viaPromise = try await HealthExportImport(path: path).start(into: InMemoryHealthStore(configuration: app))
            .value
        let observed = HealthExportImport(path: path)
        let viaAsync = try await observed.run(into: InMemoryHealthStore(configuration: app))
        for report in [viaCallback, viaPromise, viaAsync] { #expect(report.imported == ["stepCount": 10]) }
        var last: HealthExportEvent?
        for await event in observed.events { last = event }
        guard case .finished(let report)? = last else {
            Issue.record("the events end with finished, not \(String(describing: last))")
            return
        }
        #expect(report.importedCount == 10)
        #expect(observed.progress.completedUnitCount == observed.progress.totalUnitCount)
        #expect(observed.progress.totalUnitCount == report.totalBytes)
    }

    @Test func aSecondStartOfTheSameImportFails() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try tenWalks(in: directory)
        let job = HealthExportImport(path: path)
        _ = try await job.run(into: InMemoryHealthStore(configuration: app))
        await #expect(throws: HealthExportError.alreadyStarted(path: path)) {
            try await job.run(into: InMemoryHealthStore(configuration: app))
        }
    }
}
