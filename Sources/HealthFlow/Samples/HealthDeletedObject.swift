import Foundation

/// The tombstone a deletion leaves — the counterpart of `HKDeletedObject`: the deleted object's UUID
/// and the metadata needed to sync the deletion (such as `syncIdentifier` and `syncVersion`).
///
/// Anchored queries report these beside new samples so a client can drop what it mirrored.
///
/// ```swift
/// let tombstone = HealthDeletedObject(uuid: sample.uuid, metadata: [.syncIdentifier: "meal-42", .syncVersion: 3])
/// ```
public struct HealthDeletedObject: Hashable, Sendable, Codable {
    /// The UUID of the deleted object.
    ///
    /// ```swift
    /// tombstone.uuid
    /// ```
    public let uuid: UUID
    /// Metadata kept for sync; often empty.
    ///
    /// ```swift
    /// tombstone.metadata[.syncIdentifier]   // .string("meal-42")
    /// ```
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a tombstone.
    ///
    /// ```swift
    /// let tombstone = HealthDeletedObject(uuid: sample.uuid)
    /// ```
    ///
    /// - Parameters:
    ///   - uuid: The UUID of the deleted object.
    ///   - metadata: Metadata kept for sync.
    public init(uuid: UUID, metadata: [MetadataKey: MetadataValue] = [:]) {
        self.uuid = uuid
        self.metadata = metadata
    }

    /// Makes the tombstone of a sample, keeping its sync metadata (`syncIdentifier`, `syncVersion`,
    /// `externalUUID`) as HealthKit does.
    ///
    /// ```swift
    /// let tombstone = HealthDeletedObject(deleting: .quantity(steps))
    /// ```
    ///
    /// - Parameter sample: The sample being deleted.
    public init(deleting sample: HealthSample) {
        let kept: Set<MetadataKey> = [.syncIdentifier, .syncVersion, .externalUUID]
        self.init(uuid: sample.uuid, metadata: sample.metadata.filter { kept.contains($0.key) })
    }
}
