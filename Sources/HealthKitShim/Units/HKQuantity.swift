import Foundation
import HealthFlow

/// An amount in a unit, backed by HealthFlow's `HealthQuantity`. Reading it in an incompatible unit raises,
/// as in HealthKit.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKQuantity: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowQuantity: HealthQuantity

    init(healthFlowQuantity: HealthQuantity) {
        self.healthFlowQuantity = healthFlowQuantity
    }

    /// An amount of `value` in `unit`.
    public convenience init(unit: HKUnit, doubleValue value: Double) {
        self.init(healthFlowQuantity: HealthQuantity(unit: unit.healthFlowUnit, doubleValue: value))
    }

    /// Whether the amount can be read in `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        healthFlowQuantity.is(compatibleWith: unit.healthFlowUnit)
    }

    /// The amount in `unit`; an incompatible unit raises "Attempt to convert incompatible units", as in
    /// HealthKit.
    public func doubleValue(for unit: HKUnit) -> Double {
        do {
            return try healthFlowQuantity.doubleValue(for: unit.healthFlowUnit)
        } catch {
            HKShimException.raise(
                "Attempt to convert incompatible units: \(healthFlowQuantity.unit.unitString), \(unit.unitString)")
        }
    }

    /// Orders two compatible quantities; incompatible ones raise, as in HealthKit.
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        let mine = doubleValue(for: HKUnit(healthFlowUnit: quantity.healthFlowQuantity.unit))
        let theirs = quantity.healthFlowQuantity.value
        return mine < theirs ? .orderedAscending : mine > theirs ? .orderedDescending : .orderedSame
    }

    /// Quantities are equal when they hold the same value in the same unit.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQuantity)?.healthFlowQuantity == healthFlowQuantity
    }

    /// A hash consistent with equality.
    public override var hash: Int { healthFlowQuantity.hashValue }

    /// Value and unit, e.g. `180 cm`.
    public override var description: String { healthFlowQuantity.description }
}
