import FlowKit

/// A query a ``HealthStore`` executes — the counterpart of `HKQuery`. The concrete queries are
/// ``HealthSampleQuery``, ``HealthAnchoredObjectQuery``, ``HealthObserverQuery``, ``HealthStatisticsQuery``,
/// ``HealthStatisticsCollectionQuery``, ``HealthActivitySummaryQuery`` and ``HealthElectrocardiogramQuery``; this
/// class is not open, so the set is closed and every store knows how to run each one.
///
/// A query object runs once: executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``
/// to its handler instead of running. ``HealthStore/stop(_:)`` ends a long-running query; a stopped query
/// calls none of its handlers afterwards (not even one already scheduled).
///
/// - Note: Queries are `Sendable`: their configuration is immutable and their run state sits behind a lock,
///   so a query may be made on one thread, executed on another and stopped from a third.
public class HealthQuery: CustomStringConvertible, @unchecked Sendable {
    // @unchecked: the class is not open (no subclass outside this module); this class and every subclass
    // hold only `let`s of Sendable types, and their mutable state lives in `LockedState`s.

    /// `limit` meaning "no limit" (`HKObjectQueryNoLimit`).
    public static let noLimit = 0

    /// The type the query reads.
    public let objectType: HealthObjectType
    /// The samples it matches, or `nil` for all of the type.
    public let predicate: SamplePredicate?

    private enum Phase: Sendable {
        case created, running, finished, stopped
    }

    private struct RunState {
        var phase = Phase.created
        /// What the execution asked to run when the query is stopped.
        var stopHooks: [@Sendable () -> Void] = []
    }

    private let state = LockedState(RunState())

    init(objectType: HealthObjectType, predicate: SamplePredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }

    /// Whether a store has executed the query (it may have finished or been stopped since).
    public var isExecuted: Bool {
        state.withLock { $0.phase != .created }
    }

    /// Whether the query was stopped before it finished.
    public var isStopped: Bool {
        state.withLock { $0.phase == .stopped }
    }

    /// The query's name for messages: `HealthSampleQuery(stepCount)`.
    public var description: String {
        "\(Swift.type(of: self))(\(objectType))"
    }

    // MARK: Run state (driven by QueryExecution)

    /// Moves from created to running; `false` when the query was executed before.
    func begin() -> Bool {
        state.withLock { state in
            guard state.phase == .created else { return false }
            state.phase = .running
            return true
        }
    }

    /// Moves a running query to finished (dropping its stop hooks); `false` when it was not running.
    func finish() -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.phase = .finished
            state.stopHooks = []
            return true
        }
    }

    /// Moves a running query to stopped and runs its stop hooks (outside the lock).
    func stop() {
        let hooks = state.withLock { state -> [@Sendable () -> Void] in
            guard state.phase == .running else { return [] }
            state.phase = .stopped
            defer { state.stopHooks = [] }
            return state.stopHooks
        }
        for hook in hooks { hook() }
    }

    /// Whether the query is running (neither finished nor stopped).
    var isRunning: Bool {
        state.withLock { $0.phase == .running }
    }

    /// Keeps `hook` for when the query is stopped; runs it now when it is stopped already.
    func addStopHook(_ hook: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            switch state.phase {
            case .running:
                state.stopHooks.append(hook)
                return false
            case .stopped: return true
            case .created, .finished: return false
            }
        }
        if runNow { hook() }
    }

    // MARK: Starting

    /// Begins the query, validates it and hands it to `runner`; each kind overrides this to call
    /// ``launch(on:validationError:rejected:results:updates:run:)`` with its handlers.
    func start(on runner: any HealthQueryRunner) {}

    /// Begins, validates and runs the query with an execution whose handlers are `results` and `updates`.
    /// The error of a repeated execution goes to `rejected`, or as a failure to `results` when `rejected` is
    /// `nil`; the running execution is not disturbed.
    func launch<Results>(
        on runner: any HealthQueryRunner, validationError: HealthStoreError?,
        rejected: (@Sendable (any Error) -> Void)? = nil,
        results: @escaping @Sendable (Result<Results, any Error>) -> Void,
        updates: (@Sendable (Result<Results, any Error>) -> Void)? = nil,
        run: (QueryExecution<Results>) -> Void
    ) {
        guard begin() else {
            let error = HealthStoreError.queryAlreadyExecuted(query: description)
            let reject = rejected ?? { results(.failure($0)) }
            runner.scheduleCallback { reject(error) }
            return
        }
        let execution = QueryExecution(
            query: self, schedule: { runner.scheduleCallback($0) }, results: results, updates: updates)
        let error =
            runner.isHealthDataAvailable ? validationError ?? runner.queryError(for: self) : .healthDataUnavailable
        if let error { return execution.fail(error) }
        run(execution)
    }

    /// Launches a query that streams the series kept beside one sample (``HealthElectrocardiogramQuery``,
    /// ``HealthHeartbeatSeriesQuery``): `element` for each element in order, then `done`; or `failed` once. All
    /// the calls are made from one callback job.
    func launchStreaming<Element: Sendable>(
        on runner: any HealthQueryRunner, element: @escaping @Sendable (Element) -> Void,
        done: @escaping @Sendable () -> Void, failed: @escaping @Sendable (any Error) -> Void,
        run: (QueryExecution<[Element]>) -> Void
    ) {
        launch(
            on: runner, validationError: nil,
            results: { outcome in
                switch outcome {
                case .success(let elements):
                    for each in elements { element(each) }
                    done()
                case .failure(let error):
                    failed(error)
                }
            }, run: run)
    }

    /// The validation error of a query that needs a sample type and takes `limit`, if any.
    func sampleTypeError(limit: Int = 0) -> HealthStoreError? {
        if !objectType.isSampleType { return .unsupportedQueryType(objectType, query: description) }
        if limit < 0 { return .invalidLimit(limit) }
        return nil
    }
}

extension Result {
    /// `nil` for a success; the error of a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The value of a success; `nil` for a failure.
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
