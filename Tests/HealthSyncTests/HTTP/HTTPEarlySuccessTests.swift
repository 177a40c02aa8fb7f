import FlowKit
import FlowKitTesting
import Foundation
import HealthSync
import Testing

/// A 2xx that comes before the server has the whole body is no delivery: the loopback server answers 200 on the
/// request's head or on accept, and the upload must fail that attempt retryably and deliver on the honest retry.
/// Serialized like every HTTP fault suite, and a suite of its own so that its large bodies do not lengthen the one
/// queue of ``HTTPFaultTests``: Swift Testing runs suites side by side, the tests of a serialized suite one by one.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPEarlySuccessTests {
    /// A body no socket can take in before the server answers: more than loopback's largest send buffer (4 MiB)
    /// and a receive window nobody reads, together.
    static let unswallowable = 12_000_000

    /// The two bodies and their SHA-256 digests (hex), made once for the suite: under a sanitizer, filling 12 MB
    /// and hashing it in Swift takes seconds. Held as byte arrays: LeakSanitizer reported the bodies held as `Data`
    /// in this global as leaked at exit (it does not find the reference inside a `Data`); the digest is kept alike.
    static let bodies: [Int: (bytes: [UInt8], sha256: [UInt8])] = Dictionary(
        uniqueKeysWithValues: [HTTPFaultTests.large, unswallowable].map { count in
            let data = HTTPFaultTests.body(count)
            return (count, ([UInt8](data), Array(GzipMultipartSHA256.hex(data).utf8)))
        })

    /// The server answers 200 on the request's head alone, without reading a byte of the body, then closes
    /// ("close") or reads and drops the rest ("drain"). It cannot have the batch, so that 200 is no delivery:
    /// the attempt fails, retryably, and the retry to the same server, honest now, delivers the whole body under
    /// the same Idempotency-Key. A streamed body waits for `100 Continue` and gets the 200 instead; a whole one
    /// is too large to be in the socket by then.
    @Test(arguments: [false, true], ["close", "drain"])
    func aSuccessBeforeTheWholeBodyWentOutIsRetriedNotDelivered(streamed: Bool, closing: String) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            try await Self.expectEarlySuccessRetried(
                server, "early-ok/\(closing)/1", streamed: streamed, requestsCounted: 2)
        }
    }

    /// The server answers 200 the moment it accepts the connection, before a byte of the request came: no
    /// delivery either; the retry, answered honestly, stores the whole body. The answer on accept never reaches
    /// the handler that counts requests, so the server counts one.
    @Test(arguments: [false, true])
    func aSuccessOnAcceptBeforeTheRequestIsRetriedNotDelivered(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            try await server.answerOnAccept(1)
            try await Self.expectEarlySuccessRetried(server, "upload", streamed: streamed, requestsCounted: 1)
        }
    }

    /// Uploads a body too large to go out before the server's early 200 to `path`, and checks that 200 failed the
    /// first attempt as no delivery, the one retry after the 1 s back-off stored the whole body byte for byte,
    /// and the server counted `requestsCounted` requests under the upload's one Idempotency-Key.
    static func expectEarlySuccessRetried(
        _ server: HTTPTestServer, _ path: String, streamed: Bool, requestsCounted: Int
    ) async throws {
        let scheduler = ManualScheduler()
        let body = try #require(bodies[streamed ? HTTPFaultTests.large : unswallowable])
        let data = Data(body.bytes)
        let request = httpStreamedRequest(data)
        let upload = Uploader(
            transport: HTTPTransport(
                url: server.url(path), timeout: .seconds(20), dataThreshold: streamed ? 0 : Int64(data.count)),
            policy: UploadRetryPolicy(attempts: 2, backoff: .constant(.seconds(1))), scheduler: scheduler
        )
        .observedUpload(request)

        let (events, delays) = await driveUpload(upload, on: scheduler)

        #expect(try await upload.value.disposition == .stored)
        #expect(uploadFailures(events) == [.answeredBeforeBodySent(status: 200)])
        #expect(delays == [.seconds(1)])
        let stats = try await server.stats(key: request.idempotencyKey)
        #expect(stats.requests == requestsCounted)
        #expect(stats.bytes == data.count)
        #expect(stats.sha256 == String(decoding: body.sha256, as: UTF8.self))
    }
}
