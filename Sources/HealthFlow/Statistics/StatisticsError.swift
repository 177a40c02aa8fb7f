import Foundation

/// Why statistics could not be computed; each description names the type, option or value at fault.
///
/// Where HealthKit raises an exception ("Statistics option … is not compatible with … data type"), the
/// statistics engine throws one of these instead.
public enum StatisticsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Statistics apply to quantity types only; this type is a category, correlation, … type.
    case notAQuantityType(HealthObjectType)
    /// The option does not suit the type's aggregation style (an average of steps, a sum of heart rates).
    case incompatibleOption(StatisticsOptions, type: HealthObjectType)
    /// The options hold bits no option uses.
    case unknownOptions(rawValue: UInt)
    /// A sample of another type was passed in.
    case sampleTypeMismatch(expected: HealthObjectType, found: HealthObjectType, uuid: UUID)
    /// A sample's quantity could not be read in the type's canonical unit.
    case unitConversion(HealthObjectType, UnitError)
    /// A date range is not finite or ends before it starts.
    case invalidDateRange(start: Date, end: Date)
    /// Interval components must be non-negative, use only year, month, weekOfYear, weekOfMonth, day, hour,
    /// minute, second or nanosecond, and advance the calendar.
    case invalidIntervalComponents(DateComponents, reason: String)
    /// The calendar could not compute an interval boundary (a date out of its range).
    case calendarArithmeticFailed(anchor: Date, intervalIndex: Int)
    /// The range holds more intervals than a collection computes at once.
    case tooManyIntervals(limit: Int)

    /// A readable message naming what is wrong.
    public var description: String {
        switch self {
        case .notAQuantityType(let type):
            return "Statistics require a quantity type; \(type) is a \(type.kind.rawValue) type"
        case .incompatibleOption(let option, let type):
            let style = type.aggregationStyle?.isCumulative == true ? "cumulative" : "discrete"
            return "Statistics option \(option.name) is not compatible with \(style) data type \(type)"
        case .unknownOptions(let rawValue):
            return "Statistics options contain unknown bits 0x\(String(rawValue, radix: 16))"
        case .sampleTypeMismatch(let expected, let found, let uuid):
            return "Statistics for \(expected) cannot include \(found) sample \(uuid.uuidString)"
        case .unitConversion(let type, let error):
            return "Statistics for \(type) cannot read a sample in its canonical unit: \(error)"
        case .invalidDateRange(let start, let end):
            return "date range \(start.errorText) – \(end.errorText) must be finite and must not end before it starts"
        case .invalidIntervalComponents(let components, let reason):
            return "interval components \(components) are invalid: \(reason)"
        case .calendarArithmeticFailed(let anchor, let index):
            return "the calendar cannot compute interval \(index) from anchor \(anchor.errorText)"
        case .tooManyIntervals(let limit):
            return "the range holds more than \(limit) intervals"
        }
    }
}
