import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import HealthExport
import HealthFlow
import HealthSync
import ObserveAndUploadExample
import OperationChainsExample
import SafeWritesExample
import Solutions

/// The worked solutions: `Examples/Solutions`.
///
/// This file alone imports `Solutions`, so the extension methods it calls are `Solutions`'s.
enum WorkedAnswers: ExerciseAnswers {
    static func writeWeightWithPromises(kilograms: Double, in context: ExampleContext) -> Promise<[String]> {
        Solutions.writeWeightWithPromises(kilograms: kilograms, in: context)
    }

    static func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws {
        try await Solutions.saveRequestingAuthorizationOnce(sample, in: store)
    }

    static func averageHeightInMetres(in context: ExampleContext) async throws -> Double? {
        try await Solutions.averageHeightInMetres(in: context)
    }

    static func readHeights(
        within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
    ) -> Promise<[String]> {
        Solutions.readHeights(within: limit, on: scheduler, fetch: fetch)
    }

    static func whenThree(
        on queue: OperationQueue, _ first: @escaping @Sendable () -> Promise<Int>,
        _ second: @escaping @Sendable () -> Promise<Int>, _ third: @escaping @Sendable () -> Promise<Int>
    ) -> Promise<[Int]> {
        Solutions.whenThree(on: queue, first, second, third)
    }

    static func chainFailingInTheMiddle(on queue: OperationQueue, log: StepLog, error: any Error) -> Promise<Void> {
        Solutions.chainFailingInTheMiddle(on: queue, log: log, error: error)
    }

    static func bodyTemperaturePitfall(_ value: Double, _ unit: String, in context: ExampleContext) async -> String {
        await Solutions.bodyTemperaturePitfall(value, unit, in: context)
    }

    static func runInSeries(_ steps: [TourStep]) -> Promise<[String]> {
        Solutions.runInSeries(steps)
    }

    static func gatherChanges(
        of types: [HealthObjectType], limit: Int,
        fetch: @escaping @Sendable (HealthObjectType) async throws -> GatheredChanges
    ) async throws -> [GatheredChanges] {
        try await Solutions.gatherChanges(of: types, limit: limit, fetch: fetch)
    }

    static func gatherChanges(
        of types: [HealthObjectType], in store: any HealthStore, since anchors: [HealthObjectType: HealthQueryAnchor]
    ) async throws -> [GatheredChanges] {
        try await Solutions.gatherChanges(of: types, in: store, since: anchors)
    }

    static func uploadGathered(
        _ gathered: [GatheredChanges], in context: ExampleContext, to transport: any UploadTransport, attempts: Int
    ) async throws -> UploadReceipt {
        try await Solutions.uploadGathered(gathered, in: context, to: transport, attempts: attempts)
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
        try await Solutions.importReportingProgress(path, into: store, progress: progress)
    }

    static func importInOrder(_ paths: [String], into store: any HealthStore) -> Promise<[HealthExportReport]> {
        Solutions.importInOrder(paths, into: store)
    }
}
