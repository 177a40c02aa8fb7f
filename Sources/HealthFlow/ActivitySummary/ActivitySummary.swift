import Foundation

/// One day of activity rings — the counterpart of `HKActivitySummary`.
///
/// A summary names its day by date components (year, month, day and the calendar they count in) and
/// holds the day's move, exercise and stand values with their goals: active energy in kilocalories,
/// move and exercise time in minutes, stand hours as a count. Every quantity is checked when the
/// summary is made (right dimension, finite, not negative), and so is the day.
///
/// Summaries encode with their day as `"YYYY-MM-DD"` (the Health export's form) beside the calendar.
public struct ActivitySummary: Hashable, Sendable {
    /// What the move ring measures: HealthKit has one `HKActivityMoveMode` for the characteristic and the
    /// summaries, and so has HealthFlow.
    @available(*, deprecated, renamed: "ActivityMoveMode")
    public typealias MoveMode = ActivityMoveMode

    /// The day: year, month and day, with the calendar they count in (and nothing else).
    public let dateComponents: DateComponents
    /// Active energy burned that day, in an energy unit.
    public let activeEnergyBurned: HealthQuantity
    /// The day's active energy goal.
    public let activeEnergyBurnedGoal: HealthQuantity
    /// Move minutes that day (for the `appleMoveTime` move mode), in a time unit.
    public let appleMoveTime: HealthQuantity
    /// The day's move-minutes goal.
    public let appleMoveTimeGoal: HealthQuantity
    /// Exercise minutes that day, in a time unit.
    public let appleExerciseTime: HealthQuantity
    /// The day's exercise goal.
    public let exerciseTimeGoal: HealthQuantity
    /// Hours of the day in which the person stood, as a count.
    public let appleStandHours: HealthQuantity
    /// The day's stand-hours goal.
    public let standHoursGoal: HealthQuantity
    /// What the move ring measures that day.
    public let activityMoveMode: ActivityMoveMode
    /// Whether the person paused their rings that day.
    public let isPaused: Bool
    /// The day's interval in its calendar, derived from `dateComponents`.
    private let day: DateInterval

    /// Makes a validated summary.
    ///
    /// - Parameters:
    ///   - dateComponents: The day: a calendar, year, month and day naming a real day. Other components
    ///     are dropped.
    ///   - activeEnergyBurned: Energy (`kcal`, `kJ`, …).
    ///   - activeEnergyBurnedGoal: Energy.
    ///   - appleMoveTime: Time; 0 min by default.
    ///   - appleMoveTimeGoal: Time; 0 min by default.
    ///   - appleExerciseTime: Time; 0 min by default.
    ///   - exerciseTimeGoal: Time; 30 min by default.
    ///   - appleStandHours: A count; 0 by default.
    ///   - standHoursGoal: A count; 12 by default.
    ///   - activityMoveMode: What the move ring measures.
    ///   - isPaused: Whether the rings were paused.
    /// - Throws: `ActivitySummaryError.invalidDateComponents`, `.incompatibleUnit` or `.invalidValue`.
    public init(
        dateComponents: DateComponents, activeEnergyBurned: HealthQuantity, activeEnergyBurnedGoal: HealthQuantity,
        appleMoveTime: HealthQuantity = HealthQuantity(unit: .minute(), doubleValue: 0),
        appleMoveTimeGoal: HealthQuantity = HealthQuantity(unit: .minute(), doubleValue: 0),
        appleExerciseTime: HealthQuantity = HealthQuantity(unit: .minute(), doubleValue: 0),
        exerciseTimeGoal: HealthQuantity = HealthQuantity(unit: .minute(), doubleValue: 30),
        appleStandHours: HealthQuantity = HealthQuantity(unit: .count(), doubleValue: 0),
        standHoursGoal: HealthQuantity = HealthQuantity(unit: .count(), doubleValue: 12),
        activityMoveMode: ActivityMoveMode = .activeEnergy, isPaused: Bool = false
    ) throws(ActivitySummaryError) {
        let day = try CalendarDay(dateComponents)
        let checks: [(String, HealthQuantity, HealthUnit)] = [
            ("activeEnergyBurned", activeEnergyBurned, .kilocalorie()),
            ("activeEnergyBurnedGoal", activeEnergyBurnedGoal, .kilocalorie()),
            ("appleMoveTime", appleMoveTime, .minute()), ("appleMoveTimeGoal", appleMoveTimeGoal, .minute()),
            ("appleExerciseTime", appleExerciseTime, .minute()), ("exerciseTimeGoal", exerciseTimeGoal, .minute()),
            ("appleStandHours", appleStandHours, .count()), ("standHoursGoal", standHoursGoal, .count()),
        ]
        for (field, quantity, unit) in checks {
            guard quantity.is(compatibleWith: unit) else {
                throw .incompatibleUnit(field: field, unit: quantity.unit, expected: unit)
            }
            guard quantity.value.isFinite, quantity.value >= 0 else {
                throw .invalidValue(field: field, value: quantity.value)
            }
        }
        self.dateComponents = day.components
        self.day = day.interval
        self.activeEnergyBurned = activeEnergyBurned
        self.activeEnergyBurnedGoal = activeEnergyBurnedGoal
        self.appleMoveTime = appleMoveTime
        self.appleMoveTimeGoal = appleMoveTimeGoal
        self.appleExerciseTime = appleExerciseTime
        self.exerciseTimeGoal = exerciseTimeGoal
        self.appleStandHours = appleStandHours
        self.standHoursGoal = standHoursGoal
        self.activityMoveMode = activityMoveMode
        self.isPaused = isPaused
    }

