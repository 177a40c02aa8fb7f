import FlowKit
import Foundation
import HealthSync
import Testing

/// The HTTP transport and uploader against a real local server (Python, 127.0.0.1, OS-assigned port).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HTTPTransportTests {
    private static func multipart(payloadBytes: Int) throws -> MultipartBody {
        let payload = gzipMultipartJSONLike(byteCount: payloadBytes)
        return try MultipartBody(parts: [
            MultipartPart(name: "header", contentType: "application/json", data: Data(#"{"version":1}"#.utf8)),
            MultipartPart(name: "batch", filename: "batch.json", contentType: "application/json", data: payload),
        ])
    }

    @Test func anErrorPageBecomesTheStatusItsReasonAndOneShortLine() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(url: server.url("html/502"), timeout: .seconds(20))
            let request = UploadRequest(
                batchID: UUID(), contentType: "application/octet-stream", contentLength: 3, fileExtension: "bin",
                body: .data(Data([1, 2, 3])))
            let error = await #expect(throws: HTTPUploadError.self) { try await transport.upload(request) }
            let text = "\(try #require(error))"
            #expect(text.hasPrefix("HTTP 502 "))
            #expect(text.hasSuffix(": Gateway error"), "\(text)")
            #expect(!text.contains("\n") && !text.contains("<") && !text.contains("\u{1B}"))
        }
    }

    @Test(arguments: [false, true])
    func multipartUploadArrivesIntact(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let body = try Self.multipart(payloadBytes: streamed ? 600_000 : 20_000)
            let expected = try body.data()
            let request = UploadRequest(
                batchID: UUID(), contentType: body.contentType, contentLength: body.contentLength,
                fileExtension: "multipart",
                body: streamed ? .stream { body.makeInputStream() } : .data(expected))
            let transport = HTTPTransport(
                url: server.url("upload"), timeout: .seconds(20), dataThreshold: streamed ? 0 : 1 << 20)

            let receipt = try await transport.upload(request)

            #expect(receipt.disposition == .stored)
            #expect(receipt.batchID == request.batchID)
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.stored)
            #expect(stats.bytes == expected.count)
            #expect(stats.sha256 == GzipMultipartSHA256.hex(expected))
            #expect(stats.chunked == streamed)  // streamed: no Content-Length header, chunked
        }
    }

    /// What goes on the wire: `Host`, the content type, the idempotency key, and one framing — a whole body with
    /// `Content-Length`, a streamed one chunked with `Expect: 100-continue` — never both.
    @Test(arguments: [false, true])
    func theRequestCarriesItsHeadersAndExactlyOneFraming(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let request = httpStreamedRequest(Data(repeating: 3, count: 50_000))
            let transport = HTTPTransport(
                url: server.url("upload"), timeout: .seconds(20), dataThreshold: streamed ? 0 : 1 << 20)

            _ = try await transport.upload(request)

            let fields = try #require(try await server.stats(key: request.idempotencyKey).headers)
            func values(_ name: String) -> [String] {
                fields.filter { $0.first?.lowercased() == name }.map { $0.last ?? "" }
            }
            #expect(values("host") == ["127.0.0.1:\(server.port)"])
            #expect(values("content-type") == [request.contentType])
            #expect(values("idempotency-key") == [request.idempotencyKey])
            #expect(values("content-length") == (streamed ? [] : ["50000"]))
            #expect(values("transfer-encoding") == (streamed ? ["chunked"] : []))
            #expect(values("expect") == (streamed ? ["100-continue"] : []))
        }
    }

    #if os(Linux)
        /// A content type that would break the request's head is refused before connecting: −1000, never retried.
        @Test func aContentTypeWithALineBreakIsRefusedBeforeConnecting() async throws {
            let transport = HTTPTransport(url: URL(string: "http://127.0.0.1:9/upload")!, timeout: .seconds(5))
            let request = UploadRequest(
                batchID: UUID(), contentType: "text/plain\r\nX-Injected: 1", contentLength: 1,
                body: .data(Data([1])))
            let error = await #expect(throws: HTTPUploadError.self) { try await transport.upload(request) }
            #expect(error == .connection(code: -1000))
            #expect(UploadRetryPolicy().decision(for: error ?? .invalidResponse) == .stop)
        }
    #endif

    @Test func retriedBatchIsCountedOnce() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(url: server.url("upload"), timeout: .seconds(20))
            let request = httpStreamedRequest(Data("batch body".utf8))

            let first = try await transport.upload(request)
            let second = try await transport.upload(request)

            #expect(first.disposition == .stored)
            #expect(second.disposition == .duplicate)
            let stats = try await server.stats(key: request.idempotencyKey)
            #expect(stats.requests == 2)
            #expect(stats.bytes == 10)
        }
    }

    @Test func serviceUnavailableThenOKSucceedsThroughTheUploader() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(url: server.url("fail-then-ok/2"), timeout: .seconds(20), dataThreshold: 0)
            let uploader = Uploader(
                transport: transport,
                policy: UploadRetryPolicy(attempts: 4, backoff: .exponential(initial: .milliseconds(5))),
                scheduler: DispatchScheduler())
            let counter = HTTPCounter()
            let request = httpStreamedRequest(Data(repeating: 7, count: 50_000), counter: counter)

            let receipt = try await uploader.upload(request)

            #expect(receipt.disposition == .stored)
            #expect(counter.count == 3)  // a fresh stream for each of the three attempts
            #expect(try await server.stats(key: request.idempotencyKey).requests == 3)
        }
    }

    @Test func badRequestIsNotRetried() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let uploader = Uploader(
                transport: HTTPTransport(url: server.url("status/400"), timeout: .seconds(20)),
                policy: UploadRetryPolicy(attempts: 4, backoff: .constant(.milliseconds(5))),
                scheduler: DispatchScheduler())
            let request = httpStreamedRequest(Data("x".utf8))

            let error = await #expect(throws: HTTPUploadError.self) { try await uploader.upload(request) }

            guard case .http(400, nil, let message?) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(message.contains("400"))
            #expect(try await server.stats(key: request.idempotencyKey).requests == 1)
        }
    }

    @Test func serviceUnavailableCarriesRetryAfter() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(url: server.url("status/503"), timeout: .seconds(20))

            let error = await #expect(throws: HTTPUploadError.self) {
                try await transport.upload(httpStreamedRequest(Data("x".utf8)))
            }

            #expect(error?.retryAfter == .seconds(1))
            guard case .http(503, _, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
        }
    }

    @Test(arguments: [false, true])
    func droppedConnectionYieldsATypedError(streamed: Bool) async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(
                url: server.url("drop"), timeout: .seconds(20), dataThreshold: streamed ? 0 : Int64.max)

            let error = await #expect(throws: HTTPUploadError.self) {
                try await transport.upload(httpStreamedRequest(Data(repeating: 1, count: 4 << 20)))
            }

            guard case .connection(let code) = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(UploadRetryPolicy.retryableURLErrorCodes.contains(code))
        }
    }

    @Test func cancellingTheUploadCancelsTheRequest() async throws {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let transport = HTTPTransport(url: server.url("hang"), timeout: .seconds(20))
            let upload: Promise<UploadReceipt> = firstly { transport.upload(httpStreamedRequest(Data("x".utf8))) }

            upload.cancel()

            await #expect(throws: CancellationError.self) { try await upload.value }
        }
    }

    /// FoundationNetworking traps (a `fatalError` that ends the process) when a task is cancelled while its
    /// URL-cache lookup is still pending; the transport's default session has no cache. Cancelling right after the
    /// start, 200 times (from memory and streamed), ends every upload with `CancellationError` or, when the
    /// server was quicker, a receipt — and the process is still here.
    @Test func cancellingRightAfterTheStartNeverCrashes() async throws {
        #expect(HTTPTransport.defaultSession.configuration.urlCache == nil)
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            var cancelled = 0
            for round in 0..<200 {
                let transport = HTTPTransport(
                    url: server.url("upload"), timeout: .seconds(20),
                    dataThreshold: round.isMultiple(of: 2) ? 1 << 20 : 0)
                let upload: Promise<UploadReceipt> = firstly { transport.upload(httpStreamedRequest(Data("x".utf8))) }
                upload.cancel()
                switch await upload.settled {
                case .success: break
                case .failure(let error):
                    #expect(error is CancellationError, "round \(round): \(error)")
                    cancelled += 1
                }
            }
            #expect(cancelled > 0)
        }
    }
}
