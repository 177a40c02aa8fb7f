import ExampleSupport
import FlowKit
import HealthFlow
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseWriteHeightTests {
    // Exercise 1: writeWeightWithPromises(kilograms:in:)

    @Test func savesTheWeightInKilograms() async throws {
        let context = ExampleContext.embedded()
        let lines = try await answers.writeWeightWithPromises(kilograms: 72, in: context).value
        #expect(lines == ["Saved! 72 kg"], "the promise must fulfil with the printed line")
        let saved = try await context.store.samples(of: .bodyMass)
        #expect(saved.count == 1, "exactly one body-mass sample must be saved")
        guard case .quantity(let weight)? = saved.first else {
            Issue.record("expected a body-mass quantity, got \(saved)")
            return
        }
        #expect(
            try weight.quantity.doubleValue(for: .gramUnit(with: .kilo)) == 72,
            "the weight must be saved in kilograms as given")
        #expect(weight.endDate == ExampleContext.fixedNow, "the sample must be dated now")
    }

    @Test func rejectsANegativeWeightBeforeAskingForPermission() async throws {
        let (context, sheets) = countingSheets()
        await #expect(throws: ValidationError.self, "a negative weight must reject with ValidationError") {
            try await answers.writeWeightWithPromises(kilograms: -3, in: context).value
        }
        #expect(sheets.value == 0, "a bad value must fail before any permission sheet appears")
        #expect(
            context.store.authorizationStatus(for: .bodyMass) == .notDetermined,
            "a bad value must not ask for permission")
        #expect(try await context.store.samples(of: .bodyMass).isEmpty, "a bad value must save nothing")
    }

    @Test func reportsTheRefusalThroughTheSingleCatch() async throws {
        let context = ExampleContext.embedded(policy: .deny(share: [.bodyMass]))
        await #expect(
            throws: HealthStoreError.authorizationDenied(.bodyMass),
            "a refusal must reach the single catch as authorizationDenied(.bodyMass)"
        ) {
            try await answers.writeWeightWithPromises(kilograms: 72, in: context).value
        }
        #expect(try await context.store.samples(of: .bodyMass).isEmpty, "a refused save must store nothing")
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
        try await answers.saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        #expect(sheets.value == 1, "permission must be requested exactly once")
        #expect(
            context.store.authorizationStatus(for: .bodyMass) == .sharingAuthorized,
            "after the request, sharing body mass is authorized")
        #expect(try await context.store.samples(of: .bodyMass).count == 1, "the second attempt must save the sample")
    }

    @Test func triesTheSaveOnlyOnceMoreAfterARefusal() async throws {
        let (context, sheets) = countingSheets { _ in .answered(share: [], read: []) }
        await #expect(
            throws: HealthStoreError.authorizationDenied(.bodyMass),
            "after a refusal, the second attempt's error must be thrown"
        ) {
            try await answers.saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1, "permission must be requested once, not again after the refusal")
    }

    @Test func doesNotAskAgainWhenSharingWasAlreadyDenied() async throws {
        let (context, sheets) = countingSheets { _ in .answered(share: [], read: []) }
        try await context.store.requestAuthorization(toShare: [.bodyMass], read: [])
        #expect(sheets.value == 1, "the test itself asked once")
        await #expect(
            throws: HealthStoreError.authorizationDenied(.bodyMass),
            "an already-denied save must throw authorizationDenied as it is"
        ) {
            try await answers.saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1, "an error other than authorizationNotDetermined must not trigger a request")
    }

    @Test func passesTheRequestsOwnErrorThrough() async throws {
        let (context, sheets) = countingSheets { _ in .canceled }
        await #expect(throws: HealthStoreError.userCanceled, "the request's own error must be thrown as it is") {
            try await answers.saveRequestingAuthorizationOnce(try Self.weight(context), in: context.store)
        }
        #expect(sheets.value == 1, "permission must be requested once")
    }
}
