import Dispatch
import FlowKit
import Foundation

/// The storage engine of HealthFlow's own stores: HealthKit's rules over the indexed ``StoreState``, kept by a
/// ``StorePersistence``. ``InMemoryHealthStore`` is this engine with ``MemoryPersistence``, ``FileHealthStore``
/// with a journal; every rule, query and callback path is written once, here.
///
/// All state sits behind one `LockedState`. Changes pass the rules, are recorded by the persistence and applied
/// under the lock; callbacks are queued in the order of the changes that caused them and delivered on
/// ``callbackExecutor`` after the lock is released, so a handler may call the store again.
///
/// - Note: Sendable: the state sits behind its lock, the outbox behind its own, everything else is immutable.
final class StoreEngine<Persistence: StorePersistence>: StoreEngineCore {
    /// Why ``ingest(_:)`` failed: a rule refused the samples, or the persistence could not keep them.
    enum IngestFailure: Error {
        case refused(HealthStoreError)
        case storage(Persistence.Failure)

        /// The error a store's public `ingest` throws: the refusal or the storage failure itself.
        var underlying: any Error {
            switch self {
            case .refused(let refusal): refusal
            case .storage(let failure): failure
            }
        }
    }

    let configuration: HealthAppConfiguration
    let policy: AuthorizationPolicy
    let characteristics: HealthCharacteristics
    let callbackExecutor: FlowExecutor
    let isHealthDataAvailable: Bool
    let activitySummaryGoals: ActivitySummaryGoals
    let persistence: Persistence

    private let state: LockedState<StoreState>
    private let outbox: CallbackOutbox

    /// An engine over `state`; `queueName` names the default callback queue (a serial queue per store).
    init(
        configuration: HealthAppConfiguration, policy: AuthorizationPolicy, characteristics: HealthCharacteristics,
        callbackExecutor: FlowExecutor?, isHealthDataAvailable: Bool, activitySummaryGoals: ActivitySummaryGoals,
        state: sending StoreState, persistence: Persistence, queueName: String
    ) {
        outbox = CallbackOutbox(executor: callbackExecutor, store: queueName, app: configuration.bundleIdentifier)
        self.callbackExecutor = outbox.executor
        self.configuration = configuration
        self.policy = policy
        self.characteristics = characteristics
        self.isHealthDataAvailable = isHealthDataAvailable
        self.activitySummaryGoals = activitySummaryGoals
        self.persistence = persistence
        self.state = LockedState(state)
    }

    // MARK: Delivering callbacks

    /// Queues `job` and delivers it (and anything queued before it).
    func deliver(_ job: @escaping CallbackOutbox.Job) {
        outbox.enqueue(job)
        outbox.drain()
    }

    /// Runs `body` under the lock with a function that queues callbacks in order, then delivers them.
    func withState(_ body: (inout StoreState, (@escaping CallbackOutbox.Job) -> Void) -> Void) {
        outbox.withLock(state, body)
    }

