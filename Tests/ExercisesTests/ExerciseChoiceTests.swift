import ActivityRingsExample
import ExampleSupport
import FlowKit
import FlowKitTesting
import Foundation
import HealthFlow
import HealthSync
import OperationChainsExample
import Testing

/// The switch between the learner's answers and the worked solutions, and the stubs a learner starts from.
@Suite struct ExerciseChoiceTests {
    @Test func theChoiceIsOneThatExists() {
        #expect(
            ExerciseChoice.current != nil,
            "HEALTHFLOW_EXERCISES must be unset, \"worked\" or \"mine\" (mine: check your own answers)")
    }

    /// In the project's own runs (the worked solutions), every stub in `Examples/Exercises` must still be a stub
    /// that says which exercise is not done yet: a learner who runs `HEALTHFLOW_EXERCISES=mine` sees that first.
    @Test(.enabled(if: ExerciseChoice.current == .worked))
    func everyStubSaysWhichExerciseIsNotDoneYet() async throws {
        let stubs = LearnerAnswers.self
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        let scheduler = ManualScheduler()
        let weight = HealthSample.quantity(
            try HealthQuantitySample(
                type: .bodyMass, quantity: HealthQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
                date: context.now, source: context.source))
        let queue = OperationQueue()
        let outcomes: [(any Error)?] = [
            await failure { _ = try await stubs.writeWeightWithPromises(kilograms: 72, in: context).value },
            await failure { try await stubs.saveRequestingAuthorizationOnce(weight, in: context.store) },
            await failure { _ = try await stubs.averageHeightInMetres(in: context) },
            await failure {
                _ = try await stubs.readHeights(within: .seconds(1), on: scheduler) { Promise(value: []) }.value
            },
            await failure {
                _ = try await stubs.whenThree(
                    on: queue, { Promise(value: 1) }, { Promise(value: 2) }, { Promise(value: 3) }
                )
                .value
            },
            await failure { try await stubs.chainFailingInTheMiddle(on: queue, log: StepLog(), error: Stop()).value },
            await failure { _ = try await stubs.runInSeries([]).value },
            await failure { _ = try await stubs.gatherChanges(of: [.stepCount], limit: 1) { _ in throw Stop() } },
            await failure { _ = try await stubs.gatherChanges(of: [.stepCount], in: context.store, since: [:]) },
            await failure { _ = try await stubs.uploadGathered([], in: context, to: Refusing(), attempts: 1) },
            await failure { _ = try await stubs.moveGoal(of: Silent(), for: context.now).value },
            await failure { _ = try await stubs.cancellableMoveGoal(of: Silent(), for: context.now).value },
            await failure { _ = try await stubs.importReportingProgress("none", into: context.store) { _ in } },
            await failure { _ = try await stubs.importInOrder([], into: context.store).value },
        ]
        let exercises = outcomes.map { ($0 as? Unimplemented)?.exercise }
        #expect(
            exercises == [
                "WriteHeight 1", "WriteHeight 2", "ReadHeights 1", "ReadHeights 2", "OperationChains 1",
                "OperationChains 2", "SafeWrites 2", "ObserveAndUpload 1", "ObserveAndUpload 2",
                "ObserveAndUpload 3", "ActivityRings 1", "ActivityRings 2", "ImportAndSummarize 1",
                "ImportAndSummarize 2",
            ],
            "each stub in Examples/Exercises must throw (or reject with) Unimplemented naming its exercise")
        let pitfall = await stubs.bodyTemperaturePitfall(98.6, "degF", in: context)
        #expect(
            pitfall.hasPrefix(
                "Exercise SafeWrites 1 is not done yet: write the body of bodyTemperaturePitfall(_:_:in:)"),
            "the stub that cannot throw returns the not-done-yet line; got \(pitfall)")
        #expect(pitfall.contains("in Examples/Exercises/SafeWritesExercises.swift"))
        #expect(pitfall.hasSuffix("HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseSafeWrites"))
    }

    struct Stop: Error {}

    /// A transport that refuses every upload.
    struct Refusing: UploadTransport {
        func upload(_ request: UploadRequest) -> Promise<UploadReceipt> { Promise(error: Stop()) }
    }

    /// A service that never answers.
    struct Silent: ActivityGoalTracking {
        struct Fetch: ActivityFetch { func cancel() {} }
        func fetchActivitySummaries(
            from start: Date, to end: Date,
            completion: @escaping @Sendable (Result<[ActivitySummary], any Error>) -> Void
        ) {}
        func fetchMoveGoal(
            for day: Date, completion: @escaping @Sendable (Result<HealthQuantity, any Error>) -> Void
        ) -> any ActivityFetch { Fetch() }
    }

    /// The error `body` throws, if any.
    func failure(_ body: () async throws -> Void) async -> (any Error)? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}
