import FlowKit
import FlowKitTesting
import Foundation
import HealthFlow
import HealthSync
import Testing

/// The sync engine over HTTP faults: after a failed upload the anchors are unchanged and the batch is still
/// pending; the next run re-sends it under the same key and the server stores it once. Observed runs report
/// batch and upload events in order.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SyncEngineHTTPFaultTests {
    private static func engine(
        _ bench: SyncEngineBench, _ server: HTTPTestServer, _ path: String, attempts: Int,
        scheduler: any FlowScheduler
    ) throws -> SyncEngine {
        try bench.engine(
            transport: Uploader(
                transport: HTTPTransport(url: server.url(path), timeout: .seconds(20)),
                policy: UploadRetryPolicy(attempts: attempts, backoff: .constant(.milliseconds(1))),
                scheduler: scheduler))
    }

    @Test(arguments: [
        ("reject-early/413/close", 1), ("drop-after/1000/rst", 2), ("garbage", 1), ("redirect/303/upload", 1),
        ("redirect/302/upload", 1), ("redirect/307/other-origin", 1),
    ])
    func aFailedUploadLeavesAnchorsUnchangedAndTheBatchPendingUntilTheNextRun(
        path: String, requests: Int
    ) async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(1_500))  // a ~20 kB body, past the 1 kB drop
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let before = try bench.anchors.load()

            await #expect(throws: HTTPUploadError.self) {
                try await Self.engine(bench, server, path, attempts: 2, scheduler: DispatchScheduler()).sync()
            }

            let after = try bench.anchors.load()
            #expect(after.anchors == before.anchors)
            let pending = try #require(after.pending)
            #expect(try await server.stats(key: pending.batchID.uuidString).requests == requests)

            let report = try await Self.engine(bench, server, "upload", attempts: 1, scheduler: DispatchScheduler())
                .sync()

            #expect(report.batchIDs.first == pending.batchID)  // the same batch, under the same key
            #expect(report.totalSamples == 1_500)
            let stats = try await server.stats(key: pending.batchID.uuidString)
            #expect(stats.requests == requests + 1)
            #expect(stats.bytes == Int(pending.bodyLength))
            #expect(stats.received == report.batches)  // each batch stored once
            let final = try bench.anchors.load()
            #expect(final.pending == nil)
            #expect(final.anchors != before.anchors)
        }
    }

    @Test func anObservedRunReportsBatchesRetriesAndCommits() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let run = try Self.engine(bench, server, "retry-after/503/1/2", attempts: 3, scheduler: scheduler)
                .observedSync()

            var summaries: [String] = []
            for await event in run.events {
                switch event {
                case .batchStarted(let number, _, let samples, _):
                    summaries.append("batch \(number) started \(samples)")
                case .upload(let upload):
                    let summary = uploadEventSummary(upload)
                    summaries.append(String(summary.prefix { $0 != " " }))
                    if case .retryScheduled(_, let delay, _) = upload {
                        #expect(delay == .seconds(2))
                        await scheduler.waitForPendingWork()
                        scheduler.advance(by: delay)
                    }
                case .batchCommitted(let number, _, let samples, let disposition):
                    summaries.append("batch \(number) committed \(samples) \(disposition.rawValue)")
                case .finished(let report): summaries.append("finished \(report.batches)")
                case .failed(let error): summaries.append("failed \(error)")
                }
            }

            let report = try await run.value
            #expect(
                summaries == [
                    "batch 1 started 5", "start", "retry", "start", "sent", "batch 1 committed 5 stored", "finished 1",
                ])
            #expect(run.progress.completedUnitCount == 5)
            #expect(run.progress.fractionCompleted == 1.0)
            #expect(try bench.anchors.load().pending == nil)
            let stats = try await server.stats(key: try #require(report.batchIDs.first).uuidString)
            #expect(stats.requests == 2)
            #expect(stats.retryAfter == ["2"])
        }
    }

    @Test func cancellingAnObservedRunEndsItsStreamAndKeepsTheBatchPending() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let run = try Self.engine(bench, server, "hang", attempts: 1, scheduler: DispatchScheduler()).observedSync()

            var last: String?
            for await event in run.events {
                if case .upload(.attemptStarted) = event { run.cancel() }
                last = "\(event)"
            }

            await #expect(throws: CancellationError.self) { try await run.value }
            #expect(last == "failed: CancellationError()")
            #expect(try bench.anchors.load().pending != nil)
            #expect(try bench.anchors.load().anchors.isEmpty)
        }
    }
}
