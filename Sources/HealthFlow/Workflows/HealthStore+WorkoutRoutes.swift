import FlowKit

/// The promise and `async` twins of ``HealthWorkoutRouteQuery``.
extension HealthStore {
    /// Runs a ``HealthWorkoutRouteQuery``; cancelling the promise stops the query.
    ///
    /// - Parameter workout: The workout (matched by UUID).
    /// - Returns: A promise of the routes in the order ingested (empty when the store keeps none for the workout
    ///   or the app may not read workouts).
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func workoutRoutes(of workout: HealthWorkout) -> Promise<[HealthWorkoutRoute]> {
        Promise { resolver in
            let query = HealthWorkoutRouteQuery(workout: workout) { _, result in
                switch result {
                case .success(let routes): resolver.fulfill(routes)
                case .failure(let error): resolver.reject(error)
                }
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }

    /// Runs a ``HealthWorkoutRouteQuery``.
    ///
    /// - Parameter workout: The workout (matched by UUID).
    /// - Returns: The routes in the order ingested (empty when the store keeps none for the workout or the app
    ///   may not read workouts).
    /// - Throws: The query's ``HealthStoreError``.
    public func workoutRoutes(of workout: HealthWorkout) async throws -> [HealthWorkoutRoute] {
        return try await firstly { workoutRoutes(of: workout) }.value
    }
}
