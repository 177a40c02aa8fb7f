import ExampleSupport
import FlowKit
import HealthFlow
import ReadHeightsExample

// Lesson: Examples/ReadHeights/LESSON.md — a query object and its handler as one promise / one `await`.

// Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseReadHeights
/// Exercise 1: the average of every height the app can read, in metres, through the statistics query's async
/// twin (`store.statistics(of:matching:options:)`) — no sample query, no hand-written loop. `nil` when there is
/// no height to average.
///
/// - Parameter context: The store.
/// - Returns: The average height in metres, or `nil`.
/// - Throws: The query's error.
public func averageHeightInMetres(in context: ExampleContext) async throws -> Double? {
    let statistics = try await context.store.statistics(of: .height, options: .discreteAverage)
    return try statistics?.averageQuantity()?.doubleValue(for: .meter())
}

// Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseReadHeights
/// Exercise 2: give a fetch of height lines `limit` to finish on `scheduler`'s clock. When it does, fulfil
/// with its lines and leave no timer behind; when it does not, reject with `PromiseError.timedOut(after:)` and
/// cancel the fetch (so the store stops its query).
///
/// - Parameters:
///   - limit: The time allowed.
///   - scheduler: The clock: a `ManualScheduler` in tests.
///   - fetch: Starts the fetch, such as `readHeightsWithPromises(in:)`.
/// - Returns: A promise of the lines, or of the time-out.
public func readHeights(
    within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
) -> Promise<[String]> {
    fetch().timeout(limit, on: scheduler)
}
