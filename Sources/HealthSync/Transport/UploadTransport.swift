import FlowKit

/// Delivers a prepared batch somewhere: an HTTP server, an outbox directory, a test double.
///
/// One method, called once per attempt: it must read the body afresh (``UploadBody/makeInputStream()``), send
/// ``UploadRequest/idempotencyKey`` so a retried batch is stored once, and fulfill only when the receiver has
/// durably accepted the batch (the caller commits its anchors then). Retries belong to the caller.
///
/// - Note: Transports are `Sendable`: a sync engine calls them from any thread.
public protocol UploadTransport: Sendable {
    /// Uploads `request`'s body once.
    ///
    /// - Parameter request: The batch ID, content type, length and body.
    /// - Returns: A promise fulfilled with the receipt once the receiver holds the batch, rejected otherwise.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    func upload(_ request: UploadRequest) -> Promise<UploadReceipt>

    /// Uploads `request`'s body once, reporting to `reporter`: ``UploadReporter/attemptStarted(batchID:totalBytes:)``
    /// when it starts and ``UploadReporter/add(sentBytes:)`` as bytes go out. It does not settle the reporter.
    ///
    /// The default calls ``upload(_:)`` and reports the whole body once the upload succeeded; transports that
    /// see their bytes go out (``HTTPTransport``, ``OutboxTransport``, ``Uploader``) report them as they go and
    /// conform to ``ReportingUploadTransport``.
    ///
    /// - Parameters:
    ///   - request: The batch ID, content type, length and body.
    ///   - reporter: Where to report the attempt and its bytes.
    /// - Returns: A promise fulfilled with the receipt once the receiver holds the batch, rejected otherwise.
    func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt>
}

extension UploadTransport {
    /// Reports one attempt around ``upload(_:)``: started, then the whole body once it succeeded.
    ///
    /// - Parameters:
    ///   - request: The upload.
    ///   - reporter: Where to report.
    /// - Returns: ``upload(_:)``'s promise, after reporting.
    public func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
        reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
        return upload(request).tap(on: .immediate) { result in
            if case .success = result { reporter.bodySent() }
        }
    }
}
