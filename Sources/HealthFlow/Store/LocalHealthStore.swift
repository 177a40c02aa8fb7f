import FlowKit
import Foundation

/// The stores HealthFlow keeps itself — ``InMemoryHealthStore`` and ``FileHealthStore`` — as one public surface:
/// HealthKit's rules and every query over the same storage engine, which differs only in what keeps its changes
/// (nothing, or a journal and snapshots). Each subclass adds what its persistence brings: the in-memory store
/// an `ingest` that only a rule can refuse, the file store its directory, snapshots and closing.
///
/// ## Rules, as HealthKit applies them
/// See ``InMemoryHealthStore``: authorization (read denial hidden), save and delete rules
/// (``HealthSaveRules``), tombstones for anchored queries, handlers in the order of the changes on
/// ``callbackExecutor``, never while the store's lock is held.
///
/// - Note: Sendable: the engine keeps its state behind one lock and every stored property, here and in the two
///   subclasses, is an immutable `let` of a Sendable type. The class is not `open`, so no other subclass can add
///   state; the checking the compiler does for final classes is done by hand for these three (`@unchecked`).
public class LocalHealthStore: HealthQueryRunner, HealthChangeHistory, @unchecked Sendable {
    /// The engine, whatever its persistence; a subclass keeps it typed as well.
    let core: any StoreEngineCore

    init(core: any StoreEngineCore) {
        self.core = core
    }

    /// Who the app is: its source and usage descriptions.
    public var configuration: HealthAppConfiguration { core.configuration }
    /// Who answers the permission sheet (a durable store keeps the answers).
    public var policy: AuthorizationPolicy { core.policy }
    /// The person's characteristics, readable through ``dateOfBirthComponents()`` and friends (never stored).
    public var characteristics: HealthCharacteristics { core.characteristics }
    /// Where completion and query handlers run.
    public var callbackExecutor: FlowExecutor { core.callbackExecutor }
    /// Whether health data is available; `false` makes every operation fail with
    /// ``HealthStoreError/healthDataUnavailable``.
    public var isHealthDataAvailable: Bool { core.isHealthDataAvailable }
    /// The daily goals written into the activity summaries the store derives from its samples (see
    /// ``HealthActivitySummaryQuery``).
    public var activitySummaryGoals: ActivitySummaryGoals { core.activitySummaryGoals }
    /// The source of the samples the app saves (``HealthAppConfiguration/source``).
    public var source: HealthSource { configuration.source }

    // MARK: Authorization

