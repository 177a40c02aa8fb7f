import Foundation

/// A checked calendar day: components holding exactly a calendar, year, month and day that name a day
/// which exists, with that day's interval.
struct CalendarDay: Hashable, Sendable {
    let components: DateComponents
    let calendar: Calendar
    let interval: DateInterval

    /// - Parameters:
    ///   - components: The day.
    ///   - fallback: The calendar to use when the components carry none; without one, a calendar is required.
    init(_ components: DateComponents, fallback: Calendar? = nil) throws(ActivitySummaryError) {
        guard let calendar = components.calendar ?? fallback else {
            throw .invalidDateComponents(components, reason: "a calendar is required")
        }
        guard let year = components.year, let month = components.month, let day = components.day else {
            throw .invalidDateComponents(components, reason: "year, month and day are required")
        }
        let normalized = DateComponents(calendar: calendar, year: year, month: month, day: day)
        guard let date = calendar.date(from: normalized),
            calendar.dateComponents([.year, .month, .day], from: date)
                == DateComponents(year: year, month: month, day: day),
            let interval = calendar.dateInterval(of: .day, for: date)
        else {
            throw .invalidDateComponents(components, reason: "no such day in the \(calendar.identifier) calendar")
        }
        self.components = normalized
        self.calendar = calendar
        self.interval = interval
    }

    /// The day containing `date` in `calendar`.
    init?(containing date: Date, in calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard
            let day = try? CalendarDay(
                DateComponents(calendar: calendar, year: parts.year, month: parts.month, day: parts.day))
        else { return nil }
        self = day
    }
}
