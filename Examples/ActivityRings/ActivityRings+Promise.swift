import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension ActivityTracking {
    /// The service's completion-handler method as a promise: one line, since the resolver accepts a
    /// `(Result<Value, Error>) -> Void` completion as it is.
    ///
    /// - Parameters:
    ///   - start: The first day.
    ///   - end: The last day.
    /// - Returns: A promise of the summaries, ascending.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func activitySummaries(from start: Date, to end: Date) -> Promise<[ActivitySummary]> {
        Promise { resolver in fetchActivitySummaries(from: start, to: end, completion: resolver.resolve) }
    }
}

/// The same with the wrapped service.
///
/// - Parameters:
///   - tracker: The service.
///   - from: The first day.
///   - to: The last day.
/// - Returns: A promise of one line per day.
public func activityRingsWithPromises(_ tracker: any ActivityTracking, from: Date, to: Date) -> Promise<[String]> {
    tracker.activitySummaries(from: from, to: to).map(ringLines)
}
