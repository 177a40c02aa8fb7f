import Dispatch
import FlowKit
import Foundation

/// The embedded ``HealthStore``: HealthKit's rules over data kept in memory — for the command-line demo,
/// for tests, and for platforms without HealthKit.
///
/// It is configured with who the app is, who answers the permission sheet, the person's characteristics,
/// and where callbacks run:
///
/// ```swift
/// let app = HealthAppConfiguration(
///     bundleIdentifier: "com.example.steps", name: "Steps",
///     healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")
/// let store = InMemoryHealthStore(configuration: app, policy: .deny(read: [.heartRate]))
///
/// try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount, .heartRate])
/// try await store.save(.quantity(walk))   // walk.source == app.source
/// let today = try await store.samples(of: .stepCount, matching: .samples(withStart: midnight, end: nil))
/// ```
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
/// All state sits behind one `LockedState`. Callbacks go, in the order of the changes that caused them, to the
/// callback executor — by default a serial dispatch queue the store owns — and never run while the lock is
/// held, so a handler may call the store again. With `.immediate`, handlers run on the calling thread
/// before the store method returns (a handler that calls the store has its callbacks run right after it).
///
/// ## Indexes
/// Samples are kept per type in arrays sorted by start date (appends are O(1) when data arrives in time
/// order; otherwise a binary search finds the slot), with a UUID index and append-only change logs for
/// anchors. A date-range query costs O(log n + k): see ``HealthStore/execute(_:)``.
///
/// The store never logs; error messages name types and UUIDs, never health values.
public final class InMemoryHealthStore: HealthQueryRunner {
    /// Who the app is: its source and usage descriptions.
    ///
    /// ```swift
    /// store.configuration.source   // Steps (com.example.steps)
    /// ```
    public let configuration: HealthAppConfiguration
    /// Who answers the permission sheet.
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(configuration: app, policy: .userCancels)
    /// ```
    public let policy: AuthorizationPolicy
    /// The person's characteristics, readable through ``dateOfBirthComponents()`` and friends.
    ///
    /// ```swift
    /// store.characteristics.bloodType   // .oPositive
    /// ```
    public let characteristics: HealthCharacteristics
    /// Where completion and query handlers run.
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(configuration: app, callbackExecutor: .immediate)
    /// ```
    public let callbackExecutor: FlowExecutor
    /// Whether health data is available; `false` makes every operation fail with
    /// ``HealthStoreError/healthDataUnavailable``.
    ///
    /// ```swift
    /// InMemoryHealthStore(configuration: app, isHealthDataAvailable: false).isHealthDataAvailable   // false
    /// ```
    public let isHealthDataAvailable: Bool
    /// The daily goals written into the activity summaries the store derives from its samples (see
    /// ``HealthActivitySummaryQuery``).
    ///
    /// ```swift
    /// InMemoryHealthStore(configuration: app, activitySummaryGoals: data.configuration.goals).activitySummaryGoals
    /// ```
    public let activitySummaryGoals: ActivitySummaryGoals

    private let state: LockedState<StoreState>
    private let outbox: CallbackOutbox
    /// Where mutations are made durable before they are applied (`nil`: memory only). See ``FileHealthStore``.
    private let log: (any MutationLog)?

