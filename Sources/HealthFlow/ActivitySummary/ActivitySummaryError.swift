import Foundation

/// Why an activity summary, goal, predicate or derivation could not be made; each description names the
/// field or date at fault.
public enum ActivitySummaryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Date components lack a calendar, year, month or day, or name a day that does not exist.
    case invalidDateComponents(DateComponents, reason: String)
    /// A quantity's unit does not measure what the field measures (energy, time or count).
    case incompatibleUnit(field: String, unit: HealthUnit, expected: HealthUnit)
    /// A value is NaN, infinite or negative.
    case invalidValue(field: String, value: Double)
    /// A day range ends before it starts.
    case invalidDayRange(start: DateComponents, end: DateComponents)
    /// Summing the day's samples failed.
    case statistics(StatisticsError)

    /// A readable message naming the field or date.
    public var description: String {
        switch self {
        case .invalidDateComponents(let components, let reason):
            return "date components \(ActivitySummary.format(components)) are invalid: \(reason)"
        case .incompatibleUnit(let field, let unit, let expected):
            return "\(field) requires a unit compatible with \(expected.unitString); got \(unit.unitString)"
        case .invalidValue(let field, let value):
            return "\(field) must be finite and not negative; got \(value)"
        case .invalidDayRange(let start, let end):
            return "day range \(ActivitySummary.format(start)) – \(ActivitySummary.format(end)) ends before it starts"
        case .statistics(let error):
            return "activity summary statistics failed: \(error)"
        }
    }
}
