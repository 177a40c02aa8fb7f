import FlowKit
import Foundation
import HealthSync
import Testing

/// The transport's two limits on one attempt, each against a server that stalls at a different point: before
/// the response's head (it never answers), mid-body (it stops reading), and after reading the body (it answers
/// late). A short whole-exchange deadline ends each with ``HTTPUploadError/timedOut(after:)``; a short stall
/// limit under a long deadline ends each with ``HTTPUploadError/stalled(for:)``. Only the typed error is
/// asserted, never how long it took.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTPDeadlineTests {
    static let stalls = [("hang", false), ("stall/100000", true), ("slow/25", false)]

    static func request(streamed: Bool) -> UploadRequest {
        let body = Data(repeating: 9, count: streamed ? 4_000_000 : 2_000)
        return UploadRequest(
            batchID: UUID(), contentType: "application/octet-stream", contentLength: Int64(body.count),
            fileExtension: "bin", body: streamed ? .stream { InputStream(data: body) } : .data(body))
    }

    @Test(arguments: stalls)
    func theWholeExchangeDeadlineEndsAnAttemptThatStalls(path: String, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(
                url: server.url(path), timeout: .seconds(1), stallLimit: .seconds(60), dataThreshold: streamed ? 0 : 1 << 20)
            await #expect(throws: HTTPUploadError.timedOut(after: .seconds(1))) {
                try await transport.upload(Self.request(streamed: streamed))
            }
        }
    }

    @Test(arguments: stalls)
    func theStallLimitEndsAnAttemptThatStopsMoving(path: String, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(
                url: server.url(path), timeout: .seconds(60), stallLimit: .seconds(1), dataThreshold: streamed ? 0 : 1 << 20)
            await #expect(throws: HTTPUploadError.stalled(for: .seconds(1))) {
                try await transport.upload(Self.request(streamed: streamed))
            }
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
