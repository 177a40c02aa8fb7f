import FlowKit
import Foundation

/// Computes statistics for a row of equal calendar intervals — steps per day, heart rate per hour — over the
/// quantity samples of one type that a predicate matches: the counterpart of `HKStatisticsCollectionQuery`.
///
/// The initial results handler receives a ``StatisticsCollection`` (or an error) once. With a statistics
/// update handler the query keeps running: whenever a save, delete or ingest changes samples the query
/// matches and the app can see, the store recomputes the collection and delivers it there, until
/// ``HealthStore/stop(_:)``. Without one the query finishes after the initial results.
///
/// - **Which samples.** As for ``HealthStatisticsQuery``: those the predicate matches and the app may read
///   (read denial is never revealed; the app's own samples stay visible). Options are checked against the
///   type first.
/// - **Intervals.** The anchor date fixes the start of one interval; the others follow and precede it by
///   whole multiples of `intervalComponents` in `calendar` (see ``StatisticsCollection``).
/// - **Range.** The intervals computed are those covering the predicate's date range (its `.date` clause,
///   alone or anywhere in a chain of `&&`). A bound the predicate leaves open — or both, without a date
///   range — is taken from the matched samples: the earliest start, and the latest end (just past the
///   latest instant, for instantaneous samples). No matched samples and no date range: an empty collection.
///   Intervals outside the range are reported empty by ``StatisticsCollection/enumerateStatistics(from:to:_:)``.
///
/// ```swift
/// let week = SamplePredicate.samples(withStart: monday, end: nextMonday)
/// let query = HealthStatisticsCollectionQuery(
///     quantityType: .stepCount, quantitySamplePredicate: week, options: .cumulativeSum,
///     anchorDate: monday, intervalComponents: DateComponents(day: 1),
///     statisticsUpdateHandler: { _, collection, _ in redraw(collection) }
/// ) { _, collection, error in
///     guard let collection else { return report(error) }
///     try? collection.enumerateStatistics(from: monday, to: sunday) { day, _ in plot(day.sumQuantity()) }
/// }
/// store.execute(query)  // plots seven days, empty ones included
/// try await store.save(tuesdayWalk)  // redraws with Tuesday's steps
/// store.stop(query)  // no more redraws
/// ```
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
///
/// - Complexity: Each delivery gathers the matching samples (O(log n + m), as a sample query) and builds
///   the collection from them (O(m log m + k) for k intervals), outside the store's lock.
public final class HealthStatisticsCollectionQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds `let`s of Sendable types and one `LockedState`.

    /// The handlers' type: the query, the collection (or `nil`), and the error (or `nil`).
    public typealias Handler = @Sendable (HealthStatisticsCollectionQuery, StatisticsCollection?, (any Error)?) -> Void

    /// What to compute.
    public let options: StatisticsOptions
    /// The start of one interval.
    public let anchorDate: Date
    /// The length of each interval in calendar components.
    public let intervalComponents: DateComponents
    /// The calendar (and time zone) the intervals are counted in.
    public let calendar: Calendar
    private let initialResultsHandler: Handler
    private let statisticsUpdateHandler: Handler?

    /// Makes a statistics collection query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - quantityType: A quantity type; other types are refused when the query runs.
    ///   - quantitySamplePredicate: Which samples; its date range sets the range of intervals. `nil` for all.
    ///   - options: What to compute; they must suit the type's aggregation style.
    ///   - anchorDate: The start of one interval; it need not lie in the range.
    ///   - intervalComponents: The interval length (see ``StatisticsCollection``); invalid components are
    ///     refused with ``HealthStoreError/invalidStatisticsRequest(_:)`` when the query runs.
    ///   - calendar: The calendar the intervals are counted in; the current calendar (HealthKit's choice) by
    ///     default.
    ///   - statisticsUpdateHandler: When given, the query keeps running and delivers the recomputed
    ///     collection here after each matching change, until stopped.
    ///   - initialResultsHandler: Called once with the first collection or an error.
    public init(
        quantityType: HealthObjectType, quantitySamplePredicate: SamplePredicate? = nil, options: StatisticsOptions,
        anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar = .current,
        statisticsUpdateHandler: Handler? = nil, initialResultsHandler: @escaping Handler
    ) {
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.calendar = calendar
        self.statisticsUpdateHandler = statisticsUpdateHandler
        self.initialResultsHandler = initialResultsHandler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func start(on runner: any HealthQueryRunner) {
        let initial = initialResultsHandler
        var updates: (@Sendable (Result<StatisticsCollection, any Error>) -> Void)?
        if let handler = statisticsUpdateHandler {
            updates = { outcome in handler(self, outcome.success, outcome.failure) }
        }
        launch(
            on: runner,
            validationError: StatisticsQueryEvaluation.requestError(
                type: objectType, options: options, grid: (anchorDate, intervalComponents, calendar)),
            results: { initial(self, $0.success, $0.failure) },
            updates: updates
        ) { runner.run(self, in: $0) }
    }
}
