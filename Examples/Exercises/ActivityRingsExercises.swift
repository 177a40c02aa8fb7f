import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

// Lesson: Examples/ActivityRings/LESSON.md — keep the completion-handler service, wrap it in one line.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseActivityRings
// A worked solution is in Examples/Solutions/ActivityRingsSolutions.swift: try first, compare after.

extension ActivityGoalTracking {
    /// Exercise 1 (★☆☆): `fetchMoveGoal(for:completion:)` as a promise, in one line (leave cancelling to
    /// exercise 2: this version ignores the handle the service returns).
    ///
    /// Hints:
    /// - `Promise { resolver in … }` gives you the resolver; `resolver.resolve` fits a `Result` completion.
    public func moveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise(error: Unimplemented("ActivityRings 1"))
    }

    /// Exercise 2 (★★☆): the same promise, but cancelling it — or cancelling a task that awaits it — cancels the
    /// service's fetch through the handle it returned. A fetch that already finished is not cancelled.
    ///
    /// Hints:
    /// - Keep the handle `fetchMoveGoal` returns; `resolver.onCancel { … }` is where to use it.
    /// - A task awaiting a promise cancels the promise when the task is cancelled: nothing more to write.
    public func cancellableMoveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise(error: Unimplemented("ActivityRings 2"))
    }
}
