import Foundation

/// What one ``SyncEngine/sync()`` run sent: batches, sample and deletion counts per type, bytes and duplicates.
///
/// Counts only, never a health value, so a report is safe to log.
public struct SyncReport: Hashable, Sendable {
    /// The batches the receiver acknowledged in this run (stored or duplicate).
    public var batches: Int
    /// Samples sent, by type identifier (``HealthFlow/HealthObjectType/identifier``).
    public var samples: [String: Int]
    /// Deletions (tombstones) sent, by type identifier.
    public var deletions: [String: Int]
    /// Bytes of the multipart bodies acknowledged (the bodies' exact lengths).
    public var bytes: Int64
    /// Batches the receiver already had (``UploadReceipt/Disposition/duplicate``): a re-sent batch after a crash.
    public var duplicates: Int
    /// The IDs (idempotency keys) of the acknowledged batches, in order.
    public var batchIDs: [UUID]
    /// Why this run started again from the beginning, when the sync state did not describe the store (the
    /// receiver drops what it already has); `nil` when the anchors were trusted.
    public var restart: SyncRestart?

    /// Creates a report; an empty one by default.
    ///
    /// - Parameters:
    ///   - batches: Acknowledged batches.
    ///   - samples: Samples by type identifier.
    ///   - deletions: Deletions by type identifier.
    ///   - bytes: Body bytes.
    ///   - duplicates: Batches the receiver already had.
    ///   - batchIDs: The acknowledged batch IDs.
    public init(
        batches: Int = 0, samples: [String: Int] = [:], deletions: [String: Int] = [:], bytes: Int64 = 0,
        duplicates: Int = 0, batchIDs: [UUID] = []
    ) {
        self.batches = batches
        self.samples = samples
        self.deletions = deletions
        self.bytes = bytes
        self.duplicates = duplicates
        self.batchIDs = batchIDs
    }

    /// All samples sent, every type together.
    public var totalSamples: Int { samples.values.reduce(0, +) }

    /// All deletions sent, every type together.
    public var totalDeletions: Int { deletions.values.reduce(0, +) }

    /// Whether the run sent nothing (no batch was acknowledged).
    public var isEmpty: Bool { batches == 0 }
}
