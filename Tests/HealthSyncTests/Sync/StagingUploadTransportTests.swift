import FlowKit
import Foundation
import HealthFlow
import Testing

@_spi(Testing) @testable import HealthSync

/// The engine and a transport of its own that adopts ``StagingUploadTransport``: bodies staged ahead, delivered only
/// once their batch is pending, discarded otherwise.
struct StagingUploadTransportTests {
    /// Nine changes in batches of 3, then an empty gathering: batch 1 is not prepared ahead and is uploaded; batches 2
    /// and 3 are staged while the batch before them is in flight (the staging may end before or after they are
    /// pending, their `persisted` checkpoint) and delivered from the staged bytes only after both, each with its own
    /// body; nothing is discarded.
    @Test func aTransportOfItsOwnGetsEachBatchPreparedAheadStagedAndDeliveredOnlyOnceItIsPending() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(9))
        let events = PendingBatchFileTests.Trace()
        let transport = StagingTestTransport(outbox: bench.outbox, plain: bench.outbox, events: events)
        let engine = try bench.engine(transport: transport, batchSize: 3).reportingCheckpoints { checkpoint in
            if checkpoint.name == "persisted" { events.note("persisted \(checkpoint.batchID)") }
        }

        let report = try await engine.sync()

        #expect(report.batches == 3 && report.totalSamples == 9)
        let ids = report.batchIDs
        let all = events.all
        #expect(all.filter { $0.hasPrefix("uploaded") } == ["uploaded \(ids[0])"], "\(all)")
        #expect(all.filter { $0.hasPrefix("delivered") } == ["delivered \(ids[1])", "delivered \(ids[2])"], "\(all)")
        #expect(!all.contains { $0.hasPrefix("discarded") }, "\(all)")
        for id in ids[1...] {
            let staged = try #require(all.firstIndex(of: "staged \(id)"), "\(all)")
            let persisted = try #require(all.firstIndex(of: "persisted \(id)"), "\(all)")
            let delivered = try #require(all.firstIndex(of: "delivered \(id)"), "\(all)")
            #expect(staged < delivered && persisted < delivered, "\(all)")
        }
        for (index, id) in ids.enumerated() {
            let expected = (1...3).map { SyncFixtures.uuid(index * 3 + $0) }
            #expect(try bench.deliveredBatch(id).sampleUUIDs == expected)
        }
    }

    /// A staging that ends only after its batch is pending (held until the batch's `persisted` checkpoint) is
    /// waited for by the send: each batch prepared ahead is still delivered from its staged bytes, never uploaded a
    /// second way, and the outbox holds every batch once.
    @Test func aBodyStagedOnlyAfterItsBatchIsPendingIsStillDeliveredFromTheStagedBytes() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(9))
        let events = PendingBatchFileTests.Trace()
        let persisted = LockedState<Set<UUID>>([])
        let released = DispatchSemaphore(value: 0)
        let transport = StagingTestTransport(outbox: bench.outbox, plain: bench.outbox, events: events) { id in
            // Bounded: a run that never makes the batch pending fails the test below instead of hanging it.
            let deadline = DispatchTime.now() + .seconds(120)
            while !persisted.withLock({ $0.contains(id) }) {
                if released.wait(timeout: deadline) == .timedOut {
                    events.note("held past the deadline \(id)")
                    return
                }
            }
        }
        let engine = try bench.engine(transport: transport, batchSize: 3).reportingCheckpoints { checkpoint in
            guard checkpoint.name == "persisted" else { return }
            let id = checkpoint.batchID
            events.note("persisted \(id)")
            persisted.withLock { _ = $0.insert(id) }
            released.signal()
        }

        let report = try await engine.sync()

        #expect(report.batches == 3 && report.totalSamples == 9)
        let ids = report.batchIDs
        let all = events.all
        #expect(!all.contains { $0.hasPrefix("held past") }, "\(all)")
        #expect(all.filter { $0.hasPrefix("uploaded") } == ["uploaded \(ids[0])"], "\(all)")
        #expect(all.filter { $0.hasPrefix("delivered") } == ["delivered \(ids[1])", "delivered \(ids[2])"], "\(all)")
        for id in ids[1...] {
            let persisted = try #require(all.firstIndex(of: "persisted \(id)"), "\(all)")
            let staged = try #require(all.firstIndex(of: "staged \(id)"), "\(all)")
            let delivered = try #require(all.firstIndex(of: "delivered \(id)"), "\(all)")
            #expect(persisted < staged && staged < delivered, "\(all)")
        }
        #expect(try bench.outbox.storedBatchIDs() == ids.sorted { $0.uuidString < $1.uuidString })
    }

    /// Batch 1's upload fails once batch 2 is prepared ahead: the body staged for batch 2 is discarded, never
    /// delivered, and the outbox holds nothing.
    @Test func aBodyStagedAheadIsDiscardedNotDeliveredWhenTheBatchBeforeItFails() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(6))
        let (first, second) = (SyncFixtures.uuid(1), SyncFixtures.uuid(2))
        let gate = FailingAfterAheadTransport(
            inner: bench.outbox, failing: first, ahead: second, tempFolder: bench.tempURL)
        let events = PendingBatchFileTests.Trace()
        let transport = StagingTestTransport(outbox: bench.outbox, plain: gate, events: events)
        let engine = try SyncPipelineTests.engine(
            bench, transport: transport, batchSize: 3, trace: PendingBatchFileTests.Trace(),
            ahead: PendingBatchFileTests.Trace(), onAhead: gate.built)

        await #expect(throws: FailingAfterAheadTransport.Failed.self) { try await engine.sync() }

        let all = events.all
        #expect(all.sorted() == ["discarded \(second)", "staged \(second)", "uploaded \(first)"], "\(all)")
        let staged = try #require(all.firstIndex(of: "staged \(second)"), "\(all)")
        let discarded = try #require(all.firstIndex(of: "discarded \(second)"), "\(all)")
        #expect(staged < discarded, "\(all)")
        #expect(try bench.outbox.storedBatchIDs().isEmpty)
        #expect(try bench.anchors.load().pending?.batchID == first)
    }

    /// A staged body is delivered only for the pending record of its very bytes: another batch ID, length or
    /// CRC-32 is not its record.
    @Test func aStagedBodyHoldsOnlyTheRecordWithItsBatchIDLengthAndChecksum() throws {
        let bench = try SyncTempFolder()
        defer { bench.remove() }
        let outbox = try OutboxTransport(directory: bench.url)
        let body = Data("a batch body".utf8)
        var checksum = PendingBodyChecksum()
        body.withUnsafeBytes { checksum.update($0) }
        let request = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "multipart/form-data", contentLength: Int64(body.count),
            fileExtension: "multipart", body: .data(body))
        let staged = try #require(
            try StagedTransportBody.stage(
                PreparedSyncBatch(request: request, tempFile: nil), in: outbox))
        defer { staged.discard() }
        func record(id: UUID = SyncFixtures.batchID, length: Int64? = nil, crc: UInt32?) -> PendingBatch {
            var record = PendingBatch(
                batchID: id, bodyFileName: "pending", bodyLength: length ?? Int64(body.count),
                contentType: request.contentType, endAnchors: [:])
            record.bodyCRC32 = crc
            return record
        }
        #expect(staged.holds(record(crc: checksum.value)))
        #expect(!staged.holds(record(crc: checksum.value ^ 1)))
        #expect(!staged.holds(record(crc: nil)))
        #expect(!staged.holds(record(length: Int64(body.count) + 1, crc: checksum.value)))
        #expect(!staged.holds(record(id: SyncFixtures.uuid(9), crc: checksum.value)))
        let plain = SyncEngineRejectingTransport()
        #expect(try StagedTransportBody.stage(PreparedSyncBatch(request: request, tempFile: nil), in: plain) == nil)
    }
}

