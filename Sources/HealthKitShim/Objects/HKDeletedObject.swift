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
/// Like HealthKit's, it adopts `NSSecureCoding`, so an app can archive one and resume in a later launch.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
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

    /// Anchors decode only as anchors from a secure archive.
    ///
    /// ```swift
    /// let anchor = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    /// ```
    public static var supportsSecureCoding: Bool { true }

    /// Archives the anchor's position.
    ///
    /// ```swift
    /// let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
    /// ```
    ///
    /// - Parameter coder: The archiver.
    public func encode(with coder: NSCoder) {
        coder.encode(Int64(bitPattern: healthFlowAnchor.sequence), forKey: Self.positionKey)
    }

    /// Restores an archived anchor; `nil` when the archive holds no position.
    ///
    /// ```swift
    /// let anchor = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    /// ```
    ///
    /// - Parameter coder: The unarchiver.
    public init?(coder: NSCoder) {
        guard coder.containsValue(forKey: Self.positionKey) else { return nil }
        healthFlowAnchor = HealthQueryAnchor(sequence: UInt64(bitPattern: coder.decodeInt64(forKey: Self.positionKey)))
    }

    /// The anchor itself: anchors are immutable.
    ///
    /// ```swift
    /// let same = anchor.copy() as! HKQueryAnchor
    /// ```
    ///
    /// - Parameter zone: Ignored.
    /// - Returns: This anchor.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    private static let positionKey = "position"
}
