import Foundation
import HealthFlow

/// A unit of measure with HealthKit's unit-string grammar (`"cm"`, `"count/min"`, `"mg/dL"`), backed by
/// HealthFlow's `HealthUnit`.
///
/// ```swift
/// let perMinute = HKUnit.count().unitDivided(by: .minute())
/// let same = HKUnit(from: "count/min")
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public class HKUnit: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowUnit: HealthUnit

    required init(healthFlowUnit: HealthUnit) {
        self.healthFlowUnit = healthFlowUnit
    }

    /// Parses a unit string; an unparsable string raises, as in HealthKit.
    ///
    /// ```swift
    /// let glucose = HKUnit(from: "mg/dL")
    /// ```
    public convenience init(from string: String) {
        do {
            self.init(healthFlowUnit: try HealthUnit(from: string))
        } catch {
            HKShimException.raise("Unable to parse unit string \"\(string)\"")
        }
    }

    /// The unit's canonical string.
    ///
    /// ```swift
    /// HKUnit.meterUnit(with: .centi).unitString   // "cm"
    /// ```
    public var unitString: String { healthFlowUnit.unitString }

    /// Whether this is the unitless unit.
    ///
    /// ```swift
    /// HKUnit.count().unitDivided(by: .count()).isNull()   // true
    /// ```
    public func isNull() -> Bool { healthFlowUnit.isUnitless }

    /// This unit times `unit`.
    ///
    /// ```swift
    /// let kgMin = HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute())
    /// ```
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitMultiplied(by: unit.healthFlowUnit))
    }

    /// This unit divided by `unit`.
    ///
    /// ```swift
    /// let bpm = HKUnit.count().unitDivided(by: .minute())
    /// ```
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitDivided(by: unit.healthFlowUnit))
    }

    /// This unit raised to an integer power.
    ///
    /// ```swift
    /// let squareMeters = HKUnit.meter().unitRaised(toPower: 2)
    /// ```
    public func unitRaised(toPower power: Int) -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.unitRaised(toPower: power))
    }

    /// One over this unit.
    ///
    /// ```swift
    /// let perSecond = HKUnit.second().reciprocal()
    /// ```
    public func reciprocal() -> HKUnit {
        HKUnit(healthFlowUnit: healthFlowUnit.reciprocal())
    }

    /// Units are equal when their normalised strings are.
    ///
    /// ```swift
    /// HKUnit(from: "cm") == HKUnit.meterUnit(with: .centi)   // true
    /// ```
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKUnit)?.healthFlowUnit == healthFlowUnit
    }

    /// A hash consistent with equality.
    ///
    /// ```swift
    /// let units: Set<HKUnit> = [.meter(), .gram()]
    /// ```
    public override var hash: Int { healthFlowUnit.hashValue }

    /// The unit string.
    ///
    /// ```swift
    /// print(HKUnit.meter())   // m
    /// ```
    public override var description: String { unitString }
}