    /// The day as `YYYY-MM-DD`, as the Health app's export writes it.
    public var dateString: String { Self.format(dateComponents) }

    /// The day's start and end (the next day's start) in its calendar; 23 or 25 hours long on days when
    /// the clocks change.
    public var dateInterval: DateInterval { day }

    /// `YYYY-MM-DD`, with `?` for a missing field.
    static func format(_ components: DateComponents) -> String {
        func pad(_ value: Int?, _ width: Int) -> String {
            guard let value else { return String(repeating: "?", count: width) }
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(components.year, 4))-\(pad(components.month, 2))-\(pad(components.day, 2))"
    }
}

extension ActivitySummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case date, calendar, activeEnergyBurned, activeEnergyBurnedGoal, appleMoveTime, appleMoveTimeGoal
        case appleExerciseTime, exerciseTimeGoal, appleStandHours, standHoursGoal, activityMoveMode, isPaused
    }

    /// Decodes and validates a summary whose day is `"YYYY-MM-DD"`.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` for a malformed day or an invalid value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .date)
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: container, debugDescription: "activity summary date \"\(text)\" is not YYYY-MM-DD")
        }
        let calendar = try container.decode(Calendar.self, forKey: .calendar)
        do {
            try self.init(
                dateComponents: DateComponents(calendar: calendar, year: year, month: month, day: day),
                activeEnergyBurned: try container.decode(HealthQuantity.self, forKey: .activeEnergyBurned),
                activeEnergyBurnedGoal: try container.decode(HealthQuantity.self, forKey: .activeEnergyBurnedGoal),
                appleMoveTime: try container.decode(HealthQuantity.self, forKey: .appleMoveTime),
                appleMoveTimeGoal: try container.decode(HealthQuantity.self, forKey: .appleMoveTimeGoal),
                appleExerciseTime: try container.decode(HealthQuantity.self, forKey: .appleExerciseTime),
                exerciseTimeGoal: try container.decode(HealthQuantity.self, forKey: .exerciseTimeGoal),
                appleStandHours: try container.decode(HealthQuantity.self, forKey: .appleStandHours),
                standHoursGoal: try container.decode(HealthQuantity.self, forKey: .standHoursGoal),
                activityMoveMode: try container.decode(ActivityMoveMode.self, forKey: .activityMoveMode),
                isPaused: try container.decode(Bool.self, forKey: .isPaused))
        } catch let error as ActivitySummaryError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the day as `"YYYY-MM-DD"`, the calendar, and every value.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dateString, forKey: .date)
        try container.encode(dateComponents.calendar ?? Calendar(identifier: .gregorian), forKey: .calendar)
        try container.encode(activeEnergyBurned, forKey: .activeEnergyBurned)
        try container.encode(activeEnergyBurnedGoal, forKey: .activeEnergyBurnedGoal)
        try container.encode(appleMoveTime, forKey: .appleMoveTime)
        try container.encode(appleMoveTimeGoal, forKey: .appleMoveTimeGoal)
        try container.encode(appleExerciseTime, forKey: .appleExerciseTime)
        try container.encode(exerciseTimeGoal, forKey: .exerciseTimeGoal)
        try container.encode(appleStandHours, forKey: .appleStandHours)
        try container.encode(standHoursGoal, forKey: .standHoursGoal)
        try container.encode(activityMoveMode, forKey: .activityMoveMode)
        try container.encode(isPaused, forKey: .isPaused)
    }
}
