import ExampleSupport
import FlowKit
import HealthFlow
import HealthSync
import ObserveAndUploadExample

// Lesson: Examples/ObserveAndUpload/LESSON.md — fan-out / fan-in, with a limit, resuming from anchors.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseObserveAndUpload
// A worked solution is in Examples/Solutions/ObserveAndUploadSolutions.swift: try first, compare after.

/// Exercise 1 (★★★): gather every type's changes with `fetch`, but never more than `limit` fetches at once (at
/// least one), and return them in the order of `types` — whatever order they finish in. The first error is thrown
/// and cancels the fetches still running.
///
/// Hints:
/// - A throwing task group gives the fan-in; start `limit` tasks, then one more each time one finishes.
/// - Carry each result's index with it, so the results can be put back in `types` order.
public func gatherChanges(
    of types: [HealthObjectType], limit: Int,
    fetch: @escaping @Sendable (HealthObjectType) async throws -> GatheredChanges
) async throws -> [GatheredChanges] {
    throw Unimplemented("ObserveAndUpload 1")
}

/// Exercise 2 (★★☆): gather what changed for each type since its saved anchor (from the beginning for a type with
/// no anchor), all types at once, in `types` order. Feed each result's `newAnchor` back in and a second run gathers
/// nothing — until something new is saved.
///
/// Hints:
/// - `store.changes(of:since:)` is the anchored query's async twin; a `nil` anchor means "from the beginning".
/// - The async `when(fulfilled:)` takes closures and keeps their order.
public func gatherChanges(
    of types: [HealthObjectType], in store: any HealthStore, since anchors: [HealthObjectType: HealthQueryAnchor]
) async throws -> [GatheredChanges] {
    throw Unimplemented("ObserveAndUpload 2")
}

/// Exercise 3 (★★☆): upload the gathered changes, trying up to `attempts` times (at least once). Build the request
/// **once**: every attempt re-sends the same batch under the same ID, the idempotency key, so a server that stored
/// an attempt whose answer was lost stores the batch once. The last attempt's error is thrown.
///
/// Hints:
/// - `makeUploadRequest(_:in:)` (in the example) builds the request; call it before the loop, not in it.
/// - Count attempts, and re-throw only when none is left.
public func uploadGathered(
    _ gathered: [GatheredChanges], in context: ExampleContext, to transport: any UploadTransport, attempts: Int
) async throws -> UploadReceipt {
    throw Unimplemented("ObserveAndUpload 3")
}
