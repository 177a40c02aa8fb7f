import Foundation

/// The batch-level fields of a sync batch document: who made it, when, and the key that makes it idempotent.
///
/// ```swift
/// let header = SyncBatchHeader(batchID: UUID(), deviceID: "iPhone-7F3A", createdAt: Date())
/// header.schemaVersion   // 1
/// ```
public struct SyncBatchHeader: Hashable, Sendable {
    /// The schema version this library writes.
    ///
    /// ```swift
    /// SyncBatchHeader.currentSchemaVersion   // 1
    /// ```
    public static let currentSchemaVersion = 1

    /// The version of the schema (``currentSchemaVersion`` unless set explicitly).
    ///
    /// ```swift
    /// header.schemaVersion   // 1
    /// ```
    public let schemaVersion: Int
    /// Identifies the batch; also the idempotency key: a retried batch keeps its ID.
    ///
    /// ```swift
    /// urlRequest.setValue(header.batchID.uuidString, forHTTPHeaderField: "Idempotency-Key")
    /// ```
    public let batchID: UUID
    /// An opaque identifier of the sending device (never a person's name).
    ///
    /// ```swift
    /// header.deviceID   // "device-1"
    /// ```
    public let deviceID: String
    /// When the batch was first prepared (kept across retries).
    ///
    /// ```swift
    /// let age = Date().timeIntervalSince(header.createdAt)
    /// ```
    public let createdAt: Date

    /// Creates a header.
    ///
    /// ```swift
    /// let header = SyncBatchHeader(batchID: pendingID, deviceID: "device-1", createdAt: Date())
    /// ```
    /// - Parameters:
    ///   - batchID: The batch and idempotency key.
    ///   - deviceID: The sending device.
    ///   - createdAt: When the batch was prepared.
    ///   - schemaVersion: The schema version; leave the default.
    public init(
        batchID: UUID, deviceID: String, createdAt: Date, schemaVersion: Int = SyncBatchHeader.currentSchemaVersion
    ) {
        self.schemaVersion = schemaVersion
        self.batchID = batchID
        self.deviceID = deviceID
        self.createdAt = createdAt
    }
}
