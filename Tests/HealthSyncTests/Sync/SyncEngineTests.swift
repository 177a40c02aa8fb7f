import FlowKit
import Foundation
import HealthFlow
import Testing

@testable import HealthSync

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
        let engine = try bench.engine()
        let promise: Promise<SyncReport> = firstly { engine.sync() }
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

    @Test func aBatchPreparedBeforeACrashIsResentByteForByteWithTheSameIDAndCountedOnce() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(6)
        try bench.store.ingest(hearts)

        // The "crash": the pending batch is recorded, then the upload never arrives.
        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let crashedID = try #require(rejecting.attempts.first?.batchID)
        let crashedBody = try #require(rejecting.attempts.first?.body)
        let crashed = try bench.anchors.load()
        let pending = try #require(crashed.pending)
        #expect(crashed.pendingBatchID == crashedID)
        #expect(pending.batchID == crashedID)
        #expect(pending.bodyLength == Int64(crashedBody.count))
        #expect(crashed.anchors.isEmpty)
        let pendingURL = bench.folder.url.appendingPathComponent(pending.bodyFileName)
        #expect(try Data(contentsOf: pendingURL).prefix(crashedBody.count) == crashedBody)
        #expect(try bench.folder.permissions(of: pendingURL) == 0o600)

        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [crashedID])
        #expect(report.duplicates == 0)
        #expect(report.samples == ["heartRate": 6])
        #expect(try bench.outbox.storedBatchIDs() == [crashedID])
        let stored = bench.outbox.directory.appendingPathComponent(crashedID.uuidString + ".multipart")
        #expect(try Data(contentsOf: stored) == crashedBody)
        #expect(try bench.deliveredBatches()[crashedID]?.sampleUUIDs == hearts.map(\.uuid))
        let after = try bench.anchors.load()
        #expect(after.pendingBatchID == nil)
        #expect(after.pending == nil)
        #expect(after.anchors == pending.endAnchors)
        #expect(!FileManager.default.fileExists(atPath: pendingURL.path))
        #expect(try await bench.engine().sync().isEmpty)
        #expect(try bench.outbox.storedBatchIDs() == [crashedID])
    }

    @Test func aResentBatchTheReceiverAlreadyHadAdvancesTheAnchorsAndIsNotSentAgain() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(2)
        try bench.store.ingest(hearts)
        // The receiver stored the batch, then the acknowledgement was lost (or the process died before the commit).
        await #expect(throws: SyncEngineLostAckTransport.LostAck.self) {
            try await bench.engine(transport: SyncEngineLostAckTransport(inner: bench.outbox)).sync()
        }
        let pending = try #require(try bench.anchors.load().pending)
        #expect(try bench.outbox.storedBatchIDs() == [pending.batchID])

        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [pending.batchID])
        #expect(report.duplicates == 1)
        #expect(report.samples == ["heartRate": 2])
        let after = try bench.anchors.load()
        #expect(after.pending == nil)
        #expect(after.pendingBatchID == nil)
        #expect(after.anchors == pending.endAnchors)
        #expect(try bench.outbox.storedBatchIDs() == [pending.batchID])
        #expect(try bench.deliveredUUIDs().samples == hearts.map(\.uuid))
        #expect(try await bench.engine().sync().isEmpty)
        #expect(try bench.outbox.storedBatchIDs() == [pending.batchID])
    }

    @Test func aSaveBetweenTheCrashAndTheRerunGoesOutOnceInALaterBatch() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(3)
        try bench.store.ingest(hearts)
        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let crashedID = try #require(rejecting.attempts.first?.batchID)

        let late = try SyncEngineBench.heartRates(1, first: 500)[0]
        try await bench.store.save(late)
        let report = try await bench.engine().sync()
        #expect(report.batchIDs.count == 2)
        #expect(report.batchIDs.first == crashedID)
        #expect(report.samples == ["heartRate": 4])
        let batches = try bench.deliveredBatches()
        #expect(batches[crashedID]?.sampleUUIDs == hearts.map(\.uuid))
        let laterID = try #require(report.batchIDs.last)
        #expect(batches[laterID]?.sampleUUIDs == [late.uuid])
        let delivered = try bench.deliveredUUIDs().samples
        #expect(delivered.count == 4)
        #expect(Set(delivered) == Set((hearts + [late]).map(\.uuid)))
        #expect(try await bench.engine().sync().isEmpty)
        #expect(try bench.outbox.storedBatchIDs().count == 2)
    }

    /// The state file records the pending batch (as an older version, or a state folder apart from the state
    /// file, leaves it): a body file cut short or gone is reported, never skipped.
    @Test func aMissingOrCorruptPendingBodyIsReportedNotSkipped() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(3))
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: SyncEngineRejectingTransport()).sync()
        }
        try bench.anchors.save(try bench.anchors.load())
        let crashed = try bench.anchors.load()
        let pending = try #require(crashed.pending)
        let url = bench.folder.url.appendingPathComponent(pending.bodyFileName)

        try Data("short".utf8).write(to: url)
        await #expect {
            try await bench.engine().sync()
        } throws: { error in
            guard case .pendingBatchCorrupt(let path, _) = error as? SyncEngineError else { return false }
            return path == url.path
        }
        try FileManager.default.removeItem(at: url)
        await #expect(throws: SyncEngineError.pendingBatchMissing(path: url.path)) {
            try await bench.engine().sync()
        }
        #expect(try bench.anchors.load() == crashed)
        #expect(try bench.outbox.storedBatchIDs().isEmpty)
    }

    /// The pending batch file is the newest state: damaged, it is reported as a corrupt state (its path named)
    /// and left as it is, and nothing is sent.
    @Test func aDamagedPendingBatchFileIsReportedAsACorruptState() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(3))
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: SyncEngineRejectingTransport()).sync()
        }
        let pending = try #require(try bench.anchors.load().pending)
        let url = bench.folder.url.appendingPathComponent(pending.bodyFileName)
        var file = try Data(contentsOf: url)
        file[file.count - 70] ^= 0x01  // inside the record, before the footer line
        try file.write(to: url)

        for attempt in 0..<2 {
            #expect {
                if attempt == 0 { _ = try bench.anchors.load() } else { _ = try SyncRun(engine: bench.engine()) }
            } throws: { error in
                guard case .corrupt(let path, let reason) = error as? SyncStateError else { return false }
                return path == url.path && reason.contains("CRC-32")
            }
        }
        await #expect(throws: SyncStateError.self) { try await bench.engine().sync() }
        #expect(try Data(contentsOf: url) == file)
        #expect(try bench.outbox.storedBatchIDs().isEmpty)
    }

    /// Deleting the newest pending batch file takes the state back to the one before it: what that file had
    /// recorded is sent again (under new IDs), never skipped.
    @Test func aDeletedPendingBatchFileSendsItsChangesAgainRatherThanSkippingThem() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(5)
        try bench.store.ingest(hearts)
        let flaky = AcceptingThenFailingTransport(inner: bench.outbox, accepted: 1)
        await #expect(throws: AcceptingThenFailingTransport.Refused.self) {
            try await bench.engine(transport: flaky, batchSize: 3).sync()
        }
        let second = try #require(try bench.anchors.load().pending)
        #expect(!(try bench.anchors.load().anchors.isEmpty), "the first batch's commit is in the second's file")
        try FileManager.default.removeItem(at: bench.folder.url.appendingPathComponent(second.bodyFileName))
        #expect(try bench.anchors.load() == SyncState())

        let report = try await bench.engine(batchSize: 3).sync()
        #expect(report.totalSamples == 5)
        #expect(Set(try bench.deliveredUUIDs().samples) == Set(hearts.map(\.uuid)))
    }

    @Test func anOlderStateWithOnlyAPendingIDIsRebuiltAndNeverLost() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(2)
        try bench.store.ingest(hearts)
        // A state file from before pending bodies were kept: only the ID, and the receiver holds some copy.
        let pending = UUID()
        try Data(#"{"anchors":{},"formatVersion":1,"pendingBatchID":"\#(pending.uuidString)"}"#.utf8)
            .write(to: bench.stateURL)
        let engine = try bench.engine()
        _ = try await bench.outbox.upload(
            UploadRequest(
                batchID: pending, contentType: "x", contentLength: 0, fileExtension: "multipart", body: .data(Data())))

        let report = try await engine.sync()
        #expect(report.duplicates == 1)
        #expect(report.batchIDs.count == 2)
        #expect(report.batchIDs.first == pending)
        #expect(report.samples == ["heartRate": 2])
        let resent = try #require(report.batchIDs.last)
        #expect(try bench.deliveredBatch(resent).sampleUUIDs == hearts.map(\.uuid))
        #expect(try bench.anchors.load().pendingBatchID == nil)
        #expect(try await bench.engine().sync().isEmpty)
    }
}
