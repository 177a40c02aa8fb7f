import Foundation

/// One prepared upload: the batch it carries (whose ID is the idempotency key), its content type, exact length
/// and a body that yields fresh bytes for every attempt.
public struct UploadRequest: Sendable {
    /// The batch; the same ID on every retry.
    public let batchID: UUID
    /// The media type, e.g. `application/json` or `multipart/form-data; boundary=…`.
    public let contentType: String
    /// The exact body length in bytes (for progress, `Data` paths and verification).
    public let contentLength: Int64
    /// The extension an outbox stores the body under, without a dot: `json`, `json.gz`, `multipart`.
    public let fileExtension: String
    /// The bytes.
    public let body: UploadBody

    /// The key a server uses to store a retried batch once: the batch ID, upper-case canonical form.
    public var idempotencyKey: String { batchID.uuidString }

    /// Creates a request.
    ///
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
public struct UploadReceipt: Hashable, Sendable {
    /// Whether the receiver stored the batch now or already had it.
    public enum Disposition: String, Hashable, Sendable {
        /// Stored by this upload.
        case stored
        /// Already received earlier under the same batch ID; this upload changed nothing.
        case duplicate
    }

    /// The batch.
    public let batchID: UUID
    /// Stored now, or a duplicate.
    public let disposition: Disposition
    /// The bytes this attempt transferred (0 for a duplicate the receiver recognised before reading the body).
    public let bytesSent: Int64
    /// Where the batch ended up, when the transport knows (an outbox file path, a server URL).
    public let location: String?

    /// Creates a receipt.
    ///
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
