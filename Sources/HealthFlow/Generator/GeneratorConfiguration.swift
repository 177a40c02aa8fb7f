import Foundation

/// What the synthetic data generator produces: how many days, from when, in which calendar, how finely
/// steps are recorded, from which seed, and for which sources.
public struct GeneratorConfiguration: Hashable, Sendable {
    /// How finely steps and distance are recorded.
    public enum StepResolution: String, CaseIterable, Hashable, Sendable, Codable {
        /// One step sample per minute of every day, zero-step minutes included, so a day holds exactly
        /// as many samples as it has minutes (1,440; 1,380 or 1,500 when the clocks change).
        case minute
        /// One step sample per hour of every day, zero-step hours included.
        case hour

        /// The slot length in minutes.
        var minutes: Int {
            switch self {
            case .minute: 1
            case .hour: 60
            }
        }
    }

    /// The number of days, from 1 to 36,600.
    public var days: Int
    /// The seed: the same configuration always produces the same data, UUIDs included.
    public var seed: UInt64
    /// A date in the first day; data starts at that day's midnight in `calendar`.
    public var startDate: Date
    /// The calendar and time zone whose days, hours and weekends shape the data.
    public var calendar: Calendar
    /// How finely steps and distance are recorded.
    public var stepResolution: StepResolution
    /// The goals written into the activity summaries.
    public var goals: ActivitySummaryGoals
    /// The phone: steps, distance and time in bed.
    public var phone: HealthSource
    /// The watch: energy, exercise, stand, heart rate and sleep stages.
    public var watch: HealthSource
    /// Measuring devices: body mass, height, blood pressure and blood glucose.
    public var devices: HealthSource

    /// 2024-01-01 00:00:00 UTC.
    static let defaultStart = Date(timeIntervalSince1970: 1_704_067_200)

    /// A Gregorian calendar in UTC.
    static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }

    /// Makes a configuration; everything but the number of days has a default.
    ///
    /// - Parameters:
    ///   - days: The number of days (checked when generating: 1 to 36,600).
    ///   - seed: The seed.
    ///   - startDate: A date in the first day; 2024-01-01 UTC by default.
    ///   - calendar: The calendar; Gregorian in UTC by default.
    ///   - stepResolution: `.hour` by default (small data); `.minute` for benchmark-sized data.
    ///   - goals: The activity goals; the Activity app's defaults when `nil`.
    ///   - phone: The phone source.
    ///   - watch: The watch source.
    ///   - devices: The measuring devices' source.
    public init(
        days: Int, seed: UInt64 = 1, startDate: Date? = nil, calendar: Calendar? = nil,
        stepResolution: StepResolution = .hour, goals: ActivitySummaryGoals? = nil,
        phone: HealthSource = HealthSource(bundleIdentifier: "com.apple.health.iphone", name: "iPhone"),
        watch: HealthSource = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch"),
        devices: HealthSource = HealthSource(bundleIdentifier: "com.example.health.devices", name: "Health Devices")
    ) {
        self.days = days
        self.seed = seed
        self.startDate = startDate ?? Self.defaultStart
        self.calendar = calendar ?? Self.utcCalendar
        self.stepResolution = stepResolution
        self.goals = goals ?? .standard
        self.phone = phone
        self.watch = watch
        self.devices = devices
    }
}