    /// Asks ``policy`` about the types not answered yet (on the calling thread, without holding the lock),
    /// records its answer (a durable store journals it first), and reports on the callback executor. See
    /// ``HealthStore/requestAuthorization(toShare:read:completion:)``.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        core.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    /// See ``HealthStore/authorizationStatus(for:)``.
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        core.authorizationStatus(for: type)
    }

    /// See ``HealthStore/getRequestStatusForAuthorization(toShare:read:completion:)``.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        core.getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    // MARK: Saving and deleting

    /// Saves samples all-or-nothing (a durable store as one journal record, flushed before `completion`
    /// reports success); see `HealthStore.save(_:withCompletion:)`. A failure is a ``HealthStoreError`` (a
    /// rule) or, from a durable store, a ``FileStoreError`` (storage); nothing was saved then.
    /// - Complexity: O(s log n) for s samples arriving in time order; more when they start before samples
    ///   already stored (each such insert shifts the array).
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        core.save(samples, withCompletion: completion)
    }

    /// Deletes samples all-or-nothing (a durable store as one journal record); see
    /// `HealthStore.delete(_:withCompletion:)`.
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        core.delete(samples, withCompletion: completion)
    }

    // MARK: Queries

    /// Queues `job` on ``callbackExecutor`` behind the callbacks already queued.
    public func scheduleCallback(_ job: @escaping @Sendable () -> Void) {
        core.scheduleCallback(job)
    }

    /// Runs a sample query; queries read memory only.
    /// - Complexity: With a date range, O(log n + m), where m counts the samples of the type starting between
    ///   the range's start minus the type's longest sample duration (the start itself with `.strictStartDate`)
    ///   and its end; with a UUID predicate, O(u) for u UUIDs. Sorting by start date with a limit stops after
    ///   the limit; other sorts add O(m log m).
    public func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>) {
        core.run(query, in: execution)
    }

    /// Runs an anchored object query.
    /// - Complexity: O(log n + c) for the c changes it looks at.
    public func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>) {
        core.run(query, in: execution)
    }

    /// Runs an observer query: one update at once, then one per matching change.
    public func run(
        _ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>
    ) {
        core.run(query, in: execution)
    }

    /// Runs a statistics query over the visible matching samples; the statistics are computed on the callback
    /// executor, outside the lock.
    public func run(_ query: HealthStatisticsQuery, in execution: QueryExecution<HealthStatistics>) {
        core.run(query, in: execution)
    }

    /// Runs a statistics collection query; with an update handler, each matching visible change delivers a
    /// fresh collection.
    public func run(_ query: HealthStatisticsCollectionQuery, in execution: QueryExecution<StatisticsCollection>) {
        core.run(query, in: execution)
    }

    /// Runs an activity summary query: summaries derived from every source's samples with
    /// ``activitySummaryGoals``; none when the app may not read activity summaries.
    public func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>) {
        core.run(query, in: execution)
    }

    /// Runs an ECG query: the voltage measurements the store keeps with the ECG (none for an ECG ingested
    /// without them, an unknown one, or when the app may not read ECGs).
    public func run(
        _ query: HealthElectrocardiogramQuery, in execution: QueryExecution<[ElectrocardiogramVoltageMeasurement]>
    ) {
        core.runSeries(of: query.electrocardiogram.uuid, as: ElectrocardiogramRecording.self, in: execution)
    }

    /// Runs a workout route query: the routes the store keeps with the workout (none for a workout saved or
    /// ingested without them, an unknown one, or when the app may not read workouts).
    public func run(_ query: HealthWorkoutRouteQuery, in execution: QueryExecution<[HealthWorkoutRoute]>) {
        core.runSeries(of: query.workout.uuid, as: WorkoutRecording.self, in: execution)
    }

    /// Runs a heartbeat series query: the beats the store keeps with the series (none for a series saved or
    /// ingested without them, an unknown one, or when the app may not read heartbeat series).
    public func run(_ query: HealthHeartbeatSeriesQuery, in execution: QueryExecution<[HealthHeartbeat]>) {
        core.runSeries(of: query.heartbeatSeries.uuid, as: HeartbeatSeriesRecording.self, in: execution)
    }

    // MARK: Characteristics

    /// See ``HealthStore/dateOfBirthComponents()``.
    /// - Throws: `authorizationNotDetermined`, or `noData` when unset or unreadable.
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents {
        try core.dateOfBirthComponents()
    }

    /// See ``HealthStore/biologicalSex()``; `.notSet` when unreadable.
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex {
        try core.biologicalSex()
    }

    /// See ``HealthStore/bloodType()``; `.notSet` when unreadable.
    public func bloodType() throws(HealthStoreError) -> BloodType {
        try core.bloodType()
    }

    /// See ``HealthStore/fitzpatrickSkinType()``; `.notSet` when unreadable.
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try core.fitzpatrickSkinType()
    }

    /// See ``HealthStore/wheelchairUse()``; `.notSet` when unreadable.
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse {
        try core.wheelchairUse()
    }

    /// See ``HealthStore/activityMoveMode()``; `.activeEnergy` when unreadable.
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode {
        try core.activityMoveMode()
    }

    // MARK: Change history

    /// See ``HealthChangeHistory/storeID``: drawn for a new in-memory store; for a durable store, when its
    /// directory's first file was written, and kept in the header of every journal and snapshot since.
    public var storeID: UUID { core.storeID }

    /// See ``HealthChangeHistory/historyCheckpoint()``.
    /// - Returns: The checkpoint at the last change.
    public func historyCheckpoint() -> HealthHistoryCheckpoint {
        core.historyCheckpoint()
    }

    /// See ``HealthChangeHistory/mismatch(with:)``.
    /// - Parameter checkpoint: A checkpoint taken earlier.
    /// - Returns: Why it is not on this store's history, or `nil`.
    public func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        core.mismatch(with: checkpoint)
    }

    /// See ``HealthChangeHistory/lastChangeSequence``.
    public var lastChangeSequence: UInt64 { core.lastChangeSequence }

    /// A copy of the store's data (snapshots are written from it; tests compare stores with it).
    var image: StoreImage { core.image }

    /// How many stored samples the last sample query examined (tests check the index's complexity with it).
    var lastQueryExaminedCount: Int { core.lastQueryExaminedCount }
}

/// What a ``StoreEngine`` answers whatever its persistence: everything but the typed `ingest`, for
/// ``LocalHealthStore`` to hold one engine of either kind.
protocol StoreEngineCore: HealthQueryRunner, HealthChangeHistory, AuthorizationTableStore {
    var callbackExecutor: FlowExecutor { get }
    var activitySummaryGoals: ActivitySummaryGoals { get }
    var image: StoreImage { get }
    var lastQueryExaminedCount: Int { get }
    /// Runs a query for the series kept beside the sample with `uuid` (``StoreEngine/runSeries(of:as:in:)``):
    /// the one path of ``HealthElectrocardiogramQuery``, ``HealthWorkoutRouteQuery`` and
    /// ``HealthHeartbeatSeriesQuery``.
    func runSeries<Recording: SeriesRecording>(
        of uuid: UUID, as recording: Recording.Type, in execution: QueryExecution<[Recording.Element]>)
}
