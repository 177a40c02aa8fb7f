import Dispatch
import FlowKit
import Foundation

/// The embedded ``HealthStore``: HealthKit's rules over data kept in memory — for the command-line demo,
/// for tests, and for platforms without HealthKit.
///
/// It is configured with who the app is, who answers the permission sheet (an ``AuthorizationPolicy``), the
/// person's characteristics, and where callbacks run; the module overview (<doc:HealthFlow>) shows one in use.
///
/// Data from other apps and devices (an Apple Watch, say) enters through ``ingest(_:)``, which skips the
/// app's authorization and source rules; the app can then read it (if allowed) but not delete it.
///
/// ## Rules, as HealthKit applies them
/// - Saving needs the type's sharing authorized: never asked → ``HealthStoreError/authorizationNotDetermined(_:)``,
///   denied → ``HealthStoreError/authorizationDenied(_:)``. A correlation needs its members' types. Read-only
///   types fail with ``HealthStoreError/typeNotShareable(_:)``.
/// - A saved sample's source must be the app's (``HealthAppConfiguration/source``); HealthKit stamps the
///   source itself, and our samples carry theirs, so a mismatch is refused rather than silently changed.
/// - UUIDs are unique across the store (members included); batches save and delete all-or-nothing.
/// - An app deletes only samples with its own source; deleting leaves a ``HealthDeletedObject`` tombstone
///   that anchored queries report. Deleting a correlation deletes its members; a member alone cannot be
///   deleted. Deleting also needs sharing authorized.
/// - Queries show samples of a type only if the person allowed reading it — except the app's own.
///
/// ## Threads and callbacks
/// The store is HealthFlow's storage engine with no persistence (see ``LocalHealthStore``): nothing it does can
/// fail for want of storage. All state sits behind one `LockedState`. Callbacks go, in the order of the changes
/// that caused them, to the callback executor — by default a serial dispatch queue the store owns — and never run
/// while the lock is held, so a handler may call the store again. With `.immediate`, handlers run on the calling
/// thread before the store method returns (a handler that calls the store has its callbacks run right after it).
///
/// ## Indexes
/// Samples are kept per type in arrays sorted by start date (appends are O(1) when data arrives in time
/// order; otherwise a binary search finds the slot), with a UUID index and append-only change logs for
/// anchors. A date-range sample query costs O(log n + m), m the samples of the type in the range widened by
/// the type's longest sample duration (``LocalHealthStore``'s `run(_:in:)` for sample queries).
///
/// The store never logs; error messages name types and UUIDs, never health values.
///
/// - Note: Sendable (restated, as Swift asks of a subclass): every stored property is an immutable `let` of a
///   Sendable type; see ``LocalHealthStore``.
public final class InMemoryHealthStore: LocalHealthStore, @unchecked Sendable {
    let engine: StoreEngine<MemoryPersistence>

    /// - Parameters:
    ///   - configuration: The app: bundle identifier, name, usage descriptions.
    ///   - policy: Who answers the permission sheet; everything allowed by default.
    ///   - characteristics: The person's characteristics; none set by default.
    ///   - callbackExecutor: Where handlers run; by default a serial queue owned by the store.
    ///   - isHealthDataAvailable: `false` to model a device without health data.
    ///   - activitySummaryGoals: The goals of derived activity summaries; the Activity app's usual ones by
    ///     default.
    public init(
        configuration: HealthAppConfiguration, policy: AuthorizationPolicy = .grantAll,
        characteristics: HealthCharacteristics = HealthCharacteristics(), callbackExecutor: FlowExecutor? = nil,
        isHealthDataAvailable: Bool = true, activitySummaryGoals: ActivitySummaryGoals = .standard
    ) {
        engine = StoreEngine(
            configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: callbackExecutor, isHealthDataAvailable: isHealthDataAvailable,
            activitySummaryGoals: activitySummaryGoals,
            state: StoreState(appBundleIdentifier: configuration.bundleIdentifier), persistence: MemoryPersistence(),
            queueName: "InMemoryHealthStore")
        super.init(core: engine)
    }

    /// Adds samples as another app or device would (a watch, a scale): no authorization or source checks,
    /// but the sample rules and UUID uniqueness hold, all-or-nothing. Anchored and observer queries report
    /// them like any change. The app may read them if the person allowed it, but never delete them.
    ///
    /// - Parameter samples: Samples with any source.
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, ``HealthStoreError/invalidSample(_:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``; nothing is added then.
    public func ingest(_ samples: [HealthSample]) throws(HealthStoreError) {
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in try engine.ingest(samples) }
    }

