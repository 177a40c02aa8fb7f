/// Reports what changed since an anchor — samples added and objects deleted — and a new anchor to resume
/// from: the counterpart of `HKAnchoredObjectQuery`, and the basis of sync.
///
/// Pass `nil` the first time to get everything. The limit counts samples plus deletions; when it cuts the
/// changes short, the new anchor points just past the last change reported, so the next query continues
/// exactly there — successive queries never repeat or skip a change.
///
/// With an `updateHandler` the query keeps running after the first results: each later save or delete that
/// it matches is reported (without limit, from the last anchor it reported) until the query is stopped.
///
/// Deletions are reported when the deleted sample matched the predicate and the app could read it (or saved
/// it); samples of types the app may not read are left out, except its own.
public final class HealthAnchoredObjectQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types (and `LockedState`s).
    /// The handlers' type: the query, added samples, tombstones, the new anchor, and the error (the three
    /// values are `nil` exactly when the error is not).
    public typealias Handler =
        @Sendable (
            HealthAnchoredObjectQuery, [HealthSample]?, [HealthDeletedObject]?, HealthQueryAnchor?, (any Error)?
        ) -> Void

    /// Where to start; `nil` for the beginning.
    public let anchor: HealthQueryAnchor?
    /// The most changes (samples plus deletions) the first results may hold; ``HealthQuery/noLimit`` for all.
    public let limit: Int
    private let resultsHandler: Handler
    private let updateHandler: Handler?

    /// Makes an anchored object query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which samples; `nil` for all.
    ///   - anchor: Where to start; `nil` for the beginning.
    ///   - limit: The most changes in the first results; 0 for all. Negative limits are an error.
    ///   - updateHandler: When given, the query keeps running and reports later changes here until stopped.
    ///   - resultsHandler: Called once with the first results or an error.
    public init(
        type: HealthObjectType, predicate: SamplePredicate? = nil, anchor: HealthQueryAnchor?,
        limit: Int = HealthQuery.noLimit, updateHandler: Handler? = nil, resultsHandler: @escaping Handler
    ) {
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = resultsHandler
        self.updateHandler = updateHandler
        super.init(objectType: type, predicate: predicate)
    }

    override func start(on runner: any HealthQueryRunner) {
        let results = Self.outcomeHandler(for: self, resultsHandler)
        launch(
            on: runner, validationError: sampleTypeError(limit: limit), results: results,
            updates: updateHandler.map { Self.outcomeHandler(for: self, $0) }
        ) { runner.run(self, in: $0) }
    }

    /// `handler` called with an outcome's changes or error.
    private static func outcomeHandler(
        for query: HealthAnchoredObjectQuery, _ handler: @escaping Handler
    ) -> @Sendable (Result<HealthAnchoredChanges, any Error>) -> Void {
        { outcome in
            switch outcome {
            case .success(let changes):
                handler(query, changes.samples, changes.deletedObjects, changes.newAnchor, nil)
            case .failure(let error):
                handler(query, nil, nil, nil, error)
            }
        }
    }
}
