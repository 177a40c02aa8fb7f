import ExampleSupport
import FlowKit
import HealthFlow
import SafeWritesExample

// Lesson: Examples/SafeWrites/LESSON.md — HealthKit's crashes as typed errors; running steps in series.

// Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseSafeWrites
/// Exercise 1: a new pitfall for the tour — authorize sharing body temperature, then save `value` in the unit
/// spelled `unit` (HealthKit's unit-string grammar, such as `degF`) over the last minute. Return the tour's
/// line for it: `✓ save 98.6 degF body temperature`, or `✗ save 98.6 kg body temperature → ValidationError: …`
/// (the error's type name, a colon, and the error) — never throw.
///
/// - Parameters:
///   - value: The temperature.
///   - unit: Its unit string.
///   - context: The store and app.
/// - Returns: The tour's line.
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

/// One step of a tour for ``runInSeries(_:)``: a title and the work, started only when its turn comes.
public struct TourStep: Sendable {
    /// What the line says.
    public let title: String
    /// Starts the step's work; called only when the step's turn comes.
    public let start: @Sendable () -> Promise<Void>

    /// A step from its title and work.
    ///
    /// - Parameters:
    ///   - title: What the line says.
    ///   - start: Starts the step's work.
    public init(title: String, start: @escaping @Sendable () -> Promise<Void>) {
        self.title = title
        self.start = start
    }
}

// Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseSafeWrites
/// Exercise 2: run the steps strictly one after another — a step starts only once the one before it has
/// settled — and fulfil with one line per step, in order: `✓ title`, or `✗ title → Type: error` for a step
/// that failed (the tour goes on after a failure; the promise itself never rejects).
///
/// - Parameter steps: The steps, in order.
/// - Returns: A promise of the lines.
public func runInSeries(_ steps: [TourStep]) -> Promise<[String]> {
    reduceSequentially(steps, [String]()) { lines, step in
        step.start()
            .map { lines + ["✓ \(step.title)"] }
            .recover { error in lines + ["✗ \(step.title) → \(type(of: error)): \(error)"] }
    }
}