    /// Runs `body` with the state under the lock (a journal takes snapshots with it). `body` must not call the
    /// store.
    func withLockedState<Result: Sendable, Failure: Error>(
        _ body: (inout StoreState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state) }
    }

    /// Records `mutation` with the persistence, then applies it; nothing changes when recording fails. Call
    /// with the lock held, after the mutation passed the rules.
    private func commit(
        _ mutation: StoreMutation, keys: BatchKeys? = nil, to state: inout StoreState
    ) throws(Persistence.Failure) -> [CallbackOutbox.Job] {
        try persistence.record(mutation)
        return state.apply(mutation, keys: keys)
    }

    /// Makes the change `mutation` derives from the state (or throws the rule that refuses it), commits it and
    /// queues `completion` ahead of the update callbacks it calls for; then lets the persistence follow up.
    /// `keys`, for an insert, are its samples' keys read for the app.
    private func change(
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void, keys: BatchKeys? = nil,
        _ mutation: (StoreState) throws(HealthStoreError) -> StoreMutation
    ) {
        withState { state, enqueue in
            do {
                let checked = try mutation(state)
                let notifications = try commit(checked, keys: keys, to: &state)
                enqueue { completion(true, nil) }
                notifications.forEach(enqueue)
            } catch {
                enqueue { completion(false, error) }
            }
        }
        persistence.changeFinished(in: self)
    }

    // MARK: Authorization

    func withAuthorizationTable<Result: Sendable>(
        _ body: (AuthorizationTable, (@escaping CallbackOutbox.Job) -> Void) -> Result
    ) -> Result {
        outbox.withLock(state) { state, _ in body(state.authorization) { job in outbox.enqueue(job) } }
    }

    func recordAnswer(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        change(completion: completion) { _ in .authorization(share: share, read: read, request: request) }
    }

    func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        askForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        sharingStatus(for: type)
    }

    func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        requestStatus(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    // MARK: Saving and deleting

    /// Saves `samples` all-or-nothing as the app.
    /// - Complexity: O(s log n) for s samples arriving in time order; more when they start before samples
    ///   already stored (each such insert shifts the array).
    func save(_ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let keys: BatchKeys
        do {
            keys = try checkAvailableAndValid(samples)
        } catch {
            return deliver { completion(false, error) }
        }
        change(completion: completion, keys: keys) { state throws(HealthStoreError) in
            try state.checkSave(samples, keys: keys)
            return .insert(samples)
        }
    }

    /// Deletes `samples` (correlations with their members) all-or-nothing as the app.
    func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard isHealthDataAvailable else {
            return deliver { completion(false, HealthStoreError.healthDataUnavailable) }
        }
        change(completion: completion) { state throws(HealthStoreError) in
            .delete(try state.deletionTargets(samples).map(\.uuid))
        }
    }

    /// Adds samples as another app or device would: the sample rules and UUID uniqueness hold, all-or-nothing,
    /// without authorization or source rules.
    func ingest(_ samples: [HealthSample]) throws(IngestFailure) {
        try ingest(samples, as: .insert(samples))
    }

    /// Adds samples with the series kept beside them (ECGs with voltages, workouts with routes) as `ingest(_:)`
    /// adds samples: one all-or-nothing change.
    func ingest<Recording: SeriesRecording>(_ recordings: [Recording]) throws(IngestFailure) {
        let entries = recordings.map(\.seriesSample)
        try ingest(entries.samples, as: .insertSeries(entries))
    }

    /// Adds `series` to the stored sample with `uuid`, after the series it holds (routes to a stored workout), as
    /// `ingest(_:)` adds samples: without authorization or source rules, one change. The public callers add only
    /// non-empty series of kinds that take additions, so a refusal means no such sample is stored:
    /// ``HealthStoreError/objectNotFound(_:)``.
    func add(_ series: HealthSampleSeries, toSampleWith uuid: UUID) throws(IngestFailure) {
        _ = try add(toSampleWith: uuid, checking: series) { _ in series }
    }

    /// Adds to the stored workout with `uuid` those of `routes` it does not hold yet (equal by value), after those
    /// it holds, as ``add(_:toSampleWith:)`` adds series. What the store keeps decides, whatever the app may read
    /// (a read denial hides a workout's routes from queries, not from this), so adding the same routes again adds
    /// nothing. The caller passes at least one route.
    /// - Returns: The routes added, in the order given; none means no change was made.
    func addMissing(
        _ routes: [HealthWorkoutRoute], toSampleWith uuid: UUID
    ) throws(IngestFailure) -> [HealthWorkoutRoute] {
        let added = try add(toSampleWith: uuid, checking: .routes(routes)) { kept in
            guard case .routes(let held)? = kept else { return .routes(routes) }
            let missing = routes.filter { !held.contains($0) }
            return missing.isEmpty ? nil : .routes(missing)
        }
        guard case .routes(let missing)? = added else { return [] }
        return missing
    }

    /// Adds to the stored sample with `uuid` the series `choose` picks from the series the store keeps beside it
    /// (`nil`: nothing, and no change), once `checked` is found to be addable to it: one change.
    /// - Returns: What was added.
    private func add(
        toSampleWith uuid: UUID, checking checked: HealthSampleSeries,
        choose: (HealthSampleSeries?) -> HealthSampleSeries?
    ) throws(IngestFailure) -> HealthSampleSeries? {
        guard isHealthDataAvailable else { throw .refused(.healthDataUnavailable) }
        let outcome = state.withLock { state -> Result<HealthSampleSeries?, IngestFailure> in
            if state.additionProblem(checked, to: uuid) != nil { return .failure(.refused(.objectNotFound(uuid))) }
            guard let added = choose(state.series[uuid]) else { return .success(nil) }
            do throws(Persistence.Failure) {
                try commit(.addSeries(uuid, added, announces: true), to: &state).forEach(outbox.enqueue)
                return .success(added)
            } catch {
                return .failure(.storage(error))
            }
        }
        persistence.changeFinished(in: self)
        return try outcome.get()
    }

    /// Checks `samples` and commits `mutation`, which inserts them.
    private func ingest(_ samples: [HealthSample], as mutation: StoreMutation) throws(IngestFailure) {
        let keys: BatchKeys
        do {
            keys = try checkAvailableAndValid(samples)
        } catch {
            throw .refused(error)
        }
        let failure = state.withLock { state -> IngestFailure? in
            do throws(HealthStoreError) {
                try HealthSaveRules.checkIngest(keys, isStored: state.isStored)
            } catch {
                return .refused(error)
            }
            do throws(Persistence.Failure) {
                try commit(mutation, keys: keys, to: &state).forEach(outbox.enqueue)
                return nil
            } catch {
                return .storage(error)
            }
        }
        outbox.drain()
        persistence.changeFinished(in: self)
        if let failure { throw failure }
    }

    /// Checks the store is available and `samples` valid; returns their keys, read for the app.
    private func checkAvailableAndValid(_ samples: [HealthSample]) throws(HealthStoreError) -> BatchKeys {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        return try HealthSaveRules.validate(samples, keyingFor: configuration.bundleIdentifier)
    }

    // MARK: Queries

    func scheduleCallback(_ job: @escaping @Sendable () -> Void) {
        deliver(job)
    }

    /// Runs a sample query.
    /// - Complexity: With a date range, O(log n + m), where m counts the samples of the type starting between
    ///   the range's start minus the type's longest sample duration (the start itself with `.strictStartDate`)
    ///   and its end; with a UUID predicate, O(u) for u UUIDs. Sorting by start date with a limit stops after
    ///   the limit; other sorts add O(m log m).
    func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>) {
        withState { state, enqueue in
            enqueue(execution.resultsJob(.success(state.sampleResults(for: query))))
        }
    }

    /// Runs an anchored object query.
    /// - Complexity: O(log n + c) for the c changes it looks at.
    func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>) {
        withState { state, enqueue in
            let changes = state.changes(
                of: query.objectType, matching: query.predicate, after: query.anchor?.sequence ?? 0,
                limit: query.limit)
            if execution.keepsRunning { state.watch(query, .anchored(execution, anchor: changes.newAnchor.sequence)) }
            enqueue(execution.resultsJob(.success(changes)))
        }
        forgetOnStop(execution)
    }

    /// Runs a query for the series kept beside the sample with `uuid` (an ECG query, a workout route query):
    /// its elements in the order ingested; none for a sample kept without them, an unknown UUID or a sample the
    /// app may not read.
    /// - Complexity: O(1) under the lock (the array is shared, not copied).
    func runSeries<Recording: SeriesRecording>(
        of uuid: UUID, as recording: Recording.Type, in execution: QueryExecution<[Recording.Element]>
    ) {
        withState { state, enqueue in
            let elements = state.series(of: uuid).flatMap(Recording.elements(of:)) ?? []
            enqueue(execution.resultsJob(.success(elements)))
        }
    }

    /// Runs an observer query: one update at once, then one per matching change.
    func run(_ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>) {
        withState { state, enqueue in
            state.watch(query, .observer(execution))
            enqueue(execution.updateJob(.success({})))
        }
        forgetOnStop(execution)
    }

    /// Runs an activity summary query: summaries derived from every source's samples with
    /// ``activitySummaryGoals``, gathered under the lock and built on the callback executor.
    func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>) {
        let predicate = query.activitySummaryPredicate
        let goals = activitySummaryGoals
        withState { state, enqueue in
            // Read denial is never revealed: without permission to read summaries there simply are none.
            guard state.authorization.mayRead(.activitySummary) else {
                return enqueue(execution.resultsJob(.success([])))
            }
            let samples = state.activitySummaryInputs(
                overlapping: ActivitySummaryQueryEvaluation.inputInterval(for: predicate))
            enqueue(
                execution.resultsJob {
                    ActivitySummaryQueryEvaluation.outcome(from: samples, predicate: predicate, goals: goals)
                })
        }
    }

    /// Stops following changes for the execution's query once it is stopped (registered outside the lock:
    /// the cleanup runs at once for a query stopped already).
    func forgetOnStop<Results>(_ execution: QueryExecution<Results>) {
        let query = execution.query
        execution.onStop { [weak self] in self?.state.withLock { $0.unwatch(query) } }
    }

    /// How many stored samples the last sample query examined (tests check the index's complexity with it).
    var lastQueryExaminedCount: Int {
        state.withLock { $0.lastExaminedCount }
    }

    // MARK: Characteristics

    func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents {
        guard let dateOfBirth = try characteristics(readableAs: .dateOfBirth).dateOfBirth else {
            throw .noData(.dateOfBirth)
        }
        return dateOfBirth
    }

    func biologicalSex() throws(HealthStoreError) -> BiologicalSex {
        try characteristics(readableAs: .biologicalSex).biologicalSex
    }

    func bloodType() throws(HealthStoreError) -> BloodType {
        try characteristics(readableAs: .bloodType).bloodType
    }

    func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try characteristics(readableAs: .fitzpatrickSkinType).fitzpatrickSkinType
    }

    func wheelchairUse() throws(HealthStoreError) -> WheelchairUse {
        try characteristics(readableAs: .wheelchairUse).wheelchairUse
    }

    func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode {
        try characteristics(readableAs: .activityMoveMode).activityMoveMode
    }

    // MARK: History

    var storeID: UUID { withLockedState { $0.storeID } }

    func historyCheckpoint() -> HealthHistoryCheckpoint {
        withLockedState { $0.historyCheckpoint() }
    }

    func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        withLockedState { $0.mismatch(with: checkpoint) }
    }

    var lastChangeSequence: UInt64 { withLockedState { $0.sequence } }
}
