import FlowKit
import Foundation
import HealthSync

/// A scripted ``UploadTransport`` for the uploader tests: each attempt reads the body afresh, records the
/// scheduler time, key and body, then fails with the next scripted error (or succeeds when the script is done).
final class HTTPFakeTransport: UploadTransport {
    struct Attempt: Sendable {
        var time: Duration
        var idempotencyKey: String
        var body: Data
    }

    private let script: LockedState<[any Error]>
    private let log = LockedState<[Attempt]>([])
    private let clock: @Sendable () -> Duration

    init(failures: [any Error], clock: @escaping @Sendable () -> Duration) {
        script = LockedState(failures)
        self.clock = clock
    }

    var attempts: [Attempt] { log.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        let body: Data
        do { body = try request.body.makeData() } catch { return Promise(error: error) }
        log.withLock { $0.append(Attempt(time: clock(), idempotencyKey: request.idempotencyKey, body: body)) }
        if let failure = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return Promise(error: failure)
        }
        return Promise(
            value: UploadReceipt(
                batchID: request.batchID, disposition: .stored, bytesSent: request.contentLength, location: nil))
    }
}

/// A request whose body is a fresh stream per attempt; `counter` counts the streams made.
func httpStreamedRequest(_ data: Data, counter: HTTPCounter = HTTPCounter()) -> UploadRequest {
    UploadRequest(
        batchID: UUID(), contentType: "application/octet-stream", contentLength: Int64(data.count),
        fileExtension: "bin",
        body: .stream {
            counter.increment()
            return InputStream(data: data)
        })
}

final class HTTPCounter: Sendable {
    private let value = LockedState(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
