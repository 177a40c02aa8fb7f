import Foundation

/// The tombstone a deletion leaves — the counterpart of `HKDeletedObject`: the deleted object's UUID
/// and the metadata needed to sync the deletion (such as `syncIdentifier` and `syncVersion`).
///
/// Anchored queries report these beside new samples so a client can drop what it mirrored.
public struct HealthDeletedObject: Hashable, Sendable, Codable {
    /// The UUID of the deleted object.
    public let uuid: UUID
    /// Metadata kept for sync; often empty.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a tombstone.
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
    /// - Parameter sample: The sample being deleted.
    public init(deleting sample: HealthSample) {
        let kept: Set<MetadataKey> = [.syncIdentifier, .syncVersion, .externalUUID]
        self.init(uuid: sample.uuid, metadata: sample.metadata.filter { kept.contains($0.key) })
    }
}
