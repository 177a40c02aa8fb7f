import FlowKit
import Foundation
import Testing

@testable import HealthSync

/// On Linux `http://` uploads go through the transport's socket client, `https://` through URLSession: both must
/// come to the same outcome. Each answer of the test server whose outcome does not depend on timing is sent once
/// through each client, and the receipts (disposition, location) or errors (their descriptions: status,
/// Retry-After, message, `URLError` code) must be the same. On Apple platforms both runs use URLSession. A streamed
/// body is 4 MB, more than loopback's buffers take in, so an answer on the head comes before the whole body went
/// out however late it comes; the socket client waits for `100 Continue` as long as the test allows.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPClientParityTests {
    /// Paths, whether the body is streamed, and the outcome both clients must give.
    static let cases: [(path: String, streamed: Bool, outcome: String)] = [
        ("upload", false, "stored at /upload"), ("upload", true, "stored at /upload"),
        ("status/400", false, "HTTP 400 Bad Request: {\"status\": 400}"),
        ("status/503", true, "HTTP 503 Service Unavailable, retry after 1.0 seconds: {\"status\": 503}"),
        ("html/502", false, "HTTP 502 Bad Gateway: Gateway error"),
        (
            "reject-early/413/close", true,
            "HTTP 413 Payload Too Large: {\"error\": \"batch too large for this server\"}"
        ),
        ("early-ok/drain/1", true, HTTPUploadError.answeredBeforeBodySent(status: 200).description),
        ("garbage", false, "connection failed (URLError -1002)"),
        ("truncated", false, "connection failed (URLError -1)"),
        ("drop-after/2000/fin", false, "connection failed (URLError -1011)"),
        ("drop-after/1000/rst", true, "connection failed (URLError -1005)"),
        ("redirect/307/upload", true, "stored at /upload"),
        ("redirect/302/upload", false, HTTPUploadError.redirectRefused(status: 302, location: "/upload").description),
        ("hang", false, "the server did not answer within 1.0 s"),
    ]

    /// Made once: filling 4 MB in Swift takes seconds under a sanitizer. Bytes, not `Data`, which LeakSanitizer
    /// reports as leaked when a global holds it (see ``HTTPEarlySuccessTests/bodies``).
    static let streamedBody = [UInt8](HTTPFaultTests.body(HTTPFaultTests.large))

    static func outcome(_ server: HTTPTestServer, _ path: String, streamed: Bool, urlSession: Bool) async -> String {
        var transport = HTTPFaultTests.transport(
            server.url(path), timeout: .seconds(path == "hang" ? 1 : 20), streamed: streamed)
        transport.prefersURLSession = urlSession
        let body = streamed ? Data(Self.streamedBody) : Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        switch await firstly({ transport.upload(httpStreamedRequest(body)) }).settled {
        case .success(let receipt):
            let location = receipt.location.flatMap { URL(string: $0)?.path } ?? "?"
            return "\(receipt.disposition) at \(location)"
        case .failure(let error):
            return "\(error)"
        }
    }

    @Test(arguments: 0..<cases.count)
    func bothClientsComeToTheSameOutcome(index: Int) async throws {
        let (path, streamed, expected) = Self.cases[index]
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let socket = await Self.outcome(server, path, streamed: streamed, urlSession: false)
            let session = await Self.outcome(server, path, streamed: streamed, urlSession: true)
            #expect(socket == expected)
            #expect(session == expected)
        }
    }
}
