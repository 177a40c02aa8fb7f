import FlowKit
import Foundation
import HealthFlow
import Testing

/// Stores loaded with generated data, and helpers that run the statistics and activity summary queries
/// through their callbacks.
enum StoreStatisticsFixture {
    static let utc = StatisticsCollectionTests.utc
    /// Every type the generator produces samples of, plus activity summaries: what the app reads.
    static let readTypes: Set<HealthObjectType> = [
        .stepCount, .distanceWalkingRunning, .activeEnergyBurned, .appleExerciseTime, .appleStandTime, .heartRate,
        .bodyMass, .height, .bloodGlucose, .sleepAnalysis, .appleStandHour, .activitySummary,
    ]

    static func data(days: Int = 7, seed: UInt64) throws -> GeneratedHealthData {
        try HealthDataGenerator(configuration: GeneratorConfiguration(days: days, seed: seed, calendar: utc)).generate()
    }

    /// A store whose app asked to read `read` (answered by `policy`) and that holds `data`.
    static func store(
        holding data: GeneratedHealthData, policy: AuthorizationPolicy = .grantAll,
        read: Set<HealthObjectType> = readTypes, executor: FlowExecutor? = nil
    ) async throws -> InMemoryHealthStore {
        let store = InMemoryHealthStore(
            configuration: StoreFixture.app, policy: policy, callbackExecutor: executor,
            activitySummaryGoals: data.configuration.goals)
        try await store.requestAuthorization(toShare: [.stepCount, .heartRate], read: read)
        try store.ingest(data)
        return store
    }

    /// Runs a query through its callback and waits for the handler: the value, or the store error.
    static func outcome<Value: Sendable>(
        _ start: (@escaping @Sendable (Value?, (any Error)?) -> Void) -> Void
    ) async -> Result<Value?, HealthStoreError> {
        let (promise, resolver) = Promise<Result<Value?, HealthStoreError>>.pending()
        start { value, error in
            if let error {
                resolver.fulfill(.failure(error as? HealthStoreError ?? .unknown(reason: "\(error)")))
            } else {
                resolver.fulfill(.success(value))
            }
        }
        switch await promise.settled {
        case .success(let result): return result
        case .failure(let error): return .failure(.unknown(reason: "\(error)"))
        }
    }

    static func statistics(
        _ store: any HealthStore, _ type: HealthObjectType, _ predicate: SamplePredicate? = nil,
        options: StatisticsOptions
    ) async -> Result<HealthStatistics?, HealthStoreError> {
        await outcome { done in
            store.execute(
                HealthStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: options) {
                    _, statistics, error in done(statistics, error)
                })
        }
    }

    static func collection(
        _ store: any HealthStore, _ type: HealthObjectType, _ predicate: SamplePredicate? = nil,
        options: StatisticsOptions, anchor: Date, components: DateComponents = DateComponents(day: 1)
    ) async -> Result<StatisticsCollection?, HealthStoreError> {
        await outcome { done in
            store.execute(
                HealthStatisticsCollectionQuery(
                    quantityType: type, quantitySamplePredicate: predicate, options: options, anchorDate: anchor,
                    intervalComponents: components, calendar: utc
                ) { _, collection, error in done(collection, error) })
        }
    }

    static func summaries(
        _ store: any HealthStore, _ predicate: ActivitySummaryPredicate?
    ) async -> Result<[ActivitySummary]?, HealthStoreError> {
        await outcome { done in
            store.execute(
                HealthActivitySummaryQuery(predicate: predicate) { _, summaries, error in done(summaries, error) })
        }
    }

    /// The day `offset` days after the data's first midnight, as components in UTC.
    static func day(_ data: GeneratedHealthData, _ offset: Int) -> DateComponents {
        let date = data.dateInterval.start.addingTimeInterval(Double(offset) * 86_400 + 3600)
        return utc.dateComponents([.calendar, .year, .month, .day], from: date)
    }
}
