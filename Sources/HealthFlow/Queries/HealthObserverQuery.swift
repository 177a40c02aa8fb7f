import FlowKit
import Synchronization

/// Tells the app that samples of a type changed — the counterpart of `HKObserverQuery`.
///
/// The update handler is called once when the query starts and then after every save or delete that the
/// query matches (one call per store operation, however many samples it touched). It carries no data: the
/// app runs a sample or anchored query to see what changed, then calls the completion handler.
///
/// HealthKit retries background deliveries with back-off when the completion handler is not called. An
/// in-memory store does not redeliver; it records the omission instead: ``unacknowledgedUpdates`` counts
/// deliveries whose completion handler has not been called, so a test can assert that an app always calls it.
///
/// ```swift
/// let query = HealthObserverQuery(sampleType: .stepCount) { _, completion, _ in
///     refreshSteps()
///     completion()
/// }
/// store.execute(query)
/// try await store.save(walk)
/// #expect(query.deliveredUpdates == 2)  // on start, and after the save
/// #expect(query.unacknowledgedUpdates == 0)  // the app called every completion handler
/// store.stop(query)  // it observes until stopped, and holds its handler until then
/// ```
///
/// In async code, ``HealthStore/observe(_:matching:)`` gives the same notifications as an `AsyncStream`.
public final class HealthObserverQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types (and `LockedState`s).
    /// The completion handler the app must call once it has handled an update.
    public typealias CompletionHandler = @Sendable () -> Void
    /// The update handler's type: the query, the completion handler to call, and the error (or `nil`).
    public typealias UpdateHandler = @Sendable (HealthObserverQuery, @escaping CompletionHandler, (any Error)?) -> Void

    private let updateHandler: UpdateHandler

    private struct Counts {
        var delivered = 0
        var acknowledged = 0
    }

    private let counts = LockedState(Counts())

    /// Makes an observer query; run it with ``HealthStore/execute(_:)`` and end it with ``HealthStore/stop(_:)``.
    ///
    /// - Parameters:
    ///   - sampleType: A sample type.
    ///   - predicate: Which changes to report; `nil` for all of the type.
    ///   - updateHandler: Called on start and after each matching change.
    public init(sampleType: HealthObjectType, predicate: SamplePredicate? = nil, updateHandler: @escaping UpdateHandler)
    {
        self.updateHandler = updateHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// How many updates the handler has received.
    public var deliveredUpdates: Int {
        counts.withLock { $0.delivered }
    }

    /// How many delivered updates still wait for their completion handler (HealthKit would retry these).
    public var unacknowledgedUpdates: Int {
        counts.withLock { $0.delivered - $0.acknowledged }
    }

    /// Calls the update handler with a fresh completion handler that counts once, however often it is called;
    /// `acknowledged` runs on that first call (a bridge store passes the underlying store's completion handler).
    private func deliver(error: (any Error)?, acknowledged: (@Sendable () -> Void)? = nil) {
        counts.withLock { $0.delivered += 1 }
        let once = OnceFlag()
        let completion: CompletionHandler = { [self] in
            if once.claim() {
                counts.withLock { $0.acknowledged += 1 }
                acknowledged?()
            }
        }
        updateHandler(self, completion, error)
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = updateHandler
        launch(
            on: runner, validationError: sampleTypeError(), rejected: { handler(self, {}, $0) },
            results: { self.deliver(error: $0.failure) },
            updates: { outcome in
                switch outcome {
                case .success(let acknowledged): self.deliver(error: nil, acknowledged: acknowledged)
                case .failure(let error): self.deliver(error: error)
                }
            }
        ) { runner.run(self, in: $0) }
    }
}

/// A flag that can be claimed once, from any thread.
final class OnceFlag: Sendable {
    private let claimed = Atomic(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
