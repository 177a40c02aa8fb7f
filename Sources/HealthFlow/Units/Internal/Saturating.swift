/// Integer arithmetic on unit exponents that saturates at the bounds of `Int` instead of trapping.
///
/// Exponents come from caller data (`m^9223372036854775807`, `unitRaised(toPower:)`); a unit with a
/// saturated exponent is meaningless, but the library must never crash on what a caller hands it.
enum Saturating {
    static func add(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        guard overflow else { return sum }
        return rhs > 0 ? Int.max : Int.min
    }

    static func multiply(_ lhs: Int, _ rhs: Int) -> Int {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        guard overflow else { return product }
        return (lhs < 0) == (rhs < 0) ? Int.max : Int.min
    }

    static func negate(_ value: Int) -> Int {
        value == Int.min ? Int.max : -value
    }
}
