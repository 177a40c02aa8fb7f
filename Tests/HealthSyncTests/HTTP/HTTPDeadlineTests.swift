import FlowKit
import Foundation
import HealthSync
import Testing

/// The transport's two limits on one attempt, each against a server that stalls at a different point: before
/// the response's head (it never answers), mid-body (it stops reading), and after reading the body (it answers
/// late). A short whole-exchange deadline ends each with ``HTTPUploadError/timedOut(after:)``; a short stall
/// limit under a long deadline ends each with ``HTTPUploadError/stalled(for:)``. Only the typed error is
/// asserted, never how long it took.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPDeadlineTests {
    static let stalls = [("hang", false), ("stall/100000", true), ("slow/25", false)]

    static func request(streamed: Bool) -> UploadRequest {
        let body = Data(repeating: 9, count: streamed ? 4_000_000 : 2_000)
        return UploadRequest(
            batchID: UUID(), contentType: "application/octet-stream", contentLength: Int64(body.count),
            fileExtension: "bin", body: streamed ? .stream { InputStream(data: body) } : .data(body))
    }

    /// A short deadline under a long stall limit, and the other way round, with the error each must give.
    static let limits: [(timeout: Duration, stallLimit: Duration, expected: HTTPUploadError)] = [
        (.seconds(1), .seconds(60), .timedOut(after: .seconds(1))),
        (.seconds(60), .seconds(1), .stalled(for: .seconds(1))),
    ]

    @Test(arguments: stalls, 0..<limits.count)
    func aStallingServerEndsTheAttemptWithTheLimitItCrossed(stall: (path: String, streamed: Bool), limit: Int)
        async throws
    {
        let (timeout, stallLimit, expected) = Self.limits[limit]
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(
                url: server.url(stall.path), timeout: timeout, stallLimit: stallLimit,
                dataThreshold: stall.streamed ? 0 : 1 << 20)
            await #expect(throws: expected) { try await transport.upload(Self.request(streamed: stall.streamed)) }
        }
    }

    @Test func bothAreRetriedAndSayWhatHappened() {
        let policy = UploadRetryPolicy()
        #expect(policy.decision(for: HTTPUploadError.timedOut(after: .seconds(30))) == .retry)
        #expect(policy.decision(for: HTTPUploadError.stalled(for: .seconds(10))) == .retry)
        #expect("\(HTTPUploadError.timedOut(after: .seconds(30)))" == "the server did not answer within 30.0 s")
        #expect("\(HTTPUploadError.stalled(for: .milliseconds(2_500)))" == "no progress for 2.5 s")
    }
}
