import Foundation

/// Selects activity summaries by calendar day, both ends included — the counterpart of HealthKit's
/// `predicate(forActivitySummariesBetweenStart:end:)` and `predicateForActivitySummary(with:)`.
///
/// Date components must carry a calendar, a year, a month and a day naming a real day (HealthKit raises
/// an exception otherwise; we throw). A summary matches when the middle of its day (noon in its own
/// calendar) falls within the predicate's days in the predicate's calendar, so summaries and predicates
/// in the same calendar compare day by day exactly.
public struct ActivitySummaryPredicate: Hashable, Sendable {
    /// The first day, normalised to calendar, year, month and day.
    public let start: DateComponents
    /// The last day (included), normalised to calendar, year, month and day.
    public let end: DateComponents
    /// From the start of the first day to the end of the last.
    let interval: DateInterval

    /// Selects the days from `start` through `end`.
    ///
    /// - Parameters:
    ///   - start: The first day, with a calendar.
    ///   - end: The last day, with a calendar.
    /// - Throws: `ActivitySummaryError.invalidDateComponents`, or `.invalidDayRange` when `end` is before `start`.
    public init(start: DateComponents, end: DateComponents) throws(ActivitySummaryError) {
        let first = try CalendarDay(start)
        let last = try CalendarDay(end)
        guard last.interval.end > first.interval.start else { throw .invalidDayRange(start: start, end: end) }
        self.start = first.components
        self.end = last.components
        self.interval = DateInterval(start: first.interval.start, end: last.interval.end)
    }

    /// Selects one day.
    ///
    /// - Parameter day: The day, with a calendar.
    /// - Throws: `ActivitySummaryError.invalidDateComponents`.
    public init(day: DateComponents) throws(ActivitySummaryError) {
        try self.init(start: day, end: day)
    }

    /// Whether the summary's day is one of the predicate's days.
    ///
    /// - Parameter summary: A summary.
    /// - Returns: `true` when it matches.
    public func evaluate(_ summary: ActivitySummary) -> Bool {
        let day = summary.dateInterval
        let middle = day.start.addingTimeInterval(day.duration / 2)
        return middle >= interval.start && middle < interval.end
    }

    /// The matching summaries, ascending by day (HealthKit's order for activity summary queries).
    ///
    /// - Parameter summaries: Summaries in any order.
    /// - Returns: Those that match, sorted by day start.
    /// - Complexity: O(n log n).
    public func filter(_ summaries: [ActivitySummary]) -> [ActivitySummary] {
        summaries.filter(evaluate).sorted { $0.dateInterval.start < $1.dateInterval.start }
    }
}
