import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

// Lesson: Examples/ActivityRings/LESSON.md — keep the completion-handler service, wrap it in one line.

/// A handle on a fetch the service started, which can stop it.
public protocol ActivityFetch: Sendable {
    /// Stops the fetch; its completion is then never called.
    func cancel()
}

/// More of the app's completion-handler service: a day's move goal, fetched in a way that can be cancelled.
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

extension ActivityGoalTracking {
    // Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseActivityRings
    /// Exercise 1: `fetchMoveGoal(for:completion:)` as a promise, in one line (leave cancelling to exercise 2:
    /// this version ignores the handle).
    ///
    /// - Parameter day: Any moment of the day.
    /// - Returns: A promise of the goal.
    public func moveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise { resolver in _ = fetchMoveGoal(for: day, completion: resolver.resolve) }
    }

    // Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseActivityRings
    /// Exercise 2: the same promise, but cancelling it — or cancelling a task that awaits it — cancels the
    /// service's fetch through the handle it returned. A fetch that already finished is not cancelled.
    ///
    /// - Parameter day: Any moment of the day.
    /// - Returns: A promise of the goal that stops the fetch when cancelled.
    public func cancellableMoveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise { resolver in
            let fetch = fetchMoveGoal(for: day, completion: resolver.resolve)
            resolver.onCancel { fetch.cancel() }
        }
    }
}
