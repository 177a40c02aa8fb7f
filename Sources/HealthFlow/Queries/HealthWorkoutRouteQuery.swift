/// Reads one workout's routes — the counterpart of `HKWorkoutRouteQuery` (which HealthKit runs per route sample
/// found by a sample query for the workout's routes; here the routes are kept beside the workout).
///
/// The results handler is called once on the store's callback executor with the routes in the order they were
/// ingested, or with the error. The workout is matched by UUID; there are no routes for a workout kept without
/// them (``InMemoryHealthStore`` and ``FileHealthStore`` keep them for workouts ingested as a
/// ``WorkoutRecording``), for an unknown workout, or when the app may not read ``HealthObjectType/workout``
/// (read denial is never revealed). A store that keeps no routes at all reports
/// ``HealthStoreError/unsupportedQueryType(_:query:)``.
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
public final class HealthWorkoutRouteQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types.

    /// The results handler's type: the query and the routes or the error.
    public typealias ResultsHandler =
        @Sendable (HealthWorkoutRouteQuery, Result<[HealthWorkoutRoute], any Error>) ->
        Void

    /// The workout whose routes are read.
    public let workout: HealthWorkout
    private let resultsHandler: ResultsHandler

    /// Makes a workout route query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - workout: The workout (matched by UUID).
    ///   - resultsHandler: Called once with the routes or the error.
    public init(workout: HealthWorkout, resultsHandler: @escaping ResultsHandler) {
        self.workout = workout
        self.resultsHandler = resultsHandler
        super.init(objectType: .workout, predicate: .uuids([workout.uuid]))
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = resultsHandler
        launch(
            on: runner, validationError: nil,
            results: { outcome in handler(self, outcome) }
        ) { runner.run(self, in: $0) }
    }
}
