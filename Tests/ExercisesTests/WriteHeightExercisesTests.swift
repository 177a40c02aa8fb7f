import ExampleSupport
import Exercises
import FlowKit
import HealthFlow
import Testing

@Suite struct ExerciseWriteHeightTests {
    // Exercise 1: writeWeightWithPromises(kilograms:in:)

    @Test func savesTheWeightInKilograms() async throws {
        let context = ExampleContext.embedded()
        let lines = try await writeWeightWithPromises(kilograms: 72, in: context).value
        #expect(lines == ["Saved! 72 kg"])
        let saved = try await context.store.samples(of: .bodyMass)
        #expect(saved.count == 1)
        guard case .quantity(let weight)? = saved.first else {
            Issue.record("expected a body-mass quantity, got \(saved)")
            return
        }
        #expect(try weight.quantity.doubleValue(for: .gramUnit(with: .kilo)) == 72)
        #expect(weight.endDate == ExampleContext.fixedNow)
    }

    @Test func rejectsANegativeWeightBeforeAskingForPermission() async throws {
        let (context, sheets) = countingSheets()
        await #expect(throws: ValidationError.self) {
            try await writeWeightWithPromises(kilograms: -3, in: context).value
        }
        #expect(sheets.value == 0)
        #expect(context.store.authorizationStatus(for: .bodyMass) == .notDetermined)
        #expect(try await context.store.samples(of: .bodyMass).isEmpty)
    }

    @Test func reportsTheRefusalThroughTheSingleCatch() async throws {
        let context = ExampleContext.embedded(policy: .deny(share: [.bodyMass]))
        await #expect(throws: HealthStoreError.authorizationDenied(.bodyMass)) {
            try await writeWeightWithPromises(kilograms: 72, in: context).value
        }
        #expect(try await context.store.samples(of: .bodyMass).isEmpty)
    }

    // Exercise 2: saveRequestingAuthorizationOnce(_:in:)

    static func weight(_ context: ExampleContext) throws -> HealthSample {
        .quantity(
            try HealthQuantitySample(
                type: .bodyMass, quantity: HealthQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
                date: context.now, source: context.source))
    }

    @Test func requestsOnceWhenNotDeterminedThenSaves() async throws {
        let (context, sheets) = countingSheets()
        try await saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        #expect(sheets.value == 1)
        #expect(context.store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
        #expect(try await context.store.samples(of: .bodyMass).count == 1)
    }

    @Test func triesTheSaveOnlyOnceMoreAfterARefusal() async throws {
        let (context, sheets) = countingSheets { _ in .answered(share: [], read: []) }
        await #expect(throws: HealthStoreError.authorizationDenied(.bodyMass)) {
            try await saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1)
    }

    @Test func doesNotAskAgainWhenSharingWasAlreadyDenied() async throws {
        let (context, sheets) = countingSheets { _ in .answered(share: [], read: []) }
        try await context.store.requestAuthorization(toShare: [.bodyMass], read: [])
        #expect(sheets.value == 1)
        await #expect(throws: HealthStoreError.authorizationDenied(.bodyMass)) {
            try await saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1)
    }

    @Test func passesTheRequestsOwnErrorThrough() async throws {
        let (context, sheets) = countingSheets { _ in .canceled }
        await #expect(throws: HealthStoreError.userCanceled) {
            try await saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1)
    }
}
