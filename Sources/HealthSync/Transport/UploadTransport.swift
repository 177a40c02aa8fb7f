import FlowKit

/// Delivers a prepared batch somewhere: an HTTP server, an outbox directory, a test double.
///
/// One method, called once per attempt: it must read the body afresh (``UploadBody/makeInputStream()``), send
/// ``UploadRequest/idempotencyKey`` so a retried batch is stored once, and fulfill only when the receiver has
/// durably accepted the batch (the caller commits its anchors then). Retries belong to the caller.
///
/// ```swift
/// struct RecordingTransport: UploadTransport {
///     func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
///         Promise(value: UploadReceipt(
///             batchID: request.batchID, disposition: .stored, bytesSent: request.contentLength, location: nil))
///     }
/// }
/// ```
/// - Note: Transports are `Sendable`: a sync engine calls them from any thread.
public protocol UploadTransport: Sendable {
    /// Uploads `request`'s body once.
    ///
    /// ```swift
    /// let receipt = try await transport.upload(request).value
    /// ```
    /// - Parameter request: The batch ID, content type, length and body.
    /// - Returns: A promise fulfilled with the receipt once the receiver holds the batch, rejected otherwise.
    func upload(_ request: UploadRequest) -> Promise<UploadReceipt>
}
