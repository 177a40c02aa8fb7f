import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore {
    func run(_ query: HealthStatisticsQuery) {
        let handler = query.completionHandler
        guard query.begin() else {
            return handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        let type = query.objectType
        let failure =
            isHealthDataAvailable
            ? StatisticsQueryEvaluation.requestError(type: type, options: query.options) : .healthDataUnavailable
        if let failure {
            if query.finish() { handler(query, nil, failure) }
            return
        }
        guard let quantityType = BridgeTypes.healthKitQuantity(type) else {
            if query.finish() { handler(query, nil, HealthStoreError.unsupportedQueryType(type, query: query.name)) }
            return
        }
        let healthKitQuery = HKStatisticsQuery(
            quantityType: quantityType, quantitySamplePredicate: query.predicate.flatMap(BridgePredicates.healthKit),
            options: HKStatisticsOptions(rawValue: query.options.rawValue)
        ) { [self] _, statistics, error in
            guard finished(query) else { return }
            guard let statistics else {
                return handler(query, nil, BridgeErrors.healthFlow(error ?? HKError(.errorNoData), type: type))
            }
            handler(query, BridgeStatistics.healthFlow(statistics, type: type), nil)
        }
        start(healthKitQuery, for: query)
    }

    func run(_ query: HealthStatisticsCollectionQuery) {
        let handler = query.initialResultsHandler
        guard query.begin() else {
            return handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        let type = query.objectType
        let failure =
            isHealthDataAvailable
            ? StatisticsQueryEvaluation.requestError(
                type: type, options: query.options,
                grid: (query.anchorDate, query.intervalComponents, query.calendar)) : .healthDataUnavailable
        if let failure {
            if query.finish() { handler(query, nil, failure) }
            return
        }
        guard let quantityType = BridgeTypes.healthKitQuantity(type) else {
            if query.finish() { handler(query, nil, HealthStoreError.unsupportedQueryType(type, query: query.name)) }
            return
        }
        let healthKitQuery = HKStatisticsCollectionQuery(
            quantityType: quantityType, quantitySamplePredicate: query.predicate.flatMap(BridgePredicates.healthKit),
            options: HKStatisticsOptions(rawValue: query.options.rawValue), anchorDate: query.anchorDate,
            intervalComponents: query.intervalComponents)
        let keepsRunning = query.statisticsUpdateHandler != nil
        healthKitQuery.initialResultsHandler = { [self] _, collection, error in
            guard keepsRunning ? query.isRunning : finished(query) else { return }
            handler(
                query, collection.flatMap { BridgeStatistics.healthFlow($0, for: query) },
                error.map {
                    BridgeErrors.healthFlow($0, type: type)
                })
        }
        if let updates = query.statisticsUpdateHandler {
            healthKitQuery.statisticsUpdateHandler = { _, _, collection, error in
                guard query.isRunning else { return }
                updates(
                    query, collection.flatMap { BridgeStatistics.healthFlow($0, for: query) },
                    error.map {
                        BridgeErrors.healthFlow($0, type: type)
                    })
            }
        }
        start(healthKitQuery, for: query)
    }

    func run(_ query: HealthActivitySummaryQuery) {
        let handler = query.resultsHandler
        guard query.begin() else {
            return handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        guard isHealthDataAvailable else {
            if query.finish() { handler(query, nil, HealthStoreError.healthDataUnavailable) }
            return
        }
        let days = query.activitySummaryPredicate
        let predicate = days.map { HKQuery.predicate(forActivitySummariesBetweenStart: $0.start, end: $0.end) }
        let calendar = days?.start.calendar ?? Calendar.current
        let healthKitQuery = HKActivitySummaryQuery(predicate: predicate) { [self] _, summaries, error in
            guard finished(query) else { return }
            guard let summaries else {
                return handler(query, nil, error.map { BridgeErrors.healthFlow($0, type: .activitySummary) })
            }
            handler(query, summaries.compactMap { BridgeStatistics.healthFlow($0, calendar: calendar) }, nil)
        }
        start(healthKitQuery, for: query)
    }
}
