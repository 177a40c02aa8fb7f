import FlowKit
import Foundation
import HealthFlow
import Testing

@testable import HealthSync

/// One sync run at a time per state file: a second run, from the same engine or another one, fails at once with
/// a typed error and leaves the first run's batches, files and state alone.
struct SyncRunLockTests {
    @Test func aSecondRunFromTheSameStateFailsAtOnceAndTheRunningOneFinishesUntouched() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(4))
        let held = HeldUploadTransport(inner: bench.outbox)
        let running = try bench.engine(transport: held, batchSize: 2)
        let other = try bench.engine(batchSize: 2)
        let lock = SyncRunLock.path(forStateFile: bench.anchors.path).description

        let first = Task { try await running.sync() }
        try await held.firstUploadStarted.value
        await #expect(throws: SyncEngineError.alreadyRunning(lock: lock)) { try await other.sync() }
        await #expect(throws: SyncEngineError.alreadyRunning(lock: lock)) { try await running.sync() }
        #expect(try bench.deliveredBatches().isEmpty, "the refused runs sent nothing")
        held.release()

        let report = try await first.value
        #expect(report.batches == 2 && report.totalSamples == 4)
        #expect(try bench.deliveredBatches().count == 2)
        #expect(try bench.anchors.load().pending == nil)
        let again = try await other.sync()
        #expect(again.batches == 0, "the lock is released when the run ends")
    }

    @Test func theLockIsReleasedWhenARunFails() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(2))
        let failing = try bench.engine(transport: RefusingUploadTransport(), batchSize: 2)
        await #expect(throws: RefusingUploadTransport.Refused.self) { try await failing.sync() }
        let report = try await bench.engine(batchSize: 2).sync()
        #expect(report.totalSamples == 2)
    }
}

/// Holds the first upload until ``release()``, then passes every upload to `inner`.
final class HeldUploadTransport: UploadTransport {
    let inner: any UploadTransport
    /// Fulfilled when the first upload arrives.
    let firstUploadStarted: Promise<Void>
    private let started: Resolver<Void>
    private let (released, releaser) = Promise<Void>.pending()

    init(inner: any UploadTransport) {
        self.inner = inner
        (firstUploadStarted, started) = Promise<Void>.pending()
    }

    func release() {
        releaser.fulfill()
    }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        started.fulfill()
        return released.then { [inner] in inner.upload(request) }
    }
}

/// Refuses every upload.
struct RefusingUploadTransport: UploadTransport {
    struct Refused: Error {}

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        Promise(error: Refused())
    }
}