/// A transport of the tests' own that stages bodies in memory and delivers them into `outbox`; a plain upload goes
/// to `plain`. Each call is noted in `events`: `staged`, `delivered`, `discarded`, `uploaded` and the batch ID.
final class StagingTestTransport: StagingUploadTransport {
    struct Staged: Sendable {
        let batchID: UUID
        let body: Data
    }

    let outbox: OutboxTransport
    let plain: any UploadTransport
    let events: PendingBatchFileTests.Trace
    /// Called with the batch ID on the staging thread before each body is staged.
    let beforeStaging: (@Sendable (UUID) -> Void)?

    init(
        outbox: OutboxTransport, plain: any UploadTransport, events: PendingBatchFileTests.Trace,
        beforeStaging: (@Sendable (UUID) -> Void)? = nil
    ) {
        self.outbox = outbox
        self.plain = plain
        self.events = events
        self.beforeStaging = beforeStaging
    }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        events.note("uploaded \(request.batchID)")
        return plain.upload(request)
    }

    func stageBody(_ request: UploadRequest) throws -> Staged {
        beforeStaging?(request.batchID)
        events.note("staged \(request.batchID)")
        return Staged(batchID: request.batchID, body: try request.body.makeData())
    }

    func deliver(_ staged: Staged, as request: UploadRequest, reporter: UploadReporter) throws -> UploadReceipt {
        events.note("delivered \(request.batchID)")
        let bytes = UploadRequest(
            batchID: request.batchID, contentType: request.contentType, contentLength: request.contentLength,
            fileExtension: request.fileExtension, body: .data(staged.body))
        return try outbox.deliver(try outbox.stageBody(bytes), as: bytes, reporter: reporter)
    }

    func discard(_ staged: Staged) {
        events.note("discarded \(staged.batchID)")
    }
}
