import Foundation
import HealthFlow

/// What a sync run must remember between launches: each type's anchor (how far its changes were sent) and the
/// ID of the batch prepared but not yet acknowledged.
///
/// Anchors advance only after the server acknowledged the batch that carried the changes; until then
/// `pendingBatchID` keeps the batch's idempotency key, so a retry after a crash re-sends the same key.
///
/// ```swift
/// var state = SyncState()
/// state.pendingBatchID = UUID()
/// // … upload succeeded:
/// state.setAnchor(changes.newAnchor, for: .heartRate)
/// state.pendingBatchID = nil
/// try anchorStore.save(state)
/// ```
public struct SyncState: Hashable, Sendable {
    /// Anchors by type identifier (``HealthObjectType/identifier``).
    ///
    /// ```swift
    /// state.anchors["heartRate"]   // the heart-rate anchor, if any
    /// ```
    public var anchors: [String: HealthQueryAnchor]
    /// The batch prepared and possibly sent but not yet acknowledged; `nil` when nothing is in flight.
    ///
    /// ```swift
    /// let batchID = state.pendingBatchID ?? UUID()   // reuse the key of an unacknowledged batch
    /// ```
    public var pendingBatchID: UUID?

    /// Creates a state; a fresh one has no anchors and no pending batch.
    ///
    /// ```swift
    /// let fresh = SyncState()
    /// ```
    /// - Parameters:
    ///   - anchors: Anchors by type identifier.
    ///   - pendingBatchID: The unacknowledged batch, if any.
    public init(anchors: [String: HealthQueryAnchor] = [:], pendingBatchID: UUID? = nil) {
        self.anchors = anchors
        self.pendingBatchID = pendingBatchID
    }

    /// The anchor stored for `type`, or `nil` when its changes were never sent (query from the beginning).
    ///
    /// ```swift
    /// let changes = try await store.changes(of: .heartRate, since: state.anchor(for: .heartRate))
    /// ```
    /// - Parameter type: The type.
    /// - Returns: The anchor, or `nil`.
    public func anchor(for type: HealthObjectType) -> HealthQueryAnchor? {
        anchors[type.identifier]
    }

    /// Stores `anchor` for `type` (or removes it when `nil`).
    ///
    /// ```swift
    /// state.setAnchor(changes.newAnchor, for: .heartRate)
    /// ```
    /// - Parameters:
    ///   - anchor: The new anchor.
    ///   - type: The type.
    public mutating func setAnchor(_ anchor: HealthQueryAnchor?, for type: HealthObjectType) {
        anchors[type.identifier] = anchor
    }
}

extension SyncState: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, anchors, pendingBatchID
    }

    /// The state-file format version this library writes.
    static let formatVersion = 1

    /// Decodes the state-file form: `{"anchors":{"heartRate":42},"formatVersion":1,"pendingBatchID":"…"}`.
    ///
    /// ```swift
    /// let state = try JSONDecoder().decode(SyncState.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard version <= Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container, debugDescription: "unsupported version \(version)")
        }
        anchors = try container.decode([String: HealthQueryAnchor].self, forKey: .anchors)
        pendingBatchID = try container.decodeIfPresent(UUID.self, forKey: .pendingBatchID)
    }

    /// Encodes the state-file form (see ``init(from:)``).
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(state)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(anchors, forKey: .anchors)
        try container.encodeIfPresent(pendingBatchID, forKey: .pendingBatchID)
    }
}
