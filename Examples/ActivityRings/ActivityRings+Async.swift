import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension ActivityTracking {
    /// The service's completion-handler method as an async function, through the promise wrapper.
    ///
    /// - Parameters:
    ///   - start: The first day.
    ///   - end: The last day.
    /// - Returns: The summaries, ascending.
    /// - Throws: The service's error.
    public func activitySummaries(from start: Date, to end: Date) async throws -> [ActivitySummary] {
        return try await firstly { activitySummaries(from: start, to: end) }.value
    }
}

/// The same with async/await.
///
/// - Parameters:
///   - tracker: The service.
///   - from: The first day.
///   - to: The last day.
/// - Returns: One line per day.
/// - Throws: The service's error.
public func activityRingsAsync(_ tracker: any ActivityTracking, from: Date, to: Date) async throws -> [String] {
    ringLines(try await tracker.activitySummaries(from: from, to: to))
}
