import Foundation

/// One prepared upload: the batch it carries (whose ID is the idempotency key), its content type, exact length
/// and a body that yields fresh bytes for every attempt.
///
/// ```swift
/// let request = UploadRequest(
///     batchID: header.batchID, contentType: "application/json", contentLength: length,
///     fileExtension: "json", body: .file(at: bodyURL))
/// transport.upload(request).done { receipt in … }
/// ```
public struct UploadRequest: Sendable {
    /// The batch; the same ID on every retry.
    ///
    /// ```swift
    /// request.batchID == header.batchID   // true
    /// ```
    public let batchID: UUID
    /// The media type, e.g. `application/json` or `multipart/form-data; boundary=…`.
    ///
    /// ```swift
    /// urlRequest.setValue(request.contentType, forHTTPHeaderField: "Content-Type")
    /// ```
    public let contentType: String
    /// The exact body length in bytes (for progress, `Data` paths and verification).
    ///
    /// ```swift
    /// progress.totalUnitCount = request.contentLength
    /// ```
    public let contentLength: Int64
    /// The extension an outbox stores the body under, without a dot: `json`, `json.gz`, `multipart`.
    ///
    /// ```swift
    /// request.fileExtension   // "json"
    /// ```
    public let fileExtension: String
    /// The bytes.
    ///
    /// ```swift
    /// urlRequest.httpBodyStream = try request.body.makeInputStream()
    /// ```
    public let body: UploadBody

    /// The key a server uses to store a retried batch once: the batch ID, upper-case canonical form.
    ///
    /// ```swift
    /// urlRequest.setValue(request.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
    /// ```
    public var idempotencyKey: String { batchID.uuidString }

    /// Creates a request.
    ///
    /// ```swift
    /// let request = UploadRequest(
    ///     batchID: id, contentType: "application/json", contentLength: Int64(data.count), body: .data(data))
    /// ```
    /// - Parameters:
    ///   - batchID: The batch and idempotency key.
    ///   - contentType: The media type.
    ///   - contentLength: The exact body length.
    ///   - fileExtension: The outbox file extension (`json` by default).
    ///   - body: The body source.
    public init(
        batchID: UUID, contentType: String, contentLength: Int64, fileExtension: String = "json", body: UploadBody
    ) {
        self.batchID = batchID
        self.contentType = contentType
        self.contentLength = contentLength
        self.fileExtension = fileExtension
        self.body = body
    }
}

/// What a transport reports after an upload succeeded.
///
/// ```swift
/// let receipt = try await transport.upload(request).value
/// if receipt.disposition == .duplicate { /* the batch had been delivered before: not counted twice */ }
/// ```
public struct UploadReceipt: Hashable, Sendable {
    /// Whether the receiver stored the batch now or already had it.
    ///
    /// ```swift
    /// if receipt.disposition == .duplicate { log("batch was already delivered") }
    /// ```
    public enum Disposition: String, Hashable, Sendable {
        /// Stored by this upload.
        case stored
        /// Already received earlier under the same batch ID; this upload changed nothing.
        case duplicate
    }

    /// The batch.
    ///
    /// ```swift
    /// receipt.batchID == request.batchID   // true
    /// ```
    public let batchID: UUID
    /// Stored now, or a duplicate.
    ///
    /// ```swift
    /// receipt.disposition   // .stored
    /// ```
    public let disposition: Disposition
    /// The bytes this attempt transferred (0 for a duplicate the receiver recognised before reading the body).
    ///
    /// ```swift
    /// receipt.bytesSent   // request.contentLength for a stored batch
    /// ```
    public let bytesSent: Int64
    /// Where the batch ended up, when the transport knows (an outbox file path, a server URL).
    ///
    /// ```swift
    /// receipt.location   // "/tmp/outbox/6F1E3C1A-….json"
    /// ```
    public let location: String?

    /// Creates a receipt.
    ///
    /// ```swift
    /// let receipt = UploadReceipt(batchID: id, disposition: .stored, bytesSent: 1024, location: nil)
    /// ```
    /// - Parameters:
    ///   - batchID: The batch.
    ///   - disposition: Stored now or duplicate.
    ///   - bytesSent: Bytes transferred.
    ///   - location: Where the batch is, if known.
    public init(batchID: UUID, disposition: Disposition, bytesSent: Int64, location: String?) {
        self.batchID = batchID
        self.disposition = disposition
        self.bytesSent = bytesSent
        self.location = location
    }
}
