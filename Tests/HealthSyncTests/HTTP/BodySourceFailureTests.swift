import FlowKit
import FlowKitTesting
import Foundation
import HealthSync
import Testing

/// A failure of the body's own source (a streamed file that shrank or vanished mid-upload) ends the upload at
/// once with that error: it is not a network failure, and another attempt would read the same broken source.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct BodySourceFailureTests {
    static let declared: Int64 = 3_000_000

    /// A streamed multipart body whose file part declares `declared` bytes but whose file holds `actual` (or no
    /// file at all when `actual` is nil).
    static func request(actual: Int?, in folder: URL) throws -> UploadRequest {
        let file = folder.appendingPathComponent("export.bin")
        if let actual { try Data(repeating: 5, count: actual).write(to: file) }
        let path = file.path
        let body = try MultipartBody(parts: [
            MultipartPart(
                name: "export", filename: "export.bin", contentType: "application/octet-stream",
                length: declared, makeStream: { InputStream(fileAtPath: path) })
        ])
        return UploadRequest(
            batchID: UUID(), contentType: body.contentType, contentLength: body.contentLength,
            fileExtension: "multipart", body: .stream { body.makeInputStream() })
    }

    @Test(arguments: [1_000_000, nil])
    func aFailingBodySourceEndsTheUploadWithItsOwnErrorAndIsNotRetried(actual: Int?) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthsync-body-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let scheduler = ManualScheduler()
            let uploader = Uploader(
                transport: HTTPTransport(url: server.url("upload"), timeout: .seconds(20), dataThreshold: 0),
                policy: UploadRetryPolicy(attempts: 4, backoff: .constant(.seconds(1))), scheduler: scheduler)
            let upload = uploader.observedUpload(try Self.request(actual: actual, in: folder))

            let (events, delays) = await driveUpload(upload, on: scheduler)

            let error = await #expect(throws: MultipartError.self) { try await upload.value }
            switch (actual, error) {
            case (_?, .sourceLengthMismatch(field: "export", declared: Self.declared, delivered: 1_000_000)?): break
            case (nil, .sourceFailed(field: "export", _)?): break
            default: Issue.record("unexpected \(String(describing: error)) for a file of \(String(describing: actual))")
            }
            #expect(delays.isEmpty)
            #expect(events.count { if case .attemptStarted = $0 { true } else { false } } == 1)
        }
    }
}
