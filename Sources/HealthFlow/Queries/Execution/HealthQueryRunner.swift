/// A ``HealthStore`` that runs each kind of query its own way, and leaves everything else about running a
/// query to HealthFlow: `execute` and `stop` come from this protocol. Executing a query begins it (a query
/// executed before gets ``HealthStoreError/queryAlreadyExecuted(query:)`` instead), validates it (health data
/// available, a sample type where one is needed, a limit not negative, statistics options that suit the type,
/// then ``queryError(for:)``), and only then calls the `run` method for its kind with a ``QueryExecution``.
///
/// A store built on a ``HealthStoreBackend`` gets all of this from ``BackedHealthStore``; implement this
/// protocol directly for a store over another query engine (the HealthKit bridge runs HealthKit's queries).
public protocol HealthQueryRunner: HealthStore {
    /// Runs `job` (a handler call) where this store's handlers run.
    func scheduleCallback(_ job: @escaping @Sendable () -> Void)

    /// A store-specific reason not to run `query` (a type this store cannot query, say), checked after
    /// HealthFlow's own validation; `nil` by default.
    func queryError(for query: HealthQuery) -> HealthStoreError?

    /// Runs a sample query: deliver the matching samples, sorted and limited.
    func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>)
    /// Runs an anchored object query: deliver the changes after its anchor and, while it keeps running, later
    /// changes as updates.
    func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>)
    /// Runs an observer query: deliver an update (with the acknowledgement to call when the app acknowledges
    /// it) for each matching change.
    func run(_ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>)
    /// Runs a statistics query.
    func run(_ query: HealthStatisticsQuery, in execution: QueryExecution<HealthStatistics>)
    /// Runs a statistics collection query and, while it keeps running, delivers fresh collections as updates.
    func run(_ query: HealthStatisticsCollectionQuery, in execution: QueryExecution<StatisticsCollection>)
    /// Runs an activity summary query.
    func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>)
    /// Runs an ECG query: deliver the ECG's voltage measurements in recording order. By default the query
    /// fails with ``HealthStoreError/unsupportedQueryType(_:query:)``: the store keeps no measurements.
    func run(
        _ query: HealthElectrocardiogramQuery, in execution: QueryExecution<[ElectrocardiogramVoltageMeasurement]>)
    /// Runs a workout route query: deliver the workout's routes. By default the query fails with
    /// ``HealthStoreError/unsupportedQueryType(_:query:)``: the store keeps no routes.
    func run(_ query: HealthWorkoutRouteQuery, in execution: QueryExecution<[HealthWorkoutRoute]>)
    /// Runs a heartbeat series query: deliver the series' beats in time order. By default the query fails with
    /// ``HealthStoreError/unsupportedQueryType(_:query:)``: the store keeps no beats.
    func run(_ query: HealthHeartbeatSeriesQuery, in execution: QueryExecution<[HealthHeartbeat]>)
}

extension HealthQueryRunner {
    /// No store-specific reason: HealthFlow's validation decides.
    public func queryError(for query: HealthQuery) -> HealthStoreError? { nil }

    /// Fails the query with ``HealthStoreError/unsupportedQueryType(_:query:)``: a store that keeps no voltage
    /// measurements.
    public func run(
        _ query: HealthElectrocardiogramQuery, in execution: QueryExecution<[ElectrocardiogramVoltageMeasurement]>
    ) {
        execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
    }

    /// Fails the query with ``HealthStoreError/unsupportedQueryType(_:query:)``: a store that keeps no routes.
    public func run(_ query: HealthWorkoutRouteQuery, in execution: QueryExecution<[HealthWorkoutRoute]>) {
        execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
    }

    /// Fails the query with ``HealthStoreError/unsupportedQueryType(_:query:)``: a store that keeps no beats.
    public func run(_ query: HealthHeartbeatSeriesQuery, in execution: QueryExecution<[HealthHeartbeat]>) {
        execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
    }

    /// Begins, validates and runs `query` (see ``HealthQueryRunner``); handlers run through
    /// ``scheduleCallback(_:)``.
    public func execute(_ query: HealthQuery) {
        query.start(on: self)
    }

    /// Stops `query` when it is running, running the cleanups its execution registered
    /// (``QueryExecution/onStop(_:)``); otherwise does nothing.
    public func stop(_ query: HealthQuery) {
        query.stop()
    }
}