    /// Makes an empty store.
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(
    ///     configuration: app, policy: .grantAll,
    ///     characteristics: HealthCharacteristics(biologicalSex: .female),
    ///     callbackExecutor: .queue(.main))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The app: bundle identifier, name, usage descriptions.
    ///   - policy: Who answers the permission sheet; everything allowed by default.
    ///   - characteristics: The person's characteristics; none set by default.
    ///   - callbackExecutor: Where handlers run; by default a serial queue owned by the store.
    ///   - isHealthDataAvailable: `false` to model a device without health data.
    ///   - activitySummaryGoals: The goals of derived activity summaries; the Activity app's usual ones by
    ///     default.
    public convenience init(
        configuration: HealthAppConfiguration, policy: AuthorizationPolicy = .grantAll,
        characteristics: HealthCharacteristics = HealthCharacteristics(), callbackExecutor: FlowExecutor? = nil,
        isHealthDataAvailable: Bool = true, activitySummaryGoals: ActivitySummaryGoals = .standard
    ) {
        self.init(
            configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: callbackExecutor, isHealthDataAvailable: isHealthDataAvailable,
            state: StoreState(appBundleIdentifier: configuration.bundleIdentifier), log: nil,
            queueName: "InMemoryHealthStore", activitySummaryGoals: activitySummaryGoals)
    }

    /// Makes a store over `state` that journals every mutation to `log` before applying it (a
    /// ``FileHealthStore``'s core); `queueName` names the default callback queue.
    init(
        configuration: HealthAppConfiguration, policy: AuthorizationPolicy, characteristics: HealthCharacteristics,
        callbackExecutor: FlowExecutor?, isHealthDataAvailable: Bool, state: sending StoreState,
        log: (any MutationLog)?, queueName: String, activitySummaryGoals: ActivitySummaryGoals = .standard
    ) {
        self.configuration = configuration
        self.policy = policy
        self.characteristics = characteristics
        let executor =
            callbackExecutor
            ?? .queue(DispatchQueue(label: "HealthFlow.\(queueName).callbacks(\(configuration.bundleIdentifier))"))
        self.callbackExecutor = executor
        self.isHealthDataAvailable = isHealthDataAvailable
        self.activitySummaryGoals = activitySummaryGoals
        self.state = LockedState(state)
        self.outbox = CallbackOutbox(executor: executor)
        self.log = log
    }

    /// The source of the samples the app saves (``HealthAppConfiguration/source``).
    ///
    /// ```swift
    /// let sample = try HealthQuantitySample(type: .height, quantity: height, date: .now, source: store.source)
    /// ```
    public var source: HealthSource { configuration.source }

    // MARK: Delivering callbacks

    /// Queues `job` and delivers it (and anything queued before it).
    func deliver(_ job: @escaping CallbackOutbox.Job) {
        outbox.enqueue(job)
        outbox.drain()
    }

    /// Runs `body` under the lock with a function that queues callbacks in order, then delivers them.
    func withState(_ body: (inout StoreState, (@escaping CallbackOutbox.Job) -> Void) -> Void) {
        state.withLock { state in
            body(&state) { job in outbox.enqueue(job) }
        }
        outbox.drain()
    }

    /// Journals `mutation` (when the store has a log), then applies it; nothing changes when journaling fails.
    /// Call with the lock held, after the mutation passed the rules.
    private func commit(_ mutation: StoreMutation, to state: inout StoreState) throws(FileStoreError) -> [CallbackOutbox
        .Job]
    {
        try log?.append(mutation)
        return state.apply(mutation)
    }

    /// Runs `body` with the state under the lock (a durable store takes snapshots with it). `body` must not
    /// call the store.
    func withLockedState<Result: Sendable, Failure: Error>(
        _ body: (inout StoreState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state) }
    }

    // MARK: Authorization

