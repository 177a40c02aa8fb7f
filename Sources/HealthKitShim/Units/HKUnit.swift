import Foundation
import HealthFlow

/// A unit of measure with HealthKit's unit-string grammar (`"cm"`, `"count/min"`, `"mg/dL"`), backed by
/// HealthFlow's `HealthUnit`.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public class HKUnit: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowUnit: HealthUnit

    required init(healthFlowUnit: HealthUnit) {
        self.healthFlowUnit = healthFlowUnit
    }

    /// Parses a unit string; an unparsable string raises, as in HealthKit.
    public convenience init(from string: String) {
        do {
            self.init(healthFlowUnit: try HealthUnit(from: string))
        } catch {
            HKShimException.raise("Unable to parse unit string \"\(string)\"")
        }
    }

    /// The unit's canonical string.
    public var unitString: String { healthFlowUnit.unitString }

    /// Whether this is the unitless unit.
    public func isNull() -> Bool { healthFlowUnit.isUnitless }

    /// This unit times `unit`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitMultiplied(by: unit.healthFlowUnit))
    }

    /// This unit divided by `unit`.
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitDivided(by: unit.healthFlowUnit))
    }

    /// This unit raised to an integer power.
    public func unitRaised(toPower power: Int) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitRaised(toPower: power))
    }

    /// One over this unit.
    public func reciprocal() -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.reciprocal())
    }

    /// Units are equal when their normalised strings are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKUnit)?.healthFlowUnit == healthFlowUnit
    }

    /// A hash consistent with equality.
    public override var hash: Int { healthFlowUnit.hashValue }

    /// The unit string.
    public override var description: String { unitString }
}
