import Foundation

/// Contiguous intervals of equal calendar length anchored at a date: interval `k` starts at
/// `anchor + k × components` (computed by multiplying the components, never by repeated addition, so
/// monthly intervals anchored on the 31st keep returning to the 31st where the month has one).
struct IntervalGrid: Sendable {
    let anchor: Date
    let components: DateComponents
    let calendar: Calendar
    /// The length of interval 0 in seconds, to estimate indices.
    private let approximateLength: Double

    init(anchor: Date, components: DateComponents, calendar: Calendar) throws(StatisticsError) {
        guard anchor.timeIntervalSinceReferenceDate.isFinite else {
            throw .invalidDateRange(start: anchor, end: anchor)
        }
        let unsupported: [(String, Int?)] = [
            ("era", components.era), ("weekday", components.weekday), ("weekdayOrdinal", components.weekdayOrdinal),
            ("quarter", components.quarter), ("yearForWeekOfYear", components.yearForWeekOfYear),
        ]
        for (name, value) in unsupported where value != nil {
            throw .invalidIntervalComponents(components, reason: "\(name) is not supported")
        }
        let values = Self.fields.compactMap { components[keyPath: $0] }
        guard values.allSatisfy({ $0 >= 0 }) else {
            throw .invalidIntervalComponents(components, reason: "components must not be negative")
        }
        guard values.contains(where: { $0 > 0 }) else {
            throw .invalidIntervalComponents(components, reason: "at least one component must be positive")
        }
        let probe = IntervalGrid(anchor: anchor, components: components, calendar: calendar, length: 1)
        let length = try probe.start(of: 1).timeIntervalSince(anchor)
        guard length > 0 else {
            throw .invalidIntervalComponents(components, reason: "the interval does not advance the calendar")
        }
        self.init(anchor: anchor, components: components, calendar: calendar, length: length)
    }

    private init(anchor: Date, components: DateComponents, calendar: Calendar, length: Double) {
        self.anchor = anchor
        self.components = components
        self.calendar = calendar
        self.approximateLength = length
    }

    private static var fields: [WritableKeyPath<DateComponents, Int?>] {
        [
            \.year, \.month, \.weekOfYear, \.weekOfMonth, \.day, \.hour, \.minute, \.second, \.nanosecond,
        ]
    }

    /// The start of interval `index` (interval 0 starts at the anchor).
    func start(of index: Int) throws(StatisticsError) -> Date {
        if index == 0 { return anchor }
        var scaled = DateComponents()
        for field in Self.fields {
            guard let value = components[keyPath: field] else { continue }
            let (product, overflow) = value.multipliedReportingOverflow(by: index)
            guard !overflow, product >= Int(Int32.min), product <= Int(Int32.max) || field == \.nanosecond else {
                throw .calendarArithmeticFailed(anchor: anchor, intervalIndex: index)
            }
            scaled[keyPath: field] = product
        }
        guard let date = calendar.date(byAdding: scaled, to: anchor) else {
            throw .calendarArithmeticFailed(anchor: anchor, intervalIndex: index)
        }
        return date
    }

    /// How far the search strays from its estimate before giving up on a calendar that does not advance.
    private static let maximumStep = 1 << 40

    /// The index of the interval containing `date`: `start(of: k) <= date < start(of: k + 1)`.
    ///
    /// - Complexity: O(log d) calendar computations, d the distance from the estimate.
    func index(containing date: Date) throws(StatisticsError) -> Int {
        let offset = date.timeIntervalSince(anchor)
        guard offset.isFinite else { throw .invalidDateRange(start: date, end: date) }
        let estimate = (offset / approximateLength).rounded(.down)
        guard abs(estimate) < 1e12 else { throw .calendarArithmeticFailed(anchor: anchor, intervalIndex: Int.max) }
        let guess = Int(estimate)
        var lower: Int
        var upper: Int
        // Gallop from the guess until start(lower) <= date < start(upper).
        if try start(of: guess) > date {
            upper = guess
            var step = 1
            lower = guess - step
            while try start(of: lower) > date {
                guard step < Self.maximumStep else {
                    throw .calendarArithmeticFailed(anchor: anchor, intervalIndex: lower)
                }
                upper = lower
                step *= 2
                lower = guess - step
            }
        } else {
            lower = guess
            var step = 1
            upper = guess + step
            while try start(of: upper) <= date {
                guard step < Self.maximumStep else {
                    throw .calendarArithmeticFailed(anchor: anchor, intervalIndex: upper)
                }
                lower = upper
                step *= 2
                upper = guess + step
            }
        }
        while upper - lower > 1 {
            let middle = lower + (upper - lower) / 2
            if try start(of: middle) <= date { lower = middle } else { upper = middle }
        }
        return lower
    }
}
