import Foundation

/// Derives daily activity summaries from samples — what the Activity app does on the watch, done here
/// purely so a store (or the generator) can serve summaries consistent with its samples.
///
/// For each calendar day of the predicate's range, in the builder's calendar:
/// - `activeEnergyBurned`: the sum of `activeEnergyBurned` samples over the day, samples straddling
///   midnight split in proportion to time (the statistics engine's rule);
/// - `appleExerciseTime`: the sum of `appleExerciseTime` samples, likewise;
/// - `appleMoveTime`: the sum of `appleMoveTime` samples, likewise;
/// - `appleStandHours`: the number of distinct calendar hours of the day holding the start of an
///   `appleStandHour` sample whose value is `stood` (several in one hour count once);
/// - goals, move mode from the builder's `goals`; `isPaused` is `false`.
///
/// Every day of the range gets a summary, zeros included; other sample types are ignored; samples of
/// every source count.
public struct ActivitySummaryBuilder: Sendable {
    /// The calendar whose days the summaries describe.
    public let calendar: Calendar
    /// The goals written into every summary.
    public let goals: ActivitySummaryGoals

    /// Makes a builder.
    ///
    /// - Parameters:
    ///   - calendar: The calendar (and time zone) that decides where days and hours begin.
    ///   - goals: The daily goals.
    public init(calendar: Calendar, goals: ActivitySummaryGoals) {
        self.calendar = calendar
        self.goals = goals
    }

    /// One summary per day of the predicate's range, ascending.
    ///
    /// - Parameters:
    ///   - samples: Samples of any types, in any order.
    ///   - predicate: The days to summarise; they are re-read in the builder's calendar.
    /// - Returns: The summaries, ascending by day.
    /// - Throws: `ActivitySummaryError.statistics` when summing fails (only for unusable calendars),
    ///   `.invalidDateComponents` for days the builder's calendar cannot express.
    /// - Complexity: O(n log n + d) for n relevant samples and d days.
    public func summaries(
        from samples: [HealthSample], for predicate: ActivitySummaryPredicate
    ) throws(ActivitySummaryError) -> [ActivitySummary] {
        guard let first = CalendarDay(containing: predicate.interval.start, in: calendar),
            let last = CalendarDay(containing: predicate.interval.end.addingTimeInterval(-1), in: calendar)
        else { throw .invalidDateComponents(predicate.start, reason: "the builder's calendar cannot express the day") }

        var energy: [HealthQuantitySample] = []
        var exercise: [HealthQuantitySample] = []
        var move: [HealthQuantitySample] = []
        var stood: [Date] = []
        for sample in samples {
            switch sample {
            case .quantity(let quantity) where quantity.type == .activeEnergyBurned: energy.append(quantity)
            case .quantity(let quantity) where quantity.type == .appleExerciseTime: exercise.append(quantity)
            case .quantity(let quantity) where quantity.type == .appleMoveTime: move.append(quantity)
            case .category(let category)
            where category.value(as: AppleStandHourValue.self) == .stood:
                stood.append(category.startDate)
            default: break
            }
        }

        let range = DateInterval(start: first.interval.start, end: last.interval.end)
        let energyByDay = try dailySums(.activeEnergyBurned, energy, range: range)
        let exerciseByDay = try dailySums(.appleExerciseTime, exercise, range: range)
        let moveByDay = try dailySums(.appleMoveTime, move, range: range)
        let days = energyByDay.map(\.day)
        let standHours = standHoursByDay(stood, dayStarts: days.map(\.start))

        var summaries: [ActivitySummary] = []
        summaries.reserveCapacity(days.count)
        for (index, day) in days.enumerated() {
            let parts = calendar.dateComponents([.year, .month, .day], from: day.start)
            summaries.append(
                try ActivitySummary(
                    dateComponents: DateComponents(
                        calendar: calendar, year: parts.year, month: parts.month, day: parts.day),
                    activeEnergyBurned: HealthQuantity(unit: .kilocalorie(), doubleValue: energyByDay[index].sum),
                    activeEnergyBurnedGoal: HealthQuantity(unit: .kilocalorie(), doubleValue: goals.activeEnergyBurned),
                    appleMoveTime: HealthQuantity(unit: .minute(), doubleValue: moveByDay[index].sum),
                    appleMoveTimeGoal: HealthQuantity(unit: .minute(), doubleValue: goals.appleMoveTime),
                    appleExerciseTime: HealthQuantity(unit: .minute(), doubleValue: exerciseByDay[index].sum),
                    exerciseTimeGoal: HealthQuantity(unit: .minute(), doubleValue: goals.exerciseTime),
                    appleStandHours: HealthQuantity(unit: .count(), doubleValue: Double(standHours[index])),
                    standHoursGoal: HealthQuantity(unit: .count(), doubleValue: goals.standHours),
                    activityMoveMode: goals.moveMode))
        }
        return summaries
    }

    /// Every day of `range` with its sum in the type's canonical unit (kcal, min), 0 without data.
    private func dailySums(
        _ type: HealthObjectType, _ samples: [HealthQuantitySample], range: DateInterval
    ) throws(ActivitySummaryError) -> [(day: DateInterval, sum: Double)] {
        do {
            let collection = try StatisticsCollection(
                type, samples: samples, options: .cumulativeSum, anchorDate: range.start,
                intervalComponents: DateComponents(day: 1), calendar: calendar, range: range)
            return try collection.statistics(from: range.start, to: range.end.addingTimeInterval(-1)).map {
                (DateInterval(start: $0.startDate, end: $0.endDate), $0.sumQuantity()?.value ?? 0)
            }
        } catch {
            throw .statistics(error)
        }
    }

    /// The number of distinct calendar hours holding a `stood` sample's start, per day.
    private func standHoursByDay(_ stood: [Date], dayStarts: [Date]) -> [Int] {
        var hours = [Set<Date>](repeating: [], count: dayStarts.count)
        for date in stood {
            // The last day starting at or before the date.
            var low = 0
            var high = dayStarts.count
            while low < high {
                let middle = (low + high) / 2
                if dayStarts[middle] <= date { low = middle + 1 } else { high = middle }
            }
            let index = low - 1
            guard index >= 0, let hour = calendar.dateInterval(of: .hour, for: date) else { continue }
            if index == dayStarts.count - 1 {
                // Past the last day's end? The last day ends at the next day's start.
                guard let next = calendar.date(byAdding: .day, value: 1, to: dayStarts[index]), date < next else {
                    continue
                }
            }
            hours[index].insert(hour.start)
        }
        return hours.map(\.count)
    }
}
