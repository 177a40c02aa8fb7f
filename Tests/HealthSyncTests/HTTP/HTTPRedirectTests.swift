import FlowKit
import Foundation
import HealthSync
import Testing

/// Redirects never fool an upload: a 307/308 within the same origin is followed by sending the whole body
/// again; 301/302/303, another origin and a loop are refused with a typed error and nothing counts as delivered.
/// The test server behind every redirect answers 200 to anything, a body-less re-send or a GET included.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPRedirectTests {
    static func request(streamed: Bool) -> UploadRequest {
        let body = Data((0..<(streamed ? 600_000 : 30_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        return UploadRequest(
            batchID: UUID(), contentType: "application/octet-stream", contentLength: Int64(body.count),
            fileExtension: "bin", body: streamed ? .stream { InputStream(data: body) } : .data(body))
    }

    static func transport(_ server: HTTPTestServer, _ path: String, streamed: Bool) -> HTTPTransport {
        HTTPTransport(url: server.url(path), timeout: .seconds(30), dataThreshold: streamed ? 0 : 1 << 20)
    }

    @Test(arguments: [307, 308], [false, true])
    func aSameOriginTemporaryOrPermanentRedirectIsFollowedWithTheWholeBody(status: Int, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let request = Self.request(streamed: streamed)
            let receipt = try await Self.transport(server, "redirect/\(status)/upload", streamed: streamed)
                .upload(request)
            #expect(receipt.location == server.url("upload").absoluteString)
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 2)
            #expect(stats.stored && stats.bytes == Int(request.contentLength))
        }
    }

    @Test(arguments: [301, 302, 303], [false, true])
    func aRedirectThatWouldDropTheBodyIsRefusedAndNothingIsDelivered(status: Int, streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let request = Self.request(streamed: streamed)
            let error = await #expect(throws: HTTPUploadError.self) {
                try await Self.transport(server, "redirect/\(status)/upload", streamed: streamed).upload(request)
            }
            #expect(error == .redirectRefused(status: status, location: "/upload"))
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 1 && !stats.stored)
        }
    }

    @Test func aRedirectToAnotherOriginIsRefused() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let request = Self.request(streamed: false)
            let error = await #expect(throws: HTTPUploadError.self) {
                try await Self.transport(server, "redirect/307/other-origin", streamed: false).upload(request)
            }
            #expect(error == .redirectRefused(status: 307, location: "http://localhost:\(server.port)/upload"))
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 1 && !stats.stored)
        }
    }

    @Test func aRedirectLoopEndsAfterTheMaximumHops() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let request = Self.request(streamed: false)
            let error = await #expect(throws: HTTPUploadError.self) {
                try await Self.transport(server, "redirect/308/loop", streamed: false).upload(request)
            }
            #expect(error == .redirectRefused(status: 308, location: "/redirect/308/loop"))
            #expect(try await server.stats(key: request.idempotencyKey).requests == 1 + 3)
        }
    }

    /// A `Location` full of terminal escapes (clear screen, window title, reset, carriage return) reaches the
    /// error and its message as inert text: no control character, each shown as its escape.
    @Test(arguments: [false, true])
    func aHostileLocationReachesTheMessageWithoutControlCharacters(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let error = await #expect(throws: HTTPUploadError.self) {
                try await Self.transport(server, "hostile-location", streamed: streamed)
                    .upload(Self.request(streamed: streamed))
            }
            guard case .redirectRefused(301, let location?) = error else {
                Issue.record("expected a refused 301, got \(String(describing: error))")
                return
            }
            let text = "\(error!)"
            for shown in [location, text] {
                #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(shown)")
            }
            #expect(location == #"/x\u{1B}[2J\u{1B}]0;pwned\u{7}\u{1B}c\u{D}FAKE"#)
        }
    }

    @Test func aRefusedRedirectIsNotRetried() {
        let error = HTTPUploadError.redirectRefused(status: 302, location: "/elsewhere")
        #expect(UploadRetryPolicy().decision(for: error) == .stop)
        #expect("\(error)".contains("HTTP 302 to /elsewhere") && "\(error)".contains("nothing was delivered"))
    }
}
