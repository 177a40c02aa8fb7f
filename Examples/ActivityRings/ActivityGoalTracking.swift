import Foundation
import HealthFlow

/// A handle on a fetch the service started, which can stop it.
public protocol ActivityFetch: Sendable {
    /// Stops the fetch; its completion is then never called.
    func cancel()
}

/// More of the app's completion-handler service: a day's move goal, fetched in a way that can be cancelled (the
/// service the lesson's exercises wrap).
public protocol ActivityGoalTracking: ActivityTracking {
    /// Fetches the move goal (active energy) for `day`; calls `completion` once unless the fetch is cancelled.
    ///
    /// - Parameters:
    ///   - day: Any moment of the day.
    ///   - completion: Called once with the goal or the error.
    /// - Returns: A handle that cancels the fetch.
    func fetchMoveGoal(
        for day: Date, completion: @escaping @Sendable (Result<HealthQuantity, any Error>) -> Void
    ) -> any ActivityFetch
}
