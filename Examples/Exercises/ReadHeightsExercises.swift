import ExampleSupport
import FlowKit
import HealthFlow
import ReadHeightsExample

// Lesson: Examples/ReadHeights/LESSON.md — a query object and its handler as one promise / one `await`.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseReadHeights
// A worked solution is in Examples/Solutions/ReadHeightsSolutions.swift: try first, compare after.

/// Exercise 1 (★☆☆): the average of every height the app can read, in metres, through the statistics query's
/// async twin (`store.statistics(of:matching:options:)`) — no sample query, no hand-written loop. `nil` when
/// there is no height to average.
///
/// Hints:
/// - Heights are discrete: the option is `.discreteAverage`.
/// - `averageQuantity()` is `nil` without samples; `doubleValue(for: .meter())` converts.
public func averageHeightInMetres(in context: ExampleContext) async throws -> Double? {
    throw Unimplemented("ReadHeights 1")
}

/// Exercise 2 (★★☆): give a fetch of height lines `limit` to finish on `scheduler`'s clock. When it does, fulfil
/// with its lines and leave no timer behind; when it does not, reject with `PromiseError.timedOut(after:)` and
/// cancel the fetch (so the store stops its query). When the caller cancels the returned promise, the fetch is
/// cancelled too.
///
/// Hints:
/// - Start the fetch once, then look in the lesson for the combinator that races a promise against a clock.
/// - Cancelling must travel both ways: from the timer to the fetch, and from the caller to the fetch.
public func readHeights(
    within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
) -> Promise<[String]> {
    Promise(error: Unimplemented("ReadHeights 2"))
}
