import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

// Lesson: Examples/ActivityRings/LESSON.md — keep the completion-handler service, wrap it in one line.
// Worked solutions of Examples/Exercises/ActivityRingsExercises.swift (the tasks, with hints, are there).

extension ActivityGoalTracking {
    /// Exercise 1, solved.
    public func moveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise { resolver in _ = fetchMoveGoal(for: day, completion: resolver.resolve) }
    }

    /// Exercise 2, solved.
    public func cancellableMoveGoal(for day: Date) -> Promise<HealthQuantity> {
        Promise { resolver in
            let fetch = fetchMoveGoal(for: day, completion: resolver.resolve)
            resolver.onCancel { fetch.cancel() }
        }
    }
}
