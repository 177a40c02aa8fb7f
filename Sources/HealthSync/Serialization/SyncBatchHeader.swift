import Foundation

/// The batch-level fields of a sync batch document: who made it, when, and the key that makes it idempotent.
public struct SyncBatchHeader: Hashable, Sendable {
    /// The schema version this library writes.
    public static let currentSchemaVersion = 1

    /// The version of the schema (``currentSchemaVersion`` unless set explicitly).
    public let schemaVersion: Int
    /// Identifies the batch; also the idempotency key: a retried batch keeps its ID.
    public let batchID: UUID
    /// An opaque identifier of the sending device (never a person's name).
    public let deviceID: String
    /// When the batch was first prepared (kept across retries).
    public let createdAt: Date

    /// Creates a header.
    ///
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
