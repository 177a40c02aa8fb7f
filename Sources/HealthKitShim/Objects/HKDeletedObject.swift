import Foundation
import HealthFlow

/// A deleted sample, as anchored queries report it: its UUID and sync metadata.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKDeletedObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowObject: HealthDeletedObject

    init(healthFlowObject: HealthDeletedObject) {
        self.healthFlowObject = healthFlowObject
    }

    /// The deleted object's UUID.
    public var uuid: UUID { healthFlowObject.uuid }

    /// The deleted object's sync identifier and version, when it had them.
    public var metadata: [String: Any]? { ShimMetadata.healthKit(healthFlowObject.metadata) }
}

/// A position in the database's history of changes, returned by anchored queries.
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
    public convenience init(fromValue value: Int) {
        self.init(healthFlowAnchor: HealthQueryAnchor(sequence: UInt64(max(0, value))))
    }

    /// Anchors are equal when they mark the same position.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQueryAnchor)?.healthFlowAnchor == healthFlowAnchor
    }

    /// A hash consistent with equality.
    public override var hash: Int { healthFlowAnchor.hashValue }

    /// Anchors decode only as anchors from a secure archive.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the anchor's position.
    ///
    /// - Parameter coder: The archiver.
    public func encode(with coder: NSCoder) {
        coder.encode(Int64(bitPattern: healthFlowAnchor.sequence), forKey: Self.positionKey)
    }

    /// Restores an archived anchor; `nil` when the archive holds no position.
    ///
    /// - Parameter coder: The unarchiver.
    public init?(coder: NSCoder) {
        guard coder.containsValue(forKey: Self.positionKey) else { return nil }
        healthFlowAnchor = HealthQueryAnchor(sequence: UInt64(bitPattern: coder.decodeInt64(forKey: Self.positionKey)))
    }

    /// The anchor itself: anchors are immutable.
    ///
    /// - Parameter zone: Ignored.
    /// - Returns: This anchor.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    private static let positionKey = "position"
}
