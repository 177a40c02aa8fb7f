import Synchronization

/// One run of a ``HealthQuery``: the only path by which a query's handlers are called. A store receives one
/// from ``HealthQueryRunner`` once the query has begun and passed validation, fetches the results in its own
/// way, and hands them back here; the execution decides whether a handler may still run.
///
/// - A query that stays running (an anchored or statistics collection query with an update handler, an
///   observer query) reports results with ``deliver(_:)`` and changes with ``deliverUpdate(_:)`` until it is
///   stopped; any other query finishes with its first ``deliver(_:)`` or ``fail(_:)``.
/// - A stopped query calls no handler afterwards, not even one already scheduled: the check happens on the
///   callback executor, just before the handler runs.
/// - Handlers run through the store's ``HealthQueryRunner/scheduleCallback(_:)``. A store that must keep
///   callbacks in the order of its changes takes the jobs (``resultsJob(_:)``, ``updateJob(_:)``) and queues
///   them itself.
///
/// - Note: Sendable: the run state lives in the query, behind its lock; everything else is immutable.
public final class QueryExecution<Results: Sendable>: Sendable {
    /// A scheduled handler call.
    public typealias Job = @Sendable () -> Void

    /// The query being run.
    public let query: HealthQuery
    /// Whether the query stays running after its first results (it has an update handler, or observes).
    public let keepsRunning: Bool
    private let schedule: @Sendable (@escaping Job) -> Void
    private let results: @Sendable (Result<Results, any Error>) -> Void
    private let updates: (@Sendable (Result<Results, any Error>) -> Void)?

    init(
        query: HealthQuery, schedule: @escaping @Sendable (@escaping Job) -> Void,
        results: @escaping @Sendable (Result<Results, any Error>) -> Void,
        updates: (@Sendable (Result<Results, any Error>) -> Void)?
    ) {
        self.query = query
        self.schedule = schedule
        self.results = results
        self.updates = updates
        self.keepsRunning = updates != nil
    }

    /// Whether the query is running: neither finished nor stopped.
    public var isRunning: Bool { query.isRunning }

    /// Runs `cleanup` once when the query is stopped (at once if it is stopped already); a query that
    /// finishes never runs it. Use it to release what the store keeps for a running query.
    public func onStop(_ cleanup: @escaping @Sendable () -> Void) {
        query.addStopHook(cleanup)
    }

    /// The call of the results handler with `outcome`, to schedule: it finishes the query (unless the query
    /// keeps running) and does nothing once the query has finished or was stopped.
    public func resultsJob(_ outcome: Result<Results, any Error>) -> Job {
        resultsJob { outcome }
    }

    /// As ``resultsJob(_:)``, with the outcome computed on the callback executor just before the handler runs
    /// (and not at all when the query was stopped meanwhile): the place for work that should not hold a store
    /// lock, such as statistics over gathered samples.
    public func resultsJob(computing outcome: @escaping @Sendable () -> Result<Results, any Error>) -> Job {
        let keepsRunning = keepsRunning
        return { [self] in
            guard keepsRunning ? query.isRunning : query.finish() else { return }
            results(outcome())
        }
    }

    /// The call of the update handler with `outcome`, to schedule; it does nothing once the query stopped.
    public func updateJob(_ outcome: Result<Results, any Error>) -> Job {
        updateJob { outcome }
    }

    /// As ``updateJob(_:)``, with the outcome computed just before the handler runs (not at all when the
    /// query was stopped meanwhile).
    public func updateJob(computing outcome: @escaping @Sendable () -> Result<Results, any Error>) -> Job {
        { [self] in
            guard let updates, query.isRunning else { return }
            updates(outcome())
        }
    }

    /// Schedules the results handler with `outcome` (see ``resultsJob(_:)``).
    public func deliver(_ outcome: Result<Results, any Error>) {
        schedule(resultsJob(outcome))
    }

    /// Schedules the results handler with an outcome computed just before it runs (see
    /// ``resultsJob(computing:)``).
    public func deliver(computing outcome: @escaping @Sendable () -> Result<Results, any Error>) {
        schedule(resultsJob(computing: outcome))
    }

    /// Schedules the update handler with `outcome` (see ``updateJob(_:)``).
    public func deliverUpdate(_ outcome: Result<Results, any Error>) {
        schedule(updateJob(outcome))
    }

    /// Finishes the query with `error`, whether or not it would keep running.
    public func fail(_ error: any Error) {
        schedule { [self] in
            if query.finish() { results(.failure(error)) }
        }
    }
}
