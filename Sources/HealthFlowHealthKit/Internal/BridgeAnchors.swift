import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow anchors for HealthKit's opaque ones. Every anchor the bridge hands out carries the archived
/// `HKQueryAnchor` (it adopts `NSSecureCoding`) as its opaque payload, so an anchor persisted by an earlier
/// launch resumes where it left off. The table spares unarchiving the anchors this store has already met.
struct BridgeAnchors {
    private var known: [HealthQueryAnchor: HKQueryAnchor] = [:]
    private var next: UInt64 = 1

    /// The HealthFlow anchor for an anchor HealthKit returned: the next number, with HealthKit's archived.
    mutating func healthFlow(_ anchor: HKQueryAnchor) -> HealthQueryAnchor {
        defer { next += 1 }
        // Archiving an HKQueryAnchor does not fail; should it, the anchor still works in this launch.
        let archived = try? NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        let healthFlowAnchor = HealthQueryAnchor(sequence: next, opaque: archived)
        known[healthFlowAnchor] = anchor
        return healthFlowAnchor
    }

    /// HealthKit's anchor behind a HealthFlow anchor. An anchor without a payload (another store's, or one
    /// persisted before anchors carried HealthKit's) counts as `nil`, so everything is read again.
    ///
    /// - Throws: ``HealthStoreError/unreadableAnchor(_:)`` when the payload is not an archived `HKQueryAnchor`.
    mutating func healthKit(_ anchor: HealthQueryAnchor?) throws(HealthStoreError) -> HKQueryAnchor? {
        guard let anchor else { return nil }
        if let known = known[anchor] { return known }
        guard let opaque = anchor.opaque else { return nil }
        guard let restored = try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: opaque)
        else { throw .unreadableAnchor(anchor) }
        known[anchor] = restored
        // Anchors handed out after a resumed one keep counting up from it.
        next = max(next, anchor.sequence &+ 1)
        return restored
    }
}
