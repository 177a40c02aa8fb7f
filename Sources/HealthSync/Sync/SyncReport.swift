import Foundation

/// What one ``SyncEngine/sync()`` run sent: batches, sample and deletion counts per type, bytes and duplicates.
///
/// Counts only, never a health value, so a report is safe to log.
///
/// ```swift
/// let report = try await engine.sync()
/// if report.isEmpty { log("nothing to send") } else { log("\(report.batches) batches, \(report.totalSamples) samples") }
/// ```
public struct SyncReport: Hashable, Sendable {
    /// The batches the receiver acknowledged in this run (stored or duplicate).
    ///
    /// ```swift
    /// report.batches   // 3 for 2,500 changes at a batch size of 1,000
    /// ```
    public var batches: Int
    /// Samples sent, by type identifier (``HealthFlow/HealthObjectType/identifier``).
    ///
    /// ```swift
    /// report.samples["heartRate"]   // 120
    /// ```
    public var samples: [String: Int]
    /// Deletions (tombstones) sent, by type identifier.
    ///
    /// ```swift
    /// report.deletions["stepCount"]   // 2
    /// ```
    public var deletions: [String: Int]
    /// Bytes of the multipart bodies acknowledged (the bodies' exact lengths).
    ///
    /// ```swift
    /// report.bytes   // 48_213
    /// ```
    public var bytes: Int64
    /// Batches the receiver already had (``UploadReceipt/Disposition/duplicate``): a re-sent batch after a crash.
    ///
    /// ```swift
    /// report.duplicates   // 1 after recovering a batch the server had stored
    /// ```
    public var duplicates: Int
    /// The IDs (idempotency keys) of the acknowledged batches, in order.
    ///
    /// ```swift
    /// report.batchIDs.first   // the re-sent pending batch, when one was recovered
    /// ```
    public var batchIDs: [UUID]
    /// Why this run started again from the beginning, when the sync state did not describe the store (the
    /// receiver drops what it already has); `nil` when the anchors were trusted.
    ///
    /// ```swift
    /// if let restart = report.restart { print("sent everything again: \(restart)") }
    /// ```
    public var restart: SyncRestart?

    /// Creates a report; an empty one by default.
    ///
    /// ```swift
    /// let nothing = SyncReport()
    /// nothing.isEmpty   // true
    /// ```
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
    ///
    /// ```swift
    /// report.totalSamples   // 8_760
    /// ```
    public var totalSamples: Int { samples.values.reduce(0, +) }

    /// All deletions sent, every type together.
    ///
    /// ```swift
    /// report.totalDeletions   // 2
    /// ```
    public var totalDeletions: Int { deletions.values.reduce(0, +) }

    /// Whether the run sent nothing (no batch was acknowledged).
    ///
    /// ```swift
    /// if report.isEmpty { print("nothing to send") }
    /// ```
    public var isEmpty: Bool { batches == 0 }
}
