import FlowKit
import FlowKitTesting
import Foundation
import HealthSync
import Testing

/// The uploader's retry rules, on a fake transport and a manual clock: no real waiting.
@Suite(.timeLimit(.minutes(10)))
struct UploaderTests {
    private static func setup(
        _ failures: [any Error], attempts: Int = 5, backoff: Backoff = .exponential(initial: .seconds(1), jitter: .none)
    ) -> (ManualScheduler, HTTPFakeTransport, Uploader) {
        let scheduler = ManualScheduler()
        let fake = HTTPFakeTransport(failures: failures, clock: { scheduler.now })
        let uploader = Uploader(
            transport: fake, policy: UploadRetryPolicy(attempts: attempts, backoff: backoff), scheduler: scheduler)
        return (scheduler, fake, uploader)
    }

    private static let lost = HTTPUploadError.connection(code: -1005)

    @Test func connectionLostTwiceThenSuccessBacksOffExponentially() async throws {
        let (scheduler, fake, uploader) = Self.setup([Self.lost, Self.lost])
        let counter = HTTPCounter()
        let request = httpStreamedRequest(Data("batch".utf8), counter: counter)
        let upload: Promise<UploadReceipt> = firstly { uploader.upload(request) }

        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(1))
        scheduler.advance(by: .seconds(1))
        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(3))
        scheduler.advance(by: .seconds(2))

        let receipt = try await upload.value
        #expect(receipt.disposition == .stored)
        #expect(fake.attempts.map(\.time) == [.zero, .seconds(1), .seconds(3)])
        #expect(fake.attempts.allSatisfy { $0.idempotencyKey == request.idempotencyKey })
        #expect(fake.attempts.allSatisfy { $0.body == Data("batch".utf8) })
        #expect(counter.count == 3)  // a fresh body stream per attempt
    }

    @Test func retryAfterIsHonouredExactly() async throws {
        let busy = HTTPUploadError.http(status: 503, retryAfter: .seconds(7), message: nil)
        let (scheduler, fake, uploader) = Self.setup([busy], backoff: .constant(.seconds(1)))
        let upload: Promise<UploadReceipt> = firstly { uploader.upload(httpStreamedRequest(Data("x".utf8))) }

        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(7))
        scheduler.advance(by: .seconds(6))
        #expect(fake.attempts.count == 1)
        scheduler.advance(by: .seconds(1))

        _ = try await upload.value
        #expect(fake.attempts.map(\.time) == [.zero, .seconds(7)])
    }

    @Test func clientErrorIsNotRetried() async throws {
        let bad = HTTPUploadError.http(status: 400, retryAfter: nil, message: "bad batch")
        let (scheduler, fake, uploader) = Self.setup([bad])
        let upload: Promise<UploadReceipt> = firstly { uploader.upload(httpStreamedRequest(Data("x".utf8))) }

        let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
        #expect(error == bad)
        #expect(fake.attempts.count == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func tooManyRequestsThenSuccess() async throws {
        let limited = HTTPUploadError.http(status: 429, retryAfter: nil, message: nil)
        let (scheduler, fake, uploader) = Self.setup([limited])
        let upload: Promise<UploadReceipt> = firstly { uploader.upload(httpStreamedRequest(Data("x".utf8))) }

        await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(1))
        _ = try await upload.value
        #expect(fake.attempts.count == 2)
    }

    @Test func exhaustedAttemptsRejectWithTheLastError() async throws {
        let errors: [any Error] = [
            HTTPUploadError.connection(code: -1005), HTTPUploadError.connection(code: -1001),
            HTTPUploadError.http(status: 502, retryAfter: nil, message: nil),
        ]
        let (scheduler, fake, uploader) = Self.setup(errors, attempts: 3, backoff: .constant(.seconds(1)))
        let request = httpStreamedRequest(Data("x".utf8))
        let upload: Promise<UploadReceipt> = firstly { uploader.upload(request) }

        for _ in 0..<2 {
            await scheduler.waitForPendingWork()
            scheduler.advance(by: .seconds(1))
        }
        let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
        #expect(error == .http(status: 502, retryAfter: nil, message: nil))
        #expect(fake.attempts.count == 3)
        #expect(Set(fake.attempts.map(\.idempotencyKey)) == [request.idempotencyKey])
    }

    @Test func jitterKeepsWaitsWithinTheBackOff() async throws {
        let scheduler = ManualScheduler()
        let fake = HTTPFakeTransport(failures: [Self.lost, Self.lost, Self.lost], clock: { scheduler.now })
        let policy = UploadRetryPolicy(
            attempts: 4, backoff: .exponential(initial: .seconds(1), jitter: .full), jitterSource: .seeded(42))
        let upload: Promise<UploadReceipt> = firstly {
            Uploader(transport: fake, policy: policy, scheduler: scheduler).upload(
                httpStreamedRequest(Data("x".utf8)))
        }

        var waits: [Duration] = []
        for _ in 0..<3 {
            await scheduler.waitForPendingWork()
            let deadline = try #require(scheduler.nextDeadline)
            waits.append(deadline - scheduler.now)
            scheduler.advance(to: deadline)
        }
        _ = try await upload.value
        #expect(zip(waits, [1, 2, 4]).allSatisfy { $0.0 >= .zero && $0.0 <= .seconds($0.1) })
        #expect(Set(waits).count > 1)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504, 599])
    func retryableStatuses(status: Int) {
        #expect(
            UploadRetryPolicy().decision(for: HTTPUploadError.http(status: status, retryAfter: nil, message: nil))
                == .retry)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 413, 422])
    func clientStatusesStop(status: Int) {
        #expect(
            UploadRetryPolicy().decision(for: HTTPUploadError.http(status: status, retryAfter: nil, message: nil))
                == .stop)
    }

    @Test func connectionCodesAndOtherErrors() {
        let policy = UploadRetryPolicy(maximumRetryAfter: .seconds(60))
        for code in [-1, -1001, -1004, -1005] {
            #expect(policy.decision(for: HTTPUploadError.connection(code: code)) == .retry)
        }
        #expect(policy.decision(for: HTTPUploadError.connection(code: -1002)) == .stop)  // unsupported URL
        #expect(policy.decision(for: CancellationError()) == .stop)
        #expect(policy.decision(for: UploadError.bodyUnavailable("gone")) == .stop)
        let long = HTTPUploadError.http(status: 503, retryAfter: .seconds(3600), message: nil)
        #expect(policy.decision(for: long) == .retryAfter(.seconds(60)))
    }
}
