/// Computes statistics — a sum, an average, a minimum, a maximum, the most recent value, the time covered —
/// over the quantity samples of one type that a predicate matches: the counterpart of `HKStatisticsQuery`.
///
/// The completion handler is called once, on the store's callback executor, with the statistics or an
/// error. The store checks the options against the type's aggregation style first (an average of steps, a
/// sum of heart rates and statistics of a non-quantity type are refused with
/// ``HealthStoreError/incompatibleStatisticsOption(_:option:)``, where HealthKit raises an exception), then
/// computes with ``HealthStatistics/compute(_:from:options:in:)``:
///
/// - **Which samples.** The samples of the type the predicate matches and the app may read — as for a
///   ``HealthSampleQuery``, read denial is never revealed: samples of a type the app may not read are left
///   out, except its own.
/// - **Window.** The predicate's date range (from ``SamplePredicate/samples(withStart:end:options:)``, alone
///   or anywhere in a chain of `&&`) is the window for proportional splitting: 100 steps from 13:57 to 14:02
///   count 60 in a query for 13:00–14:00. Without a date range the samples count in full; a range open on
///   one side is closed there by the matched samples themselves (nothing is clipped on that side). Date
///   ranges inside `||` or `!` filter samples but set no window.
/// - **No data.** When no sample matches, the handler receives `nil` and ``HealthStoreError/noData(_:)``,
///   as HealthKit reports `errorNoData`; the promise and `async` twins return `nil` instead.
///
/// ```swift
/// let oneToTwo = SamplePredicate.samples(withStart: one, end: two)
/// let query = HealthStatisticsQuery(
///     quantityType: .stepCount, quantitySamplePredicate: oneToTwo, options: .cumulativeSum
/// ) { _, statistics, error in
///     guard let statistics else { return report(error) }
///     show(statistics.sumQuantity())  // 60: the 100 steps from 13:57 to 14:02 spent 3 of 5 minutes here
/// }
/// store.execute(query)
/// ```
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
public final class HealthStatisticsQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types.

    /// The completion handler's type: the query, the statistics (or `nil`), and the error (or `nil`).
    public typealias CompletionHandler = @Sendable (HealthStatisticsQuery, HealthStatistics?, (any Error)?) -> Void

    /// What to compute.
    public let options: StatisticsOptions
    private let completionHandler: CompletionHandler

    /// Makes a statistics query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - quantityType: A quantity type; other types are refused when the query runs.
    ///   - quantitySamplePredicate: Which samples; its date range is the window. `nil` for all.
    ///   - options: What to compute; they must suit the type's aggregation style.
    ///   - completionHandler: Called once with the statistics or an error.
    public init(
        quantityType: HealthObjectType, quantitySamplePredicate: SamplePredicate? = nil, options: StatisticsOptions,
        completionHandler: @escaping CompletionHandler
    ) {
        self.options = options
        self.completionHandler = completionHandler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = completionHandler
        launch(
            on: runner,
            validationError: StatisticsQueryEvaluation.requestError(type: objectType, options: options),
            results: { handler(self, $0.success, $0.failure) }
        ) { runner.run(self, in: $0) }
    }
}
