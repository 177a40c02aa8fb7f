import ExampleSupport
import FlowKit
import HealthFlow
import WriteHeightExample

// Lesson: Examples/WriteHeight/LESSON.md — wrapping a callback API, one error funnel, "request, then verify".
// Worked solutions of Examples/Exercises/WriteHeightExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
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

/// Exercise 2, solved.
public func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws {
    do {
        try await store.save(sample)
    } catch HealthStoreError.authorizationNotDetermined(let type) {
        try await store.requestAuthorization(toShare: [type], read: [type])
        try await store.save(sample)
    }
}
