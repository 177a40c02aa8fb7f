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

/// Every exercise function, as the tests call it: the learner's (`Examples/Exercises`) or the worked solution
/// (`Examples/Solutions`), chosen by ``ExerciseChoice``.
protocol ExerciseAnswers {
    static func writeWeightWithPromises(kilograms: Double, in context: ExampleContext) -> Promise<[String]>
    static func saveRequestingAuthorizationOnce(_ sample: HealthSample, in store: any HealthStore) async throws

    static func averageHeightInMetres(in context: ExampleContext) async throws -> Double?
    static func readHeights(
        within limit: Duration, on scheduler: any FlowScheduler, fetch: @Sendable () -> Promise<[String]>
    ) -> Promise<[String]>

    static func whenThree(
        on queue: OperationQueue, _ first: @escaping @Sendable () -> Promise<Int>,
        _ second: @escaping @Sendable () -> Promise<Int>, _ third: @escaping @Sendable () -> Promise<Int>
    ) -> Promise<[Int]>
    static func chainFailingInTheMiddle(on queue: OperationQueue, log: StepLog, error: any Error) -> Promise<Void>

    static func bodyTemperaturePitfall(_ value: Double, _ unit: String, in context: ExampleContext) async -> String
    static func runInSeries(_ steps: [TourStep]) -> Promise<[String]>

    static func gatherChanges(
        of types: [HealthObjectType], limit: Int,
        fetch: @escaping @Sendable (HealthObjectType) async throws -> GatheredChanges
    ) async throws -> [GatheredChanges]
    static func gatherChanges(
        of types: [HealthObjectType], in store: any HealthStore, since anchors: [HealthObjectType: HealthQueryAnchor]
    ) async throws -> [GatheredChanges]
    static func uploadGathered(
        _ gathered: [GatheredChanges], in context: ExampleContext, to transport: any UploadTransport, attempts: Int
    ) async throws -> UploadReceipt

    static func moveGoal(of service: any ActivityGoalTracking, for day: Date) -> Promise<HealthQuantity>
    static func cancellableMoveGoal(of service: any ActivityGoalTracking, for day: Date) -> Promise<HealthQuantity>

    static func importReportingProgress(
        _ path: String, into store: any HealthStore, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> HealthExportReport
    static func importInOrder(_ paths: [String], into store: any HealthStore) -> Promise<[HealthExportReport]>
}

/// Whose answers the exercise tests check: the worked solutions unless `HEALTHFLOW_EXERCISES=mine`.
enum ExerciseChoice: String {
    case worked, mine

    /// The environment's choice; an unknown value is ``unknown`` so that a test can say so.
    static let current: ExerciseChoice? = {
        guard let value = ProcessInfo.processInfo.environment["HEALTHFLOW_EXERCISES"], !value.isEmpty else {
            return .worked
        }
        return ExerciseChoice(rawValue: value)
    }()

    /// The answers the tests call.
    static var answers: any ExerciseAnswers.Type {
        current == .mine ? LearnerAnswers.self : WorkedAnswers.self
    }
}

/// The answers under test.
var answers: any ExerciseAnswers.Type { ExerciseChoice.answers }