    /// Adds ECGs recorded by a device with their voltage measurements, as `ingest(_:)` adds
    /// samples: all-or-nothing, one change. A ``HealthElectrocardiogramQuery`` reads the measurements back.
    ///
    /// - Parameter recordings: ECGs with any source and their measurements.
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, ``HealthStoreError/invalidSample(_:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``; nothing is added then.
    public func ingest(_ recordings: [ElectrocardiogramRecording]) throws(HealthStoreError) {
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in try engine.ingest(recordings) }
    }

    /// Adds workouts with their routes, as `ingest(_:)` adds samples: all-or-nothing, one change. A
    /// ``HealthWorkoutRouteQuery`` reads the routes back.
    ///
    /// - Parameter recordings: Workouts with any source and their routes.
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, ``HealthStoreError/invalidSample(_:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``; nothing is added then.
    public func ingest(_ recordings: [WorkoutRecording]) throws(HealthStoreError) {
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in try engine.ingest(recordings) }
    }

    /// Adds heartbeat series with their beats, as `ingest(_:)` adds samples: all-or-nothing, one change. A
    /// ``HealthHeartbeatSeriesQuery`` reads the beats back.
    ///
    /// - Parameter recordings: Heartbeat series with any source and their beats.
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, ``HealthStoreError/invalidSample(_:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``; nothing is added then.
    public func ingest(_ recordings: [HeartbeatSeriesRecording]) throws(HealthStoreError) {
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in try engine.ingest(recordings) }
    }

    /// Adds routes to a stored workout, after the routes it holds — as `HKWorkoutRouteBuilder` adds a route to a
    /// saved workout. The change announces the workout again: anchored queries from an earlier anchor (and so a
    /// sync) read it once more, now with these routes, and its observers are called: one change.
    ///
    /// - Parameters:
    ///   - routes: The routes, in the order a ``HealthWorkoutRouteQuery`` reads them back after those held.
    ///   - workout: The stored workout (matched by UUID; any source).
    /// - Throws: ``HealthStoreError/objectNotFound(_:)`` when no such workout is stored or
    ///   ``HealthStoreError/healthDataUnavailable``; nothing is added then. No routes add nothing.
    public func addRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws(HealthStoreError) {
        guard !routes.isEmpty else { return }
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in
            try engine.add(.routes(routes), toSampleWith: workout.uuid)
        }
    }

    /// Adds to a stored workout those of `routes` it does not hold yet (equal by value), after the routes it holds,
    /// as ``addRoutes(_:to:)`` adds them: what the store keeps decides, whatever the app may read, so adding the
    /// same routes again (a re-import) adds nothing and changes nothing.
    ///
    /// - Parameters:
    ///   - routes: The routes, in the order a ``HealthWorkoutRouteQuery`` reads the added ones back.
    ///   - workout: The stored workout (matched by UUID; any source).
    /// - Returns: The routes added, in the order given.
    /// - Throws: ``HealthStoreError/objectNotFound(_:)`` when no such workout is stored or
    ///   ``HealthStoreError/healthDataUnavailable``; nothing is added then. No routes add nothing.
    @discardableResult
    public func addMissingRoutes(
        _ routes: [HealthWorkoutRoute], to workout: HealthWorkout
    ) throws(HealthStoreError) -> [HealthWorkoutRoute] {
        guard !routes.isEmpty else { return [] }
        var added: [HealthWorkoutRoute] = []
        try refusal { () throws(StoreEngine<MemoryPersistence>.IngestFailure) in
            added = try engine.addMissing(routes, toSampleWith: workout.uuid)
        }
        return added
    }

    /// Runs an ingest and throws its refusal: the storage case carries `Never` (keeping data in memory cannot
    /// fail).
    private func refusal(
        _ ingest: () throws(StoreEngine<MemoryPersistence>.IngestFailure) -> Void
    ) throws(HealthStoreError) {
        do throws(StoreEngine<MemoryPersistence>.IngestFailure) {
            try ingest()
        } catch {
            switch error {
            case .refused(let refusal): throw refusal
            }
        }
    }
}
