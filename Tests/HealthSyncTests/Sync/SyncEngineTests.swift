import FlowKit
import Foundation
import HealthFlow
import HealthSync
import Testing

struct SyncEngineTests {
    @Test func firstRunSendsEverythingAndSecondRunSendsNothing() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(5)
        let steps = try SyncEngineBench.steps(3, first: 100)
        try bench.store.ingest(hearts + steps)

        let first = try await bench.engine().sync()
        #expect(first.batches == 1)
        #expect(first.samples == ["heartRate": 5, "stepCount": 3])
        #expect(first.totalDeletions == 0)
        #expect(first.bytes > 0)
        let delivered = try bench.deliveredUUIDs()
        #expect(Set(delivered.samples) == Set((hearts + steps).map(\.uuid)))
        #expect(delivered.samples.count == 8)
        #expect(try bench.anchors.load().pendingBatchID == nil)

        let second = try await bench.engine().sync()
        #expect(second.isEmpty)
        #expect(second == SyncReport())
        #expect(try bench.outbox.storedBatchIDs().count == 1)
    }

    @Test func promiseTwinRunsTheSameSync() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(2))
        let promise: Promise<SyncReport> = try bench.engine().sync()
        let report = try await promise.value
        #expect(report.samples["heartRate"] == 2)
    }

    @Test func aSaveAfterTheFirstRunIsSentByTheNextRunOnly() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(4))
        _ = try await bench.engine().sync()
        let before = Set(try bench.outbox.storedBatchIDs())

        let late = try SyncEngineBench.heartRates(1, first: 500)[0]
        try await bench.store.save(late)
        let report = try await bench.engine().sync()
        #expect(report.batches == 1)
        #expect(report.samples == ["heartRate": 1])
        let newID = try #require(report.batchIDs.first)
        #expect(!before.contains(newID))
        #expect(try bench.deliveredBatches()[newID]?.sampleUUIDs == [late.uuid])
        #expect(try await bench.engine().sync().isEmpty)
    }

    @Test func deletionsAreSentAsTombstones() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(3)
        try await bench.store.save(hearts)
        _ = try await bench.engine().sync()

        try await bench.store.delete(hearts[1])
        let report = try await bench.engine().sync()
        #expect(report.deletions == ["heartRate": 1])
        #expect(report.totalSamples == 0)
        let id = try #require(report.batchIDs.first)
        let batch = try #require(try bench.deliveredBatches()[id])
        #expect(batch.deletedUUIDs == [hearts[1].uuid])
        #expect(batch.sampleUUIDs.isEmpty)
    }

    @Test func aFailingTransportLeavesTheAnchorsUnchanged() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(3))
        _ = try await bench.engine().sync()
        let committed = try bench.anchors.load()
        try bench.store.ingest(try SyncEngineBench.heartRates(2, first: 50))

        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let after = try bench.anchors.load()
        #expect(after.anchors == committed.anchors)
        #expect(after.pendingBatchID == rejecting.attempts.first?.batchID)
    }

    @Test func aBatchPreparedBeforeACrashIsResentWithTheSameIDAndCountedOnce() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(6)
        try bench.store.ingest(hearts)

        // The "crash": the pending batch ID is recorded, then the upload never arrives.
        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let crashedID = try #require(rejecting.attempts.first?.batchID)
        #expect(try bench.anchors.load().pendingBatchID == crashedID)

        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [crashedID])
        #expect(report.duplicates == 0)
        #expect(try bench.outbox.storedBatchIDs() == [crashedID])
        #expect(try bench.deliveredBatches()[crashedID]?.sampleUUIDs == hearts.map(\.uuid))
        #expect(try bench.anchors.load().pendingBatchID == nil)
        #expect(try await bench.engine().sync().isEmpty)
        #expect(try bench.outbox.storedBatchIDs() == [crashedID])
    }

    @Test func aResentBatchTheReceiverAlreadyHadIsSentAgainUnderANewID() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(2)
        try bench.store.ingest(hearts)
        // The receiver stored the batch, then the process died before committing the anchors.
        let pending = UUID()
        try bench.anchors.save(SyncState(pendingBatchID: pending))
        let engine = try bench.engine()
        _ = try await bench.outbox.upload(
            UploadRequest(batchID: pending, contentType: "x", contentLength: 0, fileExtension: "multipart", body: .data(Data())))

        let report = try await engine.sync()
        #expect(report.duplicates == 1)
        #expect(report.batchIDs.count == 2)
        #expect(report.batchIDs.first == pending)
        #expect(report.samples == ["heartRate": 2])
        let resent = try #require(report.batchIDs.last)
        #expect(try bench.deliveredBatch(resent).sampleUUIDs == hearts.map(\.uuid))
    }
}
