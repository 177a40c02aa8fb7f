import Foundation

/// Reads quantities of one type in its canonical unit, the statistics' unit: the same value, bit for bit, as
/// `HealthQuantity.doubleValue(for:)`, with the dimension check paid only when a quantity's unit differs from the
/// last one that passed it (a type's samples mostly share one unit).
struct CanonicalValueReader: Sendable {
    /// The unit every value is read in.
    let unit: HealthUnit
    /// The last unit found to convert to ``unit``.
    private var checkedUnit: HealthUnit?

    init(unit: HealthUnit) {
        self.unit = unit
    }

    /// `quantity`'s value in ``unit``.
    /// - Throws: `UnitError.incompatible(from:to:)` when its unit has another dimension.
    mutating func value(of quantity: HealthQuantity) throws(UnitError) -> Double {
        if quantity.unit == checkedUnit {
            return HealthUnit.convertKnownCompatible(quantity.value, from: quantity.unit, to: unit)
        }
        let value = try quantity.doubleValue(for: unit)
        checkedUnit = quantity.unit
        return value
    }
}
