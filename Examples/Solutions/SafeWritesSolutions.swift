import ExampleSupport
import FlowKit
import HealthFlow
import SafeWritesExample

// Lesson: Examples/SafeWrites/LESSON.md — HealthKit's crashes as typed errors; running steps in series.
// Worked solutions of Examples/Exercises/SafeWritesExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
public func bodyTemperaturePitfall(_ value: Double, _ unit: String, in context: ExampleContext) async -> String {
    let title = "save \(value) \(unit) body temperature"
    do {
        try await context.store.requestAuthorization(toShare: [.bodyTemperature], read: [])
        let sample = try HealthQuantitySample(
            type: .bodyTemperature, quantity: HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value),
            start: context.now.addingTimeInterval(-60), end: context.now, source: context.source)
        try await context.store.save(.quantity(sample))
        return "✓ \(title)"
    } catch {
        return "✗ \(title) → \(type(of: error)): \(error)"
    }
}

/// Exercise 2, solved.
public func runInSeries(_ steps: [TourStep]) -> Promise<[String]> {
    reduceSequentially(steps, [String]()) { lines, step in
        step.start()
            .map { lines + ["✓ \(step.title)"] }
            .recover { error in lines + ["✗ \(step.title) → \(type(of: error)): \(error)"] }
    }
}
