import FlowKit

/// A query a ``HealthStore`` executes — the counterpart of `HKQuery`. The concrete queries are
/// ``HealthSampleQuery``, ``HealthAnchoredObjectQuery``, ``HealthObserverQuery``, ``HealthStatisticsQuery``,
/// ``HealthStatisticsCollectionQuery`` and ``HealthActivitySummaryQuery``; this class is not open, so the set
/// is closed and every store knows how to run each one.
///
/// A query object runs once: executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``
/// to its handler instead of running. ``HealthStore/stop(_:)`` ends a long-running query; a stopped query
/// calls none of its handlers afterwards (not even one already scheduled).
///
/// ```swift
/// let query = HealthSampleQuery(sampleType: .stepCount) { _, samples, error in … }
/// store.execute(query)
/// store.execute(query)   // the handler receives HealthStoreError.queryAlreadyExecuted
/// ```
///
/// - Note: Queries are `Sendable`: their configuration is immutable and their run state sits behind a lock,
///   so a query may be made on one thread, executed on another and stopped from a third.
public class HealthQuery: @unchecked Sendable {
    // @unchecked: the class is not open (no subclass outside this module); this class and every subclass
    // hold only `let`s of Sendable types, and their mutable state lives in `LockedState`s.

    /// `limit` meaning "no limit" (`HKObjectQueryNoLimit`).
    ///
    /// ```swift
    /// HealthSampleQuery(sampleType: .height, limit: HealthQuery.noLimit) { _, _, _ in }
    /// ```
    public static let noLimit = 0

    /// The type the query reads.
    ///
    /// ```swift
    /// query.objectType   // stepCount
    /// ```
    public let objectType: HealthObjectType
    /// The samples it matches, or `nil` for all of the type.
    ///
    /// ```swift
    /// query.predicate   // .date(start: …, end: …, options: [])
    /// ```
    public let predicate: SamplePredicate?

    enum Phase: Sendable {
        case created, running, finished, stopped
    }

    private let phase = LockedState(Phase.created)

    init(objectType: HealthObjectType, predicate: SamplePredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }

    /// Whether a store has executed the query (it may have finished or been stopped since).
    ///
    /// ```swift
    /// store.execute(query)
    /// query.isExecuted   // true
    /// ```
    public var isExecuted: Bool {
        phase.withLock { $0 != .created }
    }

    /// Whether the query was stopped before it finished.
    ///
    /// ```swift
    /// store.stop(query)
    /// query.isStopped   // true
    /// ```
    public var isStopped: Bool {
        phase.withLock { $0 == .stopped }
    }

    /// The query's name for messages: `HealthSampleQuery(stepCount)`.
    package var name: String {
        "\(Swift.type(of: self))(\(objectType))"
    }

    /// Moves from created to running; `false` when the query was executed before.
    package func begin() -> Bool {
        phase.withLock { phase in
            guard phase == .created else { return false }
            phase = .running
            return true
        }
    }

    /// Moves a running query to stopped; `false` when it was not running.
    @discardableResult
    package func markStopped() -> Bool {
        phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .stopped
            return true
        }
    }

    /// Moves a running query to finished and says whether its final handler may run (it may not when the
    /// query was stopped first).
    package func finish() -> Bool {
        phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .finished
            return true
        }
    }

    /// Whether a long-running query's handler may run now.
    package var isRunning: Bool {
        phase.withLock { $0 == .running }
    }
}
