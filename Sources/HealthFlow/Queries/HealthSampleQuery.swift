/// Reads samples of one type once — the counterpart of `HKSampleQuery`.
///
/// The results handler is called once, on the store's callback executor, with the matching samples (sorted
/// and limited) or an error. Samples of types the app may not read are left out, as if they did not exist,
/// except the app's own.
///
/// ```swift
/// let query = HealthSampleQuery(
///     sampleType: .heartRate, predicate: .samples(withStart: hourAgo, end: now),
///     limit: 100, sortDescriptors: [.startDate(ascending: false)]
/// ) { query, samples, error in
///     guard let samples else { return report(error) }
///     show(samples)
/// }
/// store.execute(query)
/// ```
public final class HealthSampleQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types (and `LockedState`s).
    /// The results handler's type: the query, the samples (or `nil`), and the error (or `nil`).
    ///
    /// ```swift
    /// let handler: HealthSampleQuery.ResultsHandler = { _, samples, error in … }
    /// ```
    public typealias ResultsHandler = @Sendable (HealthSampleQuery, [HealthSample]?, (any Error)?) -> Void

    /// The most samples to return; ``HealthQuery/noLimit`` (0) for all.
    ///
    /// ```swift
    /// query.limit   // 100
    /// ```
    public let limit: Int
    /// The sort keys; empty means ascending start date.
    ///
    /// ```swift
    /// query.sortDescriptors   // [.startDate(ascending: false)]
    /// ```
    public let sortDescriptors: [SampleSortDescriptor]
    private let resultsHandler: ResultsHandler

    /// Makes a sample query; run it with ``HealthStore/execute(_:)``.
    ///
    /// ```swift
    /// let query = HealthSampleQuery(sampleType: .bodyMass, limit: 1, sortDescriptors: [.endDate(ascending: false)]) {
    ///     _, samples, _ in latestWeight = samples?.first
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sampleType: A sample type (quantity, category, correlation, electrocardiogram).
    ///   - predicate: Which samples; `nil` for all.
    ///   - limit: The most samples to return; 0 for all. Negative limits are an error.
    ///   - sortDescriptors: Sort keys; ties fall back to ascending start date, then store order.
    ///   - resultsHandler: Called once with the samples or an error.
    public init(
        sampleType: HealthObjectType, predicate: SamplePredicate? = nil, limit: Int = HealthQuery.noLimit,
        sortDescriptors: [SampleSortDescriptor] = [], resultsHandler: @escaping ResultsHandler
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = resultsHandler
        launch(
            on: runner, validationError: sampleTypeError(limit: limit),
            results: { handler(self, $0.success, $0.failure) }
        ) { runner.run(self, in: $0) }
    }
}
