import FlowKit
import FlowKitTesting
import Foundation
import Testing

@testable import HealthSync

/// Fault injection against the loopback server (``HTTPTestServer``): early 413, 429/503 with Retry-After, drops
/// (FIN and RST), a slow answer and a stalled reader past the timeout, malformed answers. Each asserts no crash,
/// the typed error or a successful retry, and what the server saw. Retries run on a manual clock; the only real
/// waits are the timeouts of the two timeout tests (1 s for the slow answer, 8 s for the stalled reader). Every
/// other case allows 20 s, so a loaded machine never turns a server's real answer into a timeout.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPFaultTests {
    /// A body small enough to go as `Data` with a `Content-Length`.
    static let small = 2_000
    /// A body that goes out as a chunked stream.
    static let large = 4_000_000

    static func uploader(
        _ server: HTTPTestServer, _ path: String, streamed: Bool, attempts: Int = 4, timeout: Duration = .seconds(20),
        scheduler: ManualScheduler
    ) -> Uploader {
        Uploader(
            transport: transport(server.url(path), timeout: timeout, streamed: streamed),
            policy: UploadRetryPolicy(attempts: attempts, backoff: .constant(.seconds(1))), scheduler: scheduler)
    }

    /// A transport whose streamed bodies wait up to 30 s for `100 Continue` (libcurl's 1 s is the default): the test
    /// server answers the head at once, and a machine loaded enough to delay that answer past 1 s would have the
    /// body start out and an early answer race the reset of its connection.
    static func transport(_ url: URL, timeout: Duration, streamed: Bool) -> HTTPTransport {
        var transport = HTTPTransport(url: url, timeout: timeout, dataThreshold: streamed ? 0 : 1 << 20)
        transport.continueWait = .seconds(30)
        return transport
    }

    static func body(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    }

    // MARK: 413 before the body is read

    /// The server answers 413 and closes before reading a byte ("close": unread bytes make its kernel send RST;
    /// "drain": it half-closes and reads the rest). The 413 is never retried and its message reaches the caller.
    /// A streamed body is sent with `Expect: 100-continue`, so the server's answer comes before any body byte and
    /// no reset can overtake it (without it, the reset won about 1 run in 5 under load, as a connection loss).
    @Test(arguments: [false, true], ["close", "drain"])
    func earlyPayloadTooLargeIsNotRetriedAndCarriesTheServerMessage(streamed: Bool, closing: String) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(streamed ? Self.large : Self.small))
            let upload = Self.uploader(server, "reject-early/413/\(closing)", streamed: streamed, scheduler: scheduler)
                .observedUpload(request)

            let (events, delays) = await driveUpload(upload, on: scheduler)

            let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
            guard case .http(413, nil, let message?) = error else {
                Issue.record("expected HTTP 413 with a message, got \(String(describing: error))")
                return
            }
            #expect(message.contains("batch too large for this server"))
            let attempts = events.count { if case .attemptStarted = $0 { true } else { false } }
            let retryReasons = events.compactMap { event -> (any Error)? in
                if case .retryScheduled(_, _, let reason) = event { reason } else { nil }
            }
            #expect(retryReasons.isEmpty, "\(retryReasons)")
            #expect(delays.count == retryReasons.count && attempts == 1 + retryReasons.count)
            #expect(scheduler.pendingCount == 0)
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == attempts)
            #expect(!stats.stored)
        }
    }

    /// The early answer wins every time: 200 streamed uploads to a server that answers 413 on the request's
    /// head and closes, each reported as that 413 and nothing else (bounded: 200 small exchanges on loopback).
    @Test func anEarlyAnswerToAStreamedBodyIsReportedInEveryRun() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = Self.transport(server.url("reject-early/413/close"), timeout: .seconds(20), streamed: true)
            let body = Self.body(Self.large)
            var outcomes: [String: Int] = [:]
            for _ in 0..<200 {
                do {
                    _ = try await transport.upload(httpStreamedRequest(body))
                    outcomes["stored", default: 0] += 1
                } catch HTTPUploadError.http(413, _, _) {
                    outcomes["413", default: 0] += 1
                } catch {
                    outcomes["\(error)", default: 0] += 1
                }
            }
            #expect(outcomes == ["413": 200])
        }
    }

    // MARK: 429 and 503 with Retry-After

    @Test(arguments: [429, 503], [false, true])
    func retryAfterIsHonouredWithOneKeyAndTheBatchIsCountedOnce(status: Int, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let body = Self.body(streamed ? 300_000 : Self.small)
            let request = httpStreamedRequest(body)
            let upload = Self.uploader(server, "retry-after/\(status)/2/3", streamed: streamed, scheduler: scheduler)
                .observedUpload(request)

            let (events, delays) = await driveUpload(upload, on: scheduler)

            let receipt = try await upload.value
            #expect(receipt.disposition == .stored)
            #expect(delays == [.seconds(3), .seconds(3)])  // Retry-After: 3, not the 1 s back-off
            #expect(scheduler.now == .seconds(6))
            #expect(uploadFailures(events).count == 2)
            for failure in uploadFailures(events) {
                guard case .http(status, .seconds(3), _)? = failure else {
                    Issue.record("unexpected \(String(describing: failure))")
                    continue
                }
            }
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 3)  // all three attempts carried the same Idempotency-Key
            #expect(stats.retryAfter == ["3", "3"])
            #expect(stats.received == 1)  // stored once
            #expect(stats.sha256 == GzipMultipartSHA256.hex(body))
            #expect(upload.progress.completedUnitCount == Int64(body.count))
            #expect(upload.progress.fractionCompleted == 1.0)
        }
    }

    /// `Retry-After: 0` is no licence to hammer the server: the policy's minimum wait (500 ms) applies.
    @Test func retryAfterZeroWaitsThePolicysMinimum() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(Self.small))
            let upload = Self.uploader(server, "retry-after/503/2/0", streamed: false, scheduler: scheduler)
                .observedUpload(request)

            let (_, delays) = await driveUpload(upload, on: scheduler)

            #expect(try await upload.value.disposition == .stored)
            #expect(delays == [.milliseconds(500), .milliseconds(500)])
            #expect(try await server.stats(key: request.idempotencyKey).retryAfter == ["0", "0"])
        }
    }

    // MARK: drop after N bytes

    /// A drop after 1,000 body bytes, once; the retry succeeds. Measured here (25 runs each): a reset (RST,
    /// SO_LINGER 0) is URLError −1005 for 900 kB `Data` and 4 MB streamed bodies alike; a clean close (FIN) is
    /// −1 for the 4 MB stream (25/25) but for the 900 kB `Data` body −1 (21/25) or −1011 (4/25), when libcurl
    /// had already handed the whole body to the socket and then read an empty reply. All are retried.
    @Test(arguments: [false, true], [false, true])
    func droppedConnectionIsRetriedAsConnectionLoss(reset: Bool, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let body = Self.body(streamed ? Self.large : 900_000)
            let request = httpStreamedRequest(body)
            let path = "drop-after/1000/\(reset ? "rst" : "fin")/1"
            let upload = Self.uploader(server, path, streamed: streamed, scheduler: scheduler).observedUpload(request)

            let (events, delays) = await driveUpload(upload, on: scheduler)

            #expect(try await upload.value.disposition == .stored)
            let expected: Set<Int> = reset ? [-1005] : streamed ? [-1] : [-1, -1011]
            let failures = uploadFailures(events)
            #expect(failures.count == 1)
            if case .connection(let code)? = failures.first {
                #expect(expected.contains(code))
            } else {
                Issue.record("expected a connection error, got \(failures)")
            }
            #expect(delays == [.seconds(1)])
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 2)
            #expect(stats.bytes == body.count)
            #expect(stats.sha256 == GzipMultipartSHA256.hex(body))
        }
    }

    /// Nothing listens on the port (the server is gone): URLError −1004, cannot connect to host, retried.
    @Test func aRefusedConnectionIsRetriedAsCannotConnect() async throws {
        let server = try HTTPTestServer.start()
        let url = server.url("upload")
        server.stop()
        let scheduler = ManualScheduler()
        let upload = Uploader(
            transport: HTTPTransport(url: url, timeout: .seconds(20)),
            policy: UploadRetryPolicy(attempts: 2, backoff: .constant(.seconds(1))), scheduler: scheduler
        )
        .observedUpload(httpStreamedRequest(Self.body(Self.small)))

        let (events, delays) = await driveUpload(upload, on: scheduler)

        let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
        #expect(error == .connection(code: -1004))
        #expect(uploadFailures(events) == [.connection(code: -1004), .connection(code: -1004)])
        #expect(delays == [.seconds(1)])
    }

    /// The server reads the whole small body and closes without answering: libcurl's "empty reply", URLError
    /// −1011, retried like a lost connection.
    @Test func closeWithoutAReplyIsRetried() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(Self.small))
            let upload = Self.uploader(server, "drop-after/\(Self.small)/fin/1", streamed: false, scheduler: scheduler)
                .observedUpload(request)

            let (events, _) = await driveUpload(upload, on: scheduler)

            #expect(try await upload.value.disposition == .stored)
            #expect(uploadFailures(events) == [.connection(code: -1011)])
        }
    }

    // MARK: slow answer, stalled reader

    /// Answers that fail every attempt and are retried until the last, which fails with the typed error:
    /// `slow/3` reads the body and answers after 3 s, past a 1 s timeout (URLError −1001); `truncated` sends a
    /// 200 whose body stops short of its Content-Length, then closes (URLError −1; the batch may or may not have
    /// been stored, the idempotency key makes the retry safe), under a 20 s timeout that a loaded machine's
    /// exchange cannot reach first.
    @Test(arguments: [
        ("slow/3", Duration.seconds(1), HTTPUploadError.timedOut(after: .seconds(1))),
        ("truncated", Duration.seconds(20), HTTPUploadError.connection(code: -1)),
    ])
    func failingAnswerIsRetriedThenFailsTyped(path: String, timeout: Duration, expected: HTTPUploadError)
        async throws
    {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(Self.small))
            let upload = Self.uploader(
                server, path, streamed: false, attempts: 2, timeout: timeout, scheduler: scheduler
            )
            .observedUpload(request)

            let (events, delays) = await driveUpload(upload, on: scheduler)

            let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
            #expect(error == expected)
            #expect(uploadFailures(events) == [expected, expected])
            #expect(delays == [.seconds(1)])
            #expect(try await server.stats(key: request.idempotencyKey).requests == 2)
        }
    }

    /// The server reads 100 kB of a 4 MB streamed body and stops reading (for 20 s): the exchange passes its 8 s
    /// deadline, a typed error; the bytes counted stay below the body length. The deadline leaves a loaded
    /// machine time to connect and send the first percent of the body (the first bytes reported).
    @Test func stalledReaderTimesOutWithATypedError() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(Self.large))
            let upload = Self.uploader(
                server, "stall/100000", streamed: true, attempts: 1, timeout: .seconds(8), scheduler: scheduler
            )
            .observedUpload(request)

            let (events, _) = await driveUpload(upload, on: scheduler)

            let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
            #expect(error == .timedOut(after: .seconds(8)))
            #expect(upload.progress.completedUnitCount < Int64(Self.large))
            #expect(events.contains { if case .bytesSent(let sent, _) = $0 { sent > 0 } else { false } })
        }
    }

    // MARK: malformed answers

    /// Garbage instead of a status line: libcurl reports an unsupported protocol, URLError −1002. Not retried:
    /// the server does not speak HTTP, another attempt would get the same.
    @Test func garbageInsteadOfAStatusLineIsNotRetried() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let request = httpStreamedRequest(Self.body(Self.small))
            let upload = Self.uploader(server, "garbage", streamed: false, scheduler: scheduler).observedUpload(request)

            let (events, _) = await driveUpload(upload, on: scheduler)

            let error = await #expect(throws: HTTPUploadError.self) { try await upload.value }
            #expect(error == .connection(code: -1002))
            #expect(uploadFailures(events) == [.connection(code: -1002)])
            #expect(try await server.stats(key: request.idempotencyKey).requests == 1)
        }
    }

    /// A 2xx with a plain-text body is a success: the receipt needs only the status (JSON is read only to spot
    /// `"duplicate": true`).
    @Test func nonJSONSuccessBodyIsAStoredReceipt() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let body = Self.body(Self.small)
            let request = httpStreamedRequest(body)
            let upload = Self.uploader(server, "text-ok", streamed: false, scheduler: scheduler).observedUpload(request)

            let receipt = try await upload.value

            #expect(receipt.disposition == .stored)
            #expect(upload.progress.completedUnitCount == Int64(body.count))
            #expect(await uploadEventSummaries(upload.events).last == "finished stored")
        }
    }
}
