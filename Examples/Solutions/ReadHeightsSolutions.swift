import ExampleSupport
import FlowKit
import HealthFlow
import ReadHeightsExample

// Lesson: Examples/ReadHeights/LESSON.md — a query object and its handler as one promise / one `await`.
// Worked solutions of Examples/Exercises/ReadHeightsExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
public func averageHeightInMetres(in context: ExampleContext) async throws -> Double? {
    let statistics = try await context.store.statistics(of: .height, options: .discreteAverage)
    return try statistics?.averageQuantity()?.doubleValue(for: .meter())
}

/// Exercise 2, solved.
public func readHeights(
    within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
) -> Promise<[String]> {
    fetch().timeout(limit, on: scheduler)
}
