import Foundation

/// Reads the person's daily activity summaries — the rings: move, exercise, stand — the counterpart of
/// `HKActivitySummaryQuery`.
///
/// The results handler is called once, on the store's callback executor, with the summaries of the
/// predicate's days, ascending by date, or an error. Reading them needs read permission for
/// ``HealthObjectType/activitySummary`` (request it in the read set); as for samples, denial is never
/// revealed: without permission the results are simply empty.
///
/// An ``InMemoryHealthStore`` derives summaries from its samples with an ``ActivitySummaryBuilder`` — every
/// source's `activeEnergyBurned`, `appleExerciseTime`, `appleMoveTime` and `appleStandHour` samples, whatever
/// the app may read of those types (the summary's own permission governs) — with its
/// ``LocalHealthStore/activitySummaryGoals``:
///
/// - With a predicate: one summary per day of the predicate, in the predicate's calendar (zeros for days
///   without data).
/// - Without one: one summary per day from the first to the last day holding such a sample, in the current
///   calendar; none when there is no such sample.
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
public final class HealthActivitySummaryQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types.

    /// The results handler's type: the query, the summaries (or `nil`), and the error (or `nil`).
    public typealias ResultsHandler = @Sendable (HealthActivitySummaryQuery, [ActivitySummary]?, (any Error)?) -> Void

    /// The days to read, or `nil` for every day with activity data.
    public let activitySummaryPredicate: ActivitySummaryPredicate?
    private let resultsHandler: ResultsHandler

    /// Makes an activity summary query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - predicate: The days, or `nil` for every day with activity data.
    ///   - resultsHandler: Called once with the summaries, ascending by date, or an error.
    public init(predicate: ActivitySummaryPredicate?, resultsHandler: @escaping ResultsHandler) {
        self.activitySummaryPredicate = predicate
        self.resultsHandler = resultsHandler
        super.init(objectType: .activitySummary, predicate: nil)
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = resultsHandler
        launch(
            on: runner, validationError: nil, results: { handler(self, $0.success, $0.failure) }
        ) { runner.run(self, in: $0) }
    }
}
