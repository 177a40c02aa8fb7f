import ExampleSupport
import FlowKit
import HealthFlow
import SafeWritesExample

// Lesson: Examples/SafeWrites/LESSON.md — HealthKit's crashes as typed errors; running steps in series.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseSafeWrites
// A worked solution is in Examples/Solutions/SafeWritesSolutions.swift: try first, compare after.

/// Exercise 1 (★☆☆): a new pitfall for the tour — authorize sharing body temperature, then save `value` in the
/// unit spelled `unit` (HealthKit's unit-string grammar, such as `degF`) over the last minute. Return the tour's
/// line for it: `✓ save 98.6 degF body temperature`, or `✗ save 98.6 kg body temperature → ValidationError: …`
/// (the error's type name, a colon, and the error) — never throw.
///
/// Hints:
/// - `HealthUnit(from:)` parses the unit string and throws for a string it does not know.
/// - One `do`/`catch` around all the steps gives one place to build the `✗` line: `type(of: error)`.
public func bodyTemperaturePitfall(_ value: Double, _ unit: String, in context: ExampleContext) async -> String {
    "\(Unimplemented("SafeWrites 1"))"
}

/// Exercise 2 (★★★): run the steps strictly one after another — a step starts only once the one before it has
/// settled — and fulfil with one line per step, in order: `✓ title`, or `✗ title → Type: error` for a step that
/// failed (the tour goes on after a failure; the promise itself never rejects).
///
/// Hints:
/// - Building all the promises first starts all the steps at once: start each inside the previous one's `then`.
/// - `recover` turns a failed step into its `✗` line, so the chain goes on.
public func runInSeries(_ steps: [TourStep]) -> Promise<[String]> {
    Promise(error: Unimplemented("SafeWrites 2"))
}
