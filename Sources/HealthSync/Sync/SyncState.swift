import Foundation
import HealthFlow

/// What a sync run must remember between launches: each type's anchor (how far its changes were sent) and the
/// batch prepared but not yet acknowledged.
///
/// Anchors advance only after the server acknowledged the batch that carried the changes; until then
/// ``pending`` describes the exact batch (its body file, idempotency key and the anchors it advances to), so a
/// retry after a crash re-sends the same bytes under the same key. `pendingBatchID` mirrors `pending?.batchID`
/// (older files hold only the ID).
public struct SyncState: Hashable, Sendable {
    /// Anchors by type identifier (``HealthObjectType/identifier``).
    public var anchors: [String: HealthQueryAnchor]
    /// The batch prepared and possibly sent but not yet acknowledged; `nil` when nothing is in flight.
    public var pendingBatchID: UUID?
    /// The exact batch prepared and possibly sent but not yet acknowledged: its durable body file and the anchors
    /// it advances to; `nil` when nothing is in flight (or when an older file recorded only `pendingBatchID`).
    public var pending: PendingBatch?
    /// The point of the store's history everything was sent up to, as the store vouched for it
    /// (``HealthFlow/HealthChangeHistory``); `nil` before the first complete run, or for a store without a history.
    /// A run whose store does not recognise it starts again from the beginning (see ``SyncRestart``).
    public var checkpoint: HealthHistoryCheckpoint?

    /// Creates a state; a fresh one has no anchors and no pending batch.
    ///
    /// - Parameters:
    ///   - anchors: Anchors by type identifier.
    ///   - pendingBatchID: The unacknowledged batch, if any (defaults to `pending?.batchID`).
    ///   - pending: The unacknowledged batch's body and end anchors, if any.
    public init(
        anchors: [String: HealthQueryAnchor] = [:], pendingBatchID: UUID? = nil, pending: PendingBatch? = nil
    ) {
        self.anchors = anchors
        self.pendingBatchID = pendingBatchID ?? pending?.batchID
        self.pending = pending
    }

    /// Commits the pending batch: its end anchors replace the stored ones and nothing is pending any more.
    public mutating func commitPending() {
        if let pending {
            anchors.merge(pending.endAnchors) { _, end in end }
        }
        pending = nil
        pendingBatchID = nil
    }

    /// The anchor stored for `type`, or `nil` when its changes were never sent (query from the beginning).
    ///
    /// - Parameter type: The type.
    /// - Returns: The anchor, or `nil`.
    public func anchor(for type: HealthObjectType) -> HealthQueryAnchor? {
        anchors[type.identifier]
    }

    /// Stores `anchor` for `type` (or removes it when `nil`).
    ///
    /// - Parameters:
    ///   - anchor: The new anchor.
    ///   - type: The type.
    public mutating func setAnchor(_ anchor: HealthQueryAnchor?, for type: HealthObjectType) {
        anchors[type.identifier] = anchor
    }
}

extension SyncState: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, anchors, pendingBatchID, pending
        case checkpoint = "store"
    }

    /// The state-file format version this library writes.
    static let formatVersion = 1

    /// Decodes the state-file form:
    /// `{"anchors":{"heartRate":42},"formatVersion":1,"pending":{…},"pendingBatchID":"…"}` (`pending` is optional:
    /// files written before it existed still load).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard version <= Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container, debugDescription: "unsupported version \(version)")
        }
        anchors = try container.decode([String: HealthQueryAnchor].self, forKey: .anchors)
        pending = try container.decodeIfPresent(PendingBatch.self, forKey: .pending)
        pendingBatchID = try container.decodeIfPresent(UUID.self, forKey: .pendingBatchID) ?? pending?.batchID
        checkpoint = try container.decodeIfPresent(HealthHistoryCheckpoint.self, forKey: .checkpoint)
    }

    /// Encodes the state-file form (see ``init(from:)``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(anchors, forKey: .anchors)
        try container.encodeIfPresent(pendingBatchID, forKey: .pendingBatchID)
        try container.encodeIfPresent(pending, forKey: .pending)
        try container.encodeIfPresent(checkpoint, forKey: .checkpoint)
    }
}

/// A batch written durably before its upload: the body file (in the engine's state folder), its exact length and
/// content type, the idempotency key, the per-type anchors it advances to, and what it carries (for reports).
///
/// A run that finds one re-sends exactly those bytes under the same ID and, on any 2xx (stored or duplicate),
/// commits ``endAnchors`` (``SyncState/commitPending()``) in one atomic save.
public struct PendingBatch: Hashable, Sendable, Codable {
    /// The batch ID, the idempotency key.
    public var batchID: UUID
    /// The body file's name inside the engine's state folder (a bare name, never a path).
    public var bodyFileName: String
    /// The body's exact length in bytes; a file of another length is reported as corrupt.
    public var bodyLength: Int64
    /// The CRC-32 (zlib) of the body, checked before a re-send; `nil` in records written before checksums were
    /// kept (those bodies are checked by length only).
    public var bodyCRC32: UInt32?
    /// The body's media type (the multipart boundary included).
    public var contentType: String
    /// The anchors, by type identifier, that the batch advances to once acknowledged.
    public var endAnchors: [String: HealthQueryAnchor]
    /// Samples the batch carries, by type identifier.
    public var samples: [String: Int]
    /// Deletions the batch carries, by type identifier.
    public var deletions: [String: Int]

    /// Creates a pending-batch record.
    ///
    /// - Parameters:
    ///   - batchID: The idempotency key.
    ///   - bodyFileName: The body file's name in the state folder.
    ///   - bodyLength: The exact body length.
    ///   - contentType: The body's media type.
    ///   - endAnchors: The anchors committed once acknowledged.
    ///   - samples: Samples carried, by type identifier.
    ///   - deletions: Deletions carried, by type identifier.
    ///   - bodyCRC32: The body's CRC-32, or `nil` to check the body by length only.
    public init(
        batchID: UUID, bodyFileName: String, bodyLength: Int64, contentType: String,
        endAnchors: [String: HealthQueryAnchor], samples: [String: Int] = [:], deletions: [String: Int] = [:],
        bodyCRC32: UInt32? = nil
    ) {
        self.batchID = batchID
        self.bodyFileName = bodyFileName
        self.bodyLength = bodyLength
        self.bodyCRC32 = bodyCRC32
        self.contentType = contentType
        self.endAnchors = endAnchors
        self.samples = samples
        self.deletions = deletions
    }

    private enum CodingKeys: String, CodingKey {
        case batchID, bodyFileName, bodyLength, bodyCRC32, contentType, endAnchors, samples, deletions
    }

    /// Decodes the record; `samples`, `deletions` and `bodyCRC32` may be absent (older files).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        batchID = try container.decode(UUID.self, forKey: .batchID)
        bodyFileName = try container.decode(String.self, forKey: .bodyFileName)
        bodyLength = try container.decode(Int64.self, forKey: .bodyLength)
        bodyCRC32 = try container.decodeIfPresent(UInt32.self, forKey: .bodyCRC32)
        contentType = try container.decode(String.self, forKey: .contentType)
        endAnchors = try container.decode([String: HealthQueryAnchor].self, forKey: .endAnchors)
        samples = try container.decodeIfPresent([String: Int].self, forKey: .samples) ?? [:]
        deletions = try container.decodeIfPresent([String: Int].self, forKey: .deletions) ?? [:]
    }
}
