import FlowKit
import Synchronization

/// `async` twins of the ``HealthStore`` API: the same names and outcomes as the promise twins, each awaiting
/// the promise twin's value (so the three styles cannot drift apart). Cancelling the awaiting task cancels
/// the promise, which stops any query it started.
extension HealthStore {
    /// Asks for permission; returns once the sheet is answered (not a sign that anything was allowed).
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    /// - Throws: The ``HealthStoreError`` the callback would report.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>
    ) async throws {
        try await firstly { requestAuthorization(toShare: typesToShare, read: typesToRead) }.value
    }

    /// Whether requesting these types would show the permission sheet.
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    /// - Returns: The status.
    /// - Throws: The validation error when the request is invalid.
    public func statusForAuthorizationRequest(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>
    ) async throws -> AuthorizationRequestStatus {
        return try await firstly {
            statusForAuthorizationRequest(
                toShare: typesToShare, read: typesToRead)
        }.value
    }

    /// Saves one sample.
    ///
    /// - Parameter sample: The sample.
    /// - Throws: The ``HealthStoreError`` naming the refusal.
    public func save(_ sample: HealthSample) async throws {
        try await firstly { save(sample) }.value
    }

    /// Saves samples all-or-nothing.
    ///
    /// - Parameter samples: The samples.
    /// - Throws: The ``HealthStoreError`` naming the first refusal; nothing was saved then.
    public func save(_ samples: [HealthSample]) async throws {
        try await firstly { save(samples) }.value
    }

    /// Deletes one sample the app saved.
    ///
    /// - Parameter sample: The sample.
    /// - Throws: The ``HealthStoreError`` naming the refusal.
    public func delete(_ sample: HealthSample) async throws {
        try await firstly { delete(sample) }.value
    }

    /// Deletes samples the app saved, all-or-nothing.
    ///
    /// - Parameter samples: The samples.
    /// - Throws: The ``HealthStoreError`` naming the first refusal; nothing was deleted then.
    public func delete(_ samples: [HealthSample]) async throws {
        try await firstly { delete(samples) }.value
    }

    /// Runs a ``HealthSampleQuery``.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which samples; `nil` for all.
    ///   - sortDescriptors: Sort keys; ascending start date when empty.
    ///   - limit: The most samples; 0 for all.
    /// - Returns: The samples.
    /// - Throws: The ``HealthStoreError`` the query reports.
    public func samples(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil,
        sortedBy sortDescriptors: [SampleSortDescriptor] = [], limit: Int = HealthQuery.noLimit
    ) async throws -> [HealthSample] {
        return try await firstly {
            samples(
                of: type, matching: predicate, sortedBy: sortDescriptors, limit: limit)
        }.value
    }

    /// Runs a one-shot ``HealthAnchoredObjectQuery``: what changed since `anchor`.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which samples; `nil` for all.
    ///   - anchor: Where to start; `nil` for the beginning.
    ///   - limit: The most changes (samples plus deletions); 0 for all.
    /// - Returns: The changes and the anchor to resume from.
    /// - Throws: The ``HealthStoreError`` the query reports.
    public func changes(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, since anchor: HealthQueryAnchor?,
        limit: Int = HealthQuery.noLimit
    ) async throws -> HealthAnchoredChanges {
        return try await firstly {
            changes(
                of: type, matching: predicate, since: anchor, limit: limit)
        }.value
    }

    /// Observes changes to a type as an asynchronous sequence, backed by a ``HealthObserverQuery``: one
    /// element when observation starts, then one per store operation that changes matching samples the app
    /// can see. Each update is acknowledged (its completion handler called) as it enters the stream's
    /// buffer, which is unbounded. The query stops when the consuming task ends or is cancelled; the stream
    /// throws when the query cannot run (an unsupported type, health data unavailable).
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which changes to report; `nil` for all of the type.
    /// - Returns: The updates.
    public func observe(
        _ type: HealthObjectType, matching predicate: SamplePredicate? = nil
    ) -> AsyncThrowingStream<HealthObserverUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let counter = UpdateCounter()
            let query = HealthObserverQuery(sampleType: type, predicate: predicate) { _, completion, error in
                if let error {
                    continuation.finish(throwing: error)
                } else {
                    continuation.yield(HealthObserverUpdate(type: type, index: counter.next()))
                }
                completion()
            }
            continuation.onTermination = { _ in stop(query) }
            execute(query)
        }
    }
}

/// One notification from ``HealthStore/observe(_:matching:)``: something about `type` changed. It carries no
/// samples; run a query to see what.
public struct HealthObserverUpdate: Hashable, Sendable {
    /// The observed type.
    public let type: HealthObjectType
    /// 0 for the update sent when observation starts, then 1, 2, … for each change.
    public let index: Int

    /// Makes an update.
    ///
    /// - Parameters:
    ///   - type: The observed type.
    ///   - index: The update's position in the stream.
    public init(type: HealthObjectType, index: Int) {
        self.type = type
        self.index = index
    }

    /// Whether this is the update sent when observation starts (not caused by a change).
    public var isInitial: Bool { index == 0 }
}

/// Numbers observer updates from 0.
private final class UpdateCounter: Sendable {
    private let value = Atomic(0)

    func next() -> Int {
        value.add(1, ordering: .relaxed).oldValue
    }
}
