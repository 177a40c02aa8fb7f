import ExampleSupport
import FlowKit
import HealthFlow
import WriteHeightExample

// Lesson: Examples/WriteHeight/LESSON.md — wrapping a callback API, one error funnel, "request, then verify".

// Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseWriteHeight
/// Exercise 1: validate a body mass in kilograms, make sure sharing body mass is allowed, save it, and fulfil
/// with `["Saved! 72 kg"]` — one promise chain, every error (a bad value, a refusal, a failed save) falling
/// through to the caller's single `catch`. A bad value must fail before the store is asked anything.
///
/// - Parameters:
///   - kilograms: The weight the user typed.
///   - context: The store, the app's source and "now".
/// - Returns: A promise of the printed lines.
public func writeWeightWithPromises(kilograms: Double, in context: ExampleContext) -> Promise<[String]> {
    firstly {
        Promise(
            value: try HealthQuantitySample(
                type: .bodyMass, quantity: HealthQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms),
                date: context.now, source: context.source))
    }.then { sample in
        context.store.availableType(.bodyMass).map { sample }
    }.then { sample in
        context.store.save(.quantity(sample)).map { ["Saved! \(sample.quantity)"] }
    }
}

// Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseWriteHeight
/// Exercise 2: save `sample` straight away; if the store answers `authorizationNotDetermined`, request sharing
/// (and reading) the sample's type once, then try the save exactly once more. Any other error — and any error
/// of the second attempt — is thrown as it is.
///
/// - Parameters:
///   - sample: What to save.
///   - store: Where to save it.
/// - Throws: The store's error.
public func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws {
    do {
        try await store.save(sample)
    } catch HealthStoreError.authorizationNotDetermined(let type) {
        try await store.requestAuthorization(toShare: [type], read: [type])
        try await store.save(sample)
    }
}
