import FlowKit
import FlowKitTesting
import Foundation
import HealthSync
import Testing

/// Observed uploads: the order of ``UploadEvent``s, the `Progress` and the end of the event stream on every path.
@Suite(.timeLimit(.minutes(10)))
struct UploadProgressTests {
    private static func uploader(_ failures: [any Error], scheduler: ManualScheduler, attempts: Int = 4) -> Uploader {
        let fake = HTTPFakeTransport(failures: failures, clock: { scheduler.now })
        return Uploader(
            transport: fake, policy: UploadRetryPolicy(attempts: attempts, backoff: .constant(.seconds(2))),
            scheduler: scheduler)
    }

    @Test func successReportsStartBytesAndFinishedInOrder() async throws {
        let scheduler = ManualScheduler()
        let request = httpStreamedRequest(Data("twelve bytes".utf8))
        let upload = Self.uploader([], scheduler: scheduler).observedUpload(request)

        let receipt = try await upload.value
        let events = await uploadEventSummaries(upload.events)

        #expect(receipt.disposition == .stored)
        #expect(events == ["start 1 \(request.batchID) 12", "sent 12/12", "finished stored"])
        #expect(upload.progress.completedUnitCount == 12)
        #expect(upload.progress.fractionCompleted == 1.0)
    }

    @Test func retryThenSuccessReportsTheScheduledDelayAndASecondAttempt() async throws {
        let scheduler = ManualScheduler()
        let busy = HTTPUploadError.http(status: 503, retryAfter: .seconds(7), message: "busy")
        let request = httpStreamedRequest(Data("abc".utf8))
        let upload = Self.uploader([busy, HTTPUploadError.connection(code: -1005)], scheduler: scheduler)
            .observedUpload(request)

        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(7))
        scheduler.advance(by: .seconds(7))
        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(9))  // the constant 2 s back-off after the connection loss
        scheduler.advance(by: .seconds(2))
        _ = try await upload.value
        let events = await uploadEventSummaries(upload.events)

        let id = request.batchID
        #expect(
            events == [
                "start 1 \(id) 3",
                "retry after 1 in 7.0 seconds: HTTP 503 Service Unavailable, retry after 7.0 seconds: busy",
                "start 2 \(id) 3", "retry after 2 in 2.0 seconds: connection failed (URLError -1005)",
                "start 3 \(id) 3", "sent 3/3", "finished stored",
            ])
        #expect(upload.progress.fractionCompleted == 1.0)
    }

    @Test func failureEndsTheStreamWithTheTypedError() async throws {
        let scheduler = ManualScheduler()
        let bad = HTTPUploadError.http(status: 413, retryAfter: nil, message: "too large")
        let request = httpStreamedRequest(Data("abc".utf8))
        let upload = Self.uploader([bad], scheduler: scheduler).observedUpload(request)

        await #expect(throws: HTTPUploadError.self) { try await upload.value }
        let events = await uploadEventSummaries(upload.events)

        #expect(events == ["start 1 \(request.batchID) 3", "failed: HTTP 413 Payload Too Large: too large"])
        #expect(upload.progress.completedUnitCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingDuringTheRetryWaitFinishesTheStream() async throws {
        let scheduler = ManualScheduler()
        let upload = Self.uploader([HTTPUploadError.connection(code: -1)], scheduler: scheduler)
            .observedUpload(httpStreamedRequest(Data("abc".utf8)))

        await scheduler.waitForPendingWork()
        upload.cancel()
        let events = await uploadEventSummaries(upload.events)

        await #expect(throws: CancellationError.self) { try await upload.value }
        #expect(events.last == "failed: CancellationError()")
        #expect(events.filter { $0.hasPrefix("start") }.count == 1)
        #expect(scheduler.pendingCount == 0)  // the retry timer was cancelled too
    }

    @Test func cancellingTheProgressCancelsTheUpload() async throws {
        let scheduler = ManualScheduler()
        let upload = Self.uploader([HTTPUploadError.connection(code: -1)], scheduler: scheduler)
            .observedUpload(httpStreamedRequest(Data("abc".utf8)))

        await scheduler.waitForPendingWork()
        upload.progress.cancel()

        await #expect(throws: CancellationError.self) { try await upload.value }
        #expect(await uploadEventSummaries(upload.events).last == "failed: CancellationError()")
    }

    @Test func aConsumerThatStopsEarlyDoesNotHoldTheUploadBack() async throws {
        let scheduler = ManualScheduler()
        let upload = Self.uploader([HTTPUploadError.connection(code: -1)], scheduler: scheduler)
            .observedUpload(httpStreamedRequest(Data("abc".utf8)))
        var first: UploadEvent?
        for await event in upload.events {
            first = event
            break
        }

        await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(2))

        #expect(try await upload.value.disposition == .stored)
        #expect(first.map { "\($0)" }?.hasPrefix("attempt 1 started") == true)
    }

    @Test func outboxReportsEveryChunkWritten() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-progress-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try OutboxTransport(directory: directory)
        let body = Data(repeating: 9, count: 300_000)  // five 64 KiB chunks
        let request = httpStreamedRequest(body)

        let upload = outbox.observedUpload(request)
        _ = try await upload.value
        let events = await uploadEventSummaries(upload.events)

        #expect(events.first == "start 1 \(request.batchID) 300000")
        #expect(
            events.filter { $0.hasPrefix("sent") }
                == [65_536, 131_072, 196_608, 262_144, 300_000].map {
                    "sent \($0)/300000"
                })
        #expect(events.last == "finished stored")
        #expect(upload.progress.completedUnitCount == 300_000)
    }

    /// Against the real server: a streamed body's bytes are counted as URLSession reads them (coalesced to at
    /// most ~100 events, increasing, ending at the body length); a `Data` body is reported whole on the 2xx.
    @Test(arguments: [false, true])
    func httpUploadProgressEndsAtTheBodyLength(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let body = Data(repeating: 0x42, count: streamed ? 3_000_000 : 200_000)
            let request = httpStreamedRequest(body)
            let transport = HTTPTransport(
                url: server.url("upload"), timeout: .seconds(20), dataThreshold: streamed ? 0 : 1 << 20)

            let upload = transport.observedUpload(request)
            _ = try await upload.value
            let sent = await uploadEventSummaries(upload.events).compactMap { summary -> Int? in
                guard summary.hasPrefix("sent ") else { return nil }
                return Int(summary.dropFirst(5).prefix { $0 != "/" })
            }

            #expect(upload.progress.totalUnitCount == Int64(body.count))
            #expect(upload.progress.completedUnitCount == Int64(body.count))
            #expect(upload.progress.fractionCompleted == 1.0)
            #expect(sent.last == body.count)
            #expect(zip(sent, sent.dropFirst()).allSatisfy { $0 < $1 })
            #expect(streamed ? (sent.count > 10 && sent.count <= 101) : sent.count == 1)
            #expect(try await server.stats(key: request.idempotencyKey).bytes == body.count)
        }
    }
}
