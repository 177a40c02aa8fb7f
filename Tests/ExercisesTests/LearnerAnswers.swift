import ActivityRingsExample
import ExampleSupport
import Exercises
import FlowKit
import Foundation
import HealthExport
import HealthFlow
import HealthSync
import ObserveAndUploadExample
import OperationChainsExample
import SafeWritesExample

/// The learner's answers: `Examples/Exercises` (stubs until written).
///
/// This file alone imports `Exercises`, so the extension methods it calls are `Exercises`'s.
enum LearnerAnswers: ExerciseAnswers {
    static func writeWeightWithPromises(kilograms: Double, in context: ExampleContext) -> Promise<[String]> {
        Exercises.writeWeightWithPromises(kilograms: kilograms, in: context)
    }

    static func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws {
        try await Exercises.saveRequestingAuthorizationOnce(sample, in: store)
    }

    static func averageHeightInMetres(in context: ExampleContext) async throws -> Double? {
        try await Exercises.averageHeightInMetres(in: context)
    }

    static func readHeights(
        within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
    ) -> Promise<[String]> {
        Exercises.readHeights(within: limit, on: scheduler, fetch: fetch)
    }

    static func whenThree(
        on queue: OperationQueue, _ first: @escaping @Sendable () -> Promise<Int>,
        _ second: @escaping @Sendable () -> Promise<Int>, _ third: @escaping @Sendable () -> Promise<Int>
    ) -> Promise<[Int]> {
        Exercises.whenThree(on: queue, first, second, third)
    }

    static func chainFailingInTheMiddle(on queue: OperationQueue, log: StepLog, error: any Error) -> Promise<Void> {
        Exercises.chainFailingInTheMiddle(on: queue, log: log, error: error)
    }

    static func bodyTemperaturePitfall(_ value: Double, _ unit: String, in context: ExampleContext) async -> String {
        await Exercises.bodyTemperaturePitfall(value, unit, in: context)
    }

    static func runInSeries(_ steps: [TourStep]) -> Promise<[String]> {
        Exercises.runInSeries(steps)
    }

    static func gatherChanges(
        of types: [HealthObjectType], limit: Int,
        fetch: @escaping @Sendable (HealthObjectType) async throws -> GatheredChanges
    ) async throws -> [GatheredChanges] {
        try await Exercises.gatherChanges(of: types, limit: limit, fetch: fetch)
    }

    static func gatherChanges(
        of types: [HealthObjectType], in store: any HealthStore, since anchors: [HealthObjectType: HealthQueryAnchor]
    ) async throws -> [GatheredChanges] {
        try await Exercises.gatherChanges(of: types, in: store, since: anchors)
    }

    static func uploadGathered(
        _ gathered: [GatheredChanges], in context: ExampleContext, to transport: any UploadTransport, attempts: Int
    ) async throws -> UploadReceipt {
        try await Exercises.uploadGathered(gathered, in: context, to: transport, attempts: attempts)
    }

    static func moveGoal(of service: any ActivityGoalTracking, for day: Date) -> Promise<HealthQuantity> {
        service.moveGoal(for: day)
    }

    static func cancellableMoveGoal(of service: any ActivityGoalTracking, for day: Date) -> Promise<HealthQuantity> {
        service.cancellableMoveGoal(for: day)
    }

    static func importReportingProgress(
        _ path: String, into store: any HealthStore, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> HealthExportReport {
        try await Exercises.importReportingProgress(path, into: store, progress: progress)
    }

    static func importInOrder(_ paths: [String], into store: any HealthStore) -> Promise<[HealthExportReport]> {
        Exercises.importInOrder(paths, into: store)
    }
}
