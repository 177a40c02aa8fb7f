import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore {
    /// HealthKit's quantity type for the execution's query, or `nil` after failing it.
    private func healthKitQuantityType<Results>(for execution: QueryExecution<Results>) -> HKQuantityType? {
        let query = execution.query
        guard let type = BridgeTypes.healthKitQuantity(query.objectType) else {
            execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
            return nil
        }
        return type
    }

    /// Runs the query as an `HKStatisticsQuery`.
    public func run(_ query: HealthStatisticsQuery, in execution: QueryExecution<HealthStatistics>) {
        guard let quantityType = healthKitQuantityType(for: execution) else { return }
        let type = query.objectType
        let healthKitQuery = HKStatisticsQuery(
            quantityType: quantityType, quantitySamplePredicate: query.predicate.flatMap(BridgePredicates.healthKit),
            options: HKStatisticsOptions(rawValue: query.options.rawValue)
        ) { _, statistics, error in
            guard let statistics else {
                return execution.deliver(.failure(BridgeErrors.healthFlow(error ?? HKError(.errorNoData), type: type)))
            }
            execution.deliver(.success(BridgeStatistics.healthFlow(statistics, type: type)))
        }
        start(healthKitQuery, for: execution)
    }

    /// Runs the query as an `HKStatisticsCollectionQuery`.
    public func run(_ query: HealthStatisticsCollectionQuery, in execution: QueryExecution<StatisticsCollection>) {
        guard let quantityType = healthKitQuantityType(for: execution) else { return }
        let type = query.objectType
        let healthKitQuery = HKStatisticsCollectionQuery(
            quantityType: quantityType, quantitySamplePredicate: query.predicate.flatMap(BridgePredicates.healthKit),
            options: HKStatisticsOptions(rawValue: query.options.rawValue), anchorDate: query.anchorDate,
            intervalComponents: query.intervalComponents)
        let outcome: @Sendable (HKStatisticsCollection?, (any Error)?) -> Result<StatisticsCollection, any Error> = {
            collection, error in
            if let collection = collection.flatMap({ BridgeStatistics.healthFlow($0, for: query) }) {
                return .success(collection)
            }
            return .failure(BridgeErrors.healthFlow(error ?? HKError(.errorNoData), type: type))
        }
        healthKitQuery.initialResultsHandler = { _, collection, error in
            execution.deliver(outcome(collection, error))
        }
        if execution.keepsRunning {
            healthKitQuery.statisticsUpdateHandler = { _, _, collection, error in
                execution.deliverUpdate(outcome(collection, error))
            }
        }
        start(healthKitQuery, for: execution)
    }

    /// Runs the query as an `HKActivitySummaryQuery`.
    public func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>) {
        let days = query.activitySummaryPredicate
        let predicate = days.map { HKQuery.predicate(forActivitySummariesBetweenStart: $0.start, end: $0.end) }
        let calendar = days?.start.calendar ?? Calendar.current
        let healthKitQuery = HKActivitySummaryQuery(predicate: predicate) { _, summaries, error in
            guard let summaries else {
                let error = error ?? HKError(.errorNoData)
                return execution.deliver(.failure(BridgeErrors.healthFlow(error, type: .activitySummary)))
            }
            execution.deliver(.success(summaries.compactMap { BridgeStatistics.healthFlow($0, calendar: calendar) }))
        }
        start(healthKitQuery, for: execution)
    }
}
