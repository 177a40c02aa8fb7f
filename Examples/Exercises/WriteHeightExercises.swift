import ExampleSupport
import FlowKit
import HealthFlow
import WriteHeightExample

// Lesson: Examples/WriteHeight/LESSON.md — wrapping a callback API, one error funnel, "request, then verify".
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseWriteHeight
// A worked solution is in Examples/Solutions/WriteHeightSolutions.swift: try first, compare after.

/// Exercise 1 (★☆☆): validate a body mass in kilograms, make sure sharing body mass is allowed, save it, and
/// fulfil with `["Saved! 72 kg"]` — one promise chain, every error (a bad value, a refusal, a failed save) falling
/// through to the caller's single `catch`. A bad value must fail before the store is asked anything.
///
/// Hints:
/// - `firstly { … }` turns a throwing sample initialiser into a rejected promise instead of a thrown error.
/// - The lesson's `availableType(_:)` ("request, then verify") is the permission step; `save` is the last.
/// - The printed quantity is `sample.quantity` (it prints as `72 kg`).
public func writeWeightWithPromises(kilograms: Double, in context: ExampleContext) -> Promise<[String]> {
    Promise(error: Unimplemented("WriteHeight 1"))
}

/// Exercise 2 (★★☆): save `sample` straight away; if the store answers `authorizationNotDetermined`, request
/// sharing (and reading) the sample's type once, then try the save exactly once more. Any other error — and any
/// error of the second attempt — is thrown as it is.
///
/// Hints:
/// - `catch HealthStoreError.authorizationNotDetermined(let type)` matches only that error and binds its type.
/// - Errors you do not catch leave the function by themselves: no `catch` that re-throws is needed.
public func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws {
    throw Unimplemented("WriteHeight 2")
}
