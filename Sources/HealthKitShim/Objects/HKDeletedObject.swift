import Foundation
import HealthFlow

/// A deleted sample, as anchored queries report it: its UUID and sync metadata.
///
/// ```swift
/// for deleted in deletedObjects ?? [] { forget(deleted.uuid) }
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKDeletedObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowObject: HealthDeletedObject

    init(healthFlowObject: HealthDeletedObject) {
        self.healthFlowObject = healthFlowObject
    }

    /// The deleted object's UUID.
    ///
    /// ```swift
    /// deleted.uuid
    /// ```
    public var uuid: UUID { healthFlowObject.uuid }

    /// The deleted object's sync identifier and version, when it had them.
    ///
    /// ```swift
    /// deleted.metadata?[HKMetadataKeySyncIdentifier] as? String
    /// ```
    public var metadata: [String: Any]? { ShimMetadata.healthKit(healthFlowObject.metadata) }
}

/// A position in the database's history of changes, returned by anchored queries.
///
/// ```swift
/// HKAnchoredObjectQuery(type: type, predicate: nil, anchor: savedAnchor, limit: HKObjectQueryNoLimit) { _, _, _, next, _ in }
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKQueryAnchor: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowAnchor: HealthQueryAnchor

    init(healthFlowAnchor: HealthQueryAnchor) {
        self.healthFlowAnchor = healthFlowAnchor
    }

    /// An anchor from the integer value of HealthKit's earlier anchored API.
    ///
    /// ```swift
    /// let start = HKQueryAnchor(fromValue: 0)
    /// ```
    public convenience init(fromValue value: Int) {
        self.init(healthFlowAnchor: HealthQueryAnchor(sequence: UInt64(max(0, value))))
    }

    /// Anchors are equal when they mark the same position.
    ///
    /// ```swift
    /// HKQueryAnchor(fromValue: 3) == HKQueryAnchor(fromValue: 3)   // true
    /// ```
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQueryAnchor)?.healthFlowAnchor == healthFlowAnchor
    }

    /// A hash consistent with equality.
    ///
    /// ```swift
    /// let anchors: Set<HKQueryAnchor> = [HKQueryAnchor(fromValue: 3)]
    /// ```
    public override var hash: Int { healthFlowAnchor.hashValue }
}
