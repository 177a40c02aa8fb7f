import FlowKit
import Foundation
import HealthFlow
import Synchronization
import Testing

@testable import HealthExport

/// A store that runs `onIngest` after each batch it ingests (here: to cancel the import mid-way).
final class IngestWatchingStore: HealthSampleIngesting {
    let inner: InMemoryHealthStore
    let onIngest: Mutex<(@Sendable () -> Void)?> = Mutex(nil)

    init(_ inner: InMemoryHealthStore) {
        self.inner = inner
    }

    func ingest(_ samples: [HealthSample]) throws {
        try inner.ingest(samples)
        onIngest.withLock { $0 }?()
    }

    var isHealthDataAvailable: Bool { inner.isHealthDataAvailable }
    func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { inner.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus { inner.authorizationStatus(for: type) }
    func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) { inner.getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    func save(_ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        inner.save(sample, withCompletion: completion)
    }
    func save(_ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        inner.save(samples, withCompletion: completion)
    }
    func delete(_ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        inner.delete(sample, withCompletion: completion)
    }
    func delete(_ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)
    { inner.delete(samples, withCompletion: completion) }
    func execute(_ query: HealthQuery) { inner.execute(query) }
    func stop(_ query: HealthQuery) { inner.stop(query) }
    func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents { try inner.dateOfBirthComponents() }
    func biologicalSex() throws(HealthStoreError) -> BiologicalSex { try inner.biologicalSex() }
    func bloodType() throws(HealthStoreError) -> BloodType { try inner.bloodType() }
    func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType { try inner.fitzpatrickSkinType() }
    func wheelchairUse() throws(HealthStoreError) -> WheelchairUse { try inner.wheelchairUse() }
    func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode { try inner.activityMoveMode() }
}

@Suite(.timeLimit(.minutes(1)))
struct HealthExportFacesTests {
    let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.importer", name: "Importer", healthShareUsageDescription: "Reads.",
        healthUpdateUsageDescription: "Writes.")

    func tenWalks() throws -> String {
        let records = (0..<10).map { index in
            ExportFixtures.record(
                "StepCount", value: "\(100 + index)", start: "2024-03-01 1\(index):00:00 +0100",
                end: "2024-03-01 1\(index):05:00 +0100")
        }
        return try ExportFixtures.write(
            ExportFixtures.export(records.joined()), in: try ExportFixtures.temporaryDirectory())
    }

    @Test func cancellingKeepsWholeBatchesAndARerunFinishesTheImport() async throws {
        let path = try tenWalks()
        let store = IngestWatchingStore(InMemoryHealthStore(configuration: app))
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

    @Test func callbackPromiseAndAsyncFacesReportTheSameAndEventsEndWithTheReport() async throws {
        let path = try tenWalks()
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
        let path = try tenWalks()
        let job = HealthExportImport(path: path)
        _ = try await job.run(into: InMemoryHealthStore(configuration: app))
        await #expect(throws: HealthExportError.self) {
            try await job.run(into: InMemoryHealthStore(configuration: app))
        }
    }
}
