/// The errors of the unit layer: parsing a unit string, building a unit, and converting between units.
///
/// Each case quotes the offending input so that the message alone explains the problem.
public enum UnitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The unit string does not follow HealthKit's grammar; `reason` says what is wrong.
    case malformed(String, reason: String)
    /// The unit string is well formed but names a unit HealthKit does not know, such as `ug` or `hour`.
    case unknownUnit(String)
    /// A molar mass (grams per mole) that is not a finite, positive number.
    case invalidMolarMass(Double)
    /// The two units measure different dimensions, so no conversion exists (HealthKit: "Attempt to convert
    /// incompatible units").
    case incompatible(from: HealthUnit, to: HealthUnit)

    /// A readable message that quotes the input, for logs and error reports.
    public var description: String {
        switch self {
        case .malformed(let input, let reason):
            "unit string \"\(input)\" is malformed: \(reason)"
        case .unknownUnit(let name):
            "unknown unit \"\(name)\""
        case .invalidMolarMass(let molarMass):
            "molar mass \(molarMass) g/mol is not a finite, positive number"
        case .incompatible(let from, let to):
            "cannot convert \(from.unitString) (\(from.dimension)) to \(to.unitString) (\(to.dimension)): "
                + "incompatible units"
        }
    }
}
