import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthKit's statistics and activity summaries → HealthFlow's values (read in the type's canonical unit).
enum BridgeStatistics {
    static func healthFlow(_ statistics: HKStatistics, type: HealthObjectType) -> HealthStatistics {
        let unit = type.canonicalUnit ?? .count()
        let healthKitUnit = BridgeTypes.unit(unit)
        func values(_ source: HKSource?) -> StatisticsValues {
            func read(_ overall: () -> HKQuantity?, _ perSource: (HKSource) -> HKQuantity?) -> Double? {
                (source.map(perSource) ?? overall())?.doubleValue(for: healthKitUnit)
            }
            var values = StatisticsValues()
            values.sum = read(statistics.sumQuantity, statistics.sumQuantity(for:))
            values.average = read(statistics.averageQuantity, statistics.averageQuantity(for:))
            values.minimum = read(statistics.minimumQuantity, statistics.minimumQuantity(for:))
            values.maximum = read(statistics.maximumQuantity, statistics.maximumQuantity(for:))
            values.mostRecent = read(statistics.mostRecentQuantity, statistics.mostRecentQuantity(for:))
            values.mostRecentInterval =
                source.map(statistics.mostRecentQuantityDateInterval(for:))
                ?? statistics.mostRecentQuantityDateInterval()
            values.duration = (source.map(statistics.duration(for:)) ?? statistics.duration())?.doubleValue(
                for: .second())
            return values
        }
        var bySource: [HealthSource: StatisticsValues] = [:]
        for source in statistics.sources ?? [] { bySource[BridgeTypes.source(source)] = values(source) }
        return HealthStatistics(
            quantityType: type, unit: unit, startDate: statistics.startDate, endDate: statistics.endDate,
            overall: values(nil), bySource: bySource)
    }

    static func healthFlow(_ collection: HKStatisticsCollection, for query: HealthStatisticsCollectionQuery)
        -> StatisticsCollection?
    {
        let values = collection.statistics().map { healthFlow($0, type: query.objectType) }
        let range = DateInterval(
            start: values.first?.startDate ?? query.anchorDate, end: values.last?.endDate ?? query.anchorDate)
        return try? StatisticsCollection(
            query.objectType, options: query.options, anchorDate: query.anchorDate,
            intervalComponents: query.intervalComponents, calendar: query.calendar, range: range, statistics: values)
    }

    static func healthFlow(_ summary: HKActivitySummary, calendar: Calendar) -> ActivitySummary? {
        let kilocalories = HKUnit.kilocalorie()
        func quantity(_ value: HKQuantity?, _ unit: HealthUnit) -> HealthQuantity {
            HealthQuantity(unit: unit, doubleValue: value?.doubleValue(for: BridgeTypes.unit(unit)) ?? 0)
        }
        return try? ActivitySummary(
            dateComponents: summary.dateComponents(for: calendar),
            activeEnergyBurned: HealthQuantity(
                unit: .kilocalorie(), doubleValue: summary.activeEnergyBurned.doubleValue(for: kilocalories)),
            activeEnergyBurnedGoal: HealthQuantity(
                unit: .kilocalorie(), doubleValue: summary.activeEnergyBurnedGoal.doubleValue(for: kilocalories)),
            appleMoveTime: quantity(summary.appleMoveTime, .minute()),
            appleMoveTimeGoal: quantity(summary.appleMoveTimeGoal, .minute()),
            appleExerciseTime: quantity(summary.appleExerciseTime, .minute()),
            exerciseTimeGoal: quantity(summary.exerciseTimeGoal, .minute()),
            appleStandHours: quantity(summary.appleStandHours, .count()),
            standHoursGoal: quantity(summary.standHoursGoal, .count()),
            activityMoveMode: summary.activityMoveMode,
            isPaused: summary.isPaused)
    }
}