    /// Asks ``policy`` about the types not answered yet (on the calling thread, without holding the lock),
    /// records its answer, and reports on the callback executor. See
    /// ``HealthStore/requestAuthorization(toShare:read:completion:)``.
    ///
    /// ```swift
    /// store.requestAuthorization(toShare: [.bodyMass], read: [.height]) { success, error in … }
    /// ```
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    ///   - completion: `(true, nil)` once answered, `(false, error)` otherwise.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let outcome = authorizationFlow.request(share: typesToShare, read: typesToRead) { request in
            state.withLock { $0.authorization.unanswered(request) }
        }
        switch outcome {
        case .finished(let error):
            deliver { completion(error == nil, error) }
        case .record(let share, let read, let request):
            withState { state, enqueue in
                do {
                    _ = try commit(.authorization(share: share, read: read, request: request), to: &state)
                    enqueue { completion(true, nil) }
                } catch {
                    enqueue { completion(false, error) }
                }
            }
        }
    }

    /// See ``HealthStore/authorizationStatus(for:)``.
    ///
    /// ```swift
    /// store.authorizationStatus(for: .stepCount)   // .sharingAuthorized
    /// ```
    ///
    /// - Parameter type: Any type.
    /// - Returns: The sharing status.
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        state.withLock { $0.authorization.status(for: type) }
    }

    /// See ``HealthStore/getRequestStatusForAuthorization(toShare:read:completion:)``.
    ///
    /// ```swift
    /// store.getRequestStatusForAuthorization(toShare: [.stepCount], read: []) { status, _ in … }
    /// ```
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    ///   - completion: The status, or `.unknown` with the error.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        withState { state, enqueue in
            let (status, error) = authorizationFlow.requestStatus(
                share: typesToShare, read: typesToRead, unanswered: state.authorization.unanswered)
            enqueue { completion(status, error) }
        }
    }

    private var authorizationFlow: AuthorizationFlow {
        AuthorizationFlow(configuration: configuration, policy: policy, isHealthDataAvailable: isHealthDataAvailable)
    }

    // MARK: Saving and deleting

    /// Saves one sample; see `HealthStore.save(_:withCompletion:)`.
    ///
    /// ```swift
    /// store.save(.quantity(weight)) { success, error in … }
    /// ```
    ///
    /// - Parameters:
    ///   - sample: The sample.
    ///   - completion: `(true, nil)` when saved.
    public func save(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        save([sample], withCompletion: completion)
    }

    /// Saves samples all-or-nothing; see `HealthStore.save(_:withCompletion:)`.
    ///
    /// ```swift
    /// store.save([.quantity(a), .quantity(b)]) { success, error in … }
    /// ```
    ///
    /// - Parameters:
    ///   - samples: The samples.
    ///   - completion: `(true, nil)` when all were saved.
    /// - Complexity: O(s log n) for s samples arriving in time order; more when they start before samples
    ///   already stored (each such insert shifts the array).
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        do {
            try checkAvailableAndValid(samples)
        } catch {
            deliver { completion(false, error) }
            return
        }
        withState { state, enqueue in
            do {
                try state.checkSave(samples)
                let notifications = try commit(.insert(samples), to: &state)
                enqueue { completion(true, nil) }
                notifications.forEach(enqueue)
            } catch {
                enqueue { completion(false, error) }
            }
        }
    }

    /// Deletes one sample the app saved; see `HealthStore.delete(_:withCompletion:)`.
    ///
    /// ```swift
    /// store.delete(.quantity(mistake)) { success, error in … }
    /// ```
    ///
    /// - Parameters:
    ///   - sample: The sample.
    ///   - completion: `(true, nil)` when deleted.
    public func delete(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        delete([sample], withCompletion: completion)
    }

    /// Deletes samples all-or-nothing; see `HealthStore.delete(_:withCompletion:)`.
    ///
    /// ```swift
    /// store.delete(duplicates) { success, error in … }
    /// ```
    ///
    /// - Parameters:
    ///   - samples: The samples.
    ///   - completion: `(true, nil)` when all were deleted.
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard isHealthDataAvailable else {
            deliver { completion(false, HealthStoreError.healthDataUnavailable) }
            return
        }
        withState { state, enqueue in
            do {
                let targets = try state.deletionTargets(samples)
                let notifications = try commit(.delete(targets.map(\.uuid)), to: &state)
                enqueue { completion(true, nil) }
                notifications.forEach(enqueue)
            } catch {
                enqueue { completion(false, error) }
            }
        }
    }

    /// Adds samples as another app or device would (a watch, a scale): no authorization or source checks,
    /// but the sample rules and UUID uniqueness hold, all-or-nothing. Anchored and observer queries report
    /// them like any change. The app may read them if the person allowed it, but never delete them.
    ///
    /// ```swift
    /// let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")
    /// try store.ingest([.quantity(try HealthQuantitySample(
    ///     type: .heartRate, quantity: bpm72, date: .now, source: watch))])
    /// ```
    ///
    /// - Parameter samples: Samples with any source.
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, ``HealthStoreError/invalidSample(_:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``; nothing is added then.
    public func ingest(_ samples: [HealthSample]) throws(HealthStoreError) {
        switch ingestCommitting(samples) {
        case nil: return
        case .refused(let error)?: throw error
        // Unreachable: a store without a log has no storage to fail.
        case .storage(let error)?: throw .unknown(reason: error.description)
        }
    }

    /// Why ``ingest(_:)`` failed: a rule refused the samples, or the log could not make them durable.
    enum IngestFailure: Error {
        case refused(HealthStoreError)
        case storage(FileStoreError)
    }

    /// ``ingest(_:)`` with the storage failure kept apart (a durable store reports it as is).
    func ingestCommitting(_ samples: [HealthSample]) -> IngestFailure? {
        do {
            try checkAvailableAndValid(samples)
        } catch {
            return .refused(error)
        }
        let failure = state.withLock { state -> IngestFailure? in
            do throws(HealthStoreError) {
                try HealthSaveRules.checkIngest(samples, isStored: state.isStored)
            } catch {
                return .refused(error)
            }
            do throws(FileStoreError) {
                let notifications = try commit(.insert(samples), to: &state)
                notifications.forEach(outbox.enqueue)
                return nil
            } catch {
                return .storage(error)
            }
        }
        outbox.drain()
        return failure
    }

    private func checkAvailableAndValid(_ samples: [HealthSample]) throws(HealthStoreError) {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        try HealthSaveRules.validate(samples)
    }

    // MARK: Queries

    /// Queues `job` on ``callbackExecutor`` behind the callbacks already queued.
    public func scheduleCallback(_ job: @escaping @Sendable () -> Void) {
        deliver(job)
    }

    /// Runs a sample query.
    /// - Complexity: With a date range, O(log n + m), where m counts the samples of the type starting between
    ///   the range's start minus the type's longest sample duration (the start itself with `.strictStartDate`)
    ///   and its end; with a UUID predicate, O(u) for u UUIDs. Sorting by start date with a limit stops after
    ///   the limit; other sorts add O(m log m).
    public func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>) {
        withState { state, enqueue in
            enqueue(execution.resultsJob(.success(state.sampleResults(for: query))))
        }
    }

    /// Runs an anchored object query.
    /// - Complexity: O(log n + c) for the c changes it looks at.
    public func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>) {
        withState { state, enqueue in
            let changes = state.changes(
                of: query.objectType, matching: query.predicate, after: query.anchor?.sequence ?? 0,
                limit: query.limit)
            if execution.keepsRunning { state.watch(query, .anchored(execution, anchor: changes.newAnchor.sequence)) }
            enqueue(execution.resultsJob(.success(changes)))
        }
        forgetOnStop(execution)
    }

    /// Runs an observer query: one update at once, then one per matching change.
    public func run(
        _ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>
    ) {
        withState { state, enqueue in
            state.watch(query, .observer(execution))
            enqueue(execution.updateJob(.success({})))
        }
        forgetOnStop(execution)
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

    /// See ``HealthStore/dateOfBirthComponents()``.
    ///
    /// ```swift
    /// let birthday = try store.dateOfBirthComponents()
    /// ```
    ///
    /// - Returns: The components.
    /// - Throws: `authorizationNotDetermined`, or `noData` when unset or unreadable.
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents {
        let readable = try characteristicIsReadable(.dateOfBirth)
        guard readable, let dateOfBirth = characteristics.dateOfBirth else { throw .noData(.dateOfBirth) }
        return dateOfBirth
    }

    /// See ``HealthStore/biologicalSex()``.
    ///
    /// ```swift
    /// let sex = try store.biologicalSex()
    /// ```
    ///
    /// - Returns: The value, or `.notSet`.
    /// - Throws: `authorizationNotDetermined` when never requested.
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex {
        try characteristicIsReadable(.biologicalSex) ? characteristics.biologicalSex : .notSet
    }

    /// See ``HealthStore/bloodType()``.
    ///
    /// ```swift
    /// let blood = try store.bloodType()
    /// ```
    ///
    /// - Returns: The value, or `.notSet`.
    /// - Throws: `authorizationNotDetermined` when never requested.
    public func bloodType() throws(HealthStoreError) -> BloodType {
        try characteristicIsReadable(.bloodType) ? characteristics.bloodType : .notSet
    }

    /// See ``HealthStore/fitzpatrickSkinType()``.
    ///
    /// ```swift
    /// let skin = try store.fitzpatrickSkinType()
    /// ```
    ///
    /// - Returns: The value, or `.notSet`.
    /// - Throws: `authorizationNotDetermined` when never requested.
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try characteristicIsReadable(.fitzpatrickSkinType) ? characteristics.fitzpatrickSkinType : .notSet
    }

    /// See ``HealthStore/wheelchairUse()``.
    ///
    /// ```swift
    /// let wheelchair = try store.wheelchairUse()
    /// ```
    ///
    /// - Returns: The value, or `.notSet`.
    /// - Throws: `authorizationNotDetermined` when never requested.
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse {
        try characteristicIsReadable(.wheelchairUse) ? characteristics.wheelchairUse : .notSet
    }

    /// See ``HealthStore/activityMoveMode()``.
    ///
    /// ```swift
    /// let mode = try store.activityMoveMode()
    /// ```
    ///
    /// - Returns: The value, or `.activeEnergy` when unreadable.
    /// - Throws: `authorizationNotDetermined` when never requested.
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode {
        try characteristicIsReadable(.activityMoveMode) ? characteristics.activityMoveMode : .activeEnergy
    }

    /// Whether the app may read a characteristic; throws when reading it was never requested.
    private func characteristicIsReadable(_ type: HealthObjectType) throws(HealthStoreError) -> Bool {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        let (determined, readable) = state.withLock {
            ($0.authorization.readIsDetermined(type), $0.authorization.mayRead(type))
        }
        guard determined else { throw .authorizationNotDetermined(type) }
        return readable
    }
}
