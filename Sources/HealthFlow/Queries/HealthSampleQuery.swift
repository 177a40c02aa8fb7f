/// Reads samples of one type once — the counterpart of `HKSampleQuery`.
///
/// The results handler is called once, on the store's callback executor, with the matching samples (sorted
/// and limited) or an error. Samples of types the app may not read are left out, as if they did not exist,
/// except the app's own.
public final class HealthSampleQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types (and `LockedState`s).
    /// The results handler's type: the query, the samples (or `nil`), and the error (or `nil`).
    public typealias ResultsHandler = @Sendable (HealthSampleQuery, [HealthSample]?, (any Error)?) -> Void

    /// The most samples to return; ``HealthQuery/noLimit`` (0) for all.
    public let limit: Int
    /// The sort keys; empty means ascending start date.
    public let sortDescriptors: [SampleSortDescriptor]
    private let resultsHandler: ResultsHandler

    /// Makes a sample query; run it with ``HealthStore/execute(_:)``.
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
