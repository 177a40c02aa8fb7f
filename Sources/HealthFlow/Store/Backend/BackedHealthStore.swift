import Dispatch
import FlowKit
import Foundation

/// A complete ``HealthStore`` over any ``HealthStoreBackend``: implement the backend's few storage operations
/// and this store supplies HealthKit's rules and every query, as ``InMemoryHealthStore`` applies them —
/// authorization validated by HealthFlow's rules and answered by an ``AuthorizationPolicy`` (answers kept by a
/// ``HealthAuthorizationStoreBackend``; over any other backend they last as long as the store), hidden read
/// denial, ``HealthSaveRules`` before every change, each query kind run through its ``QueryExecution``, anchored
/// and observer updates after each change, and handlers in the order of the changes on ``callbackExecutor``,
/// never while the lock is held.
///
/// Memory: statistics queries and sample queries with a limit fold the backend's matches
/// (``HealthStoreBackend/reduceSamples(of:matching:into:_:)``), keeping 48 bytes per match for statistics and at
/// most `max(2 × limit, 64)` samples for a limited query; other queries hold what they return.
///
/// - Note: Sendable: the backend and everything the store changes sit behind one `LockedState`.
public final class BackedHealthStore<Backend: HealthStoreBackend>: HealthQueryRunner {
    /// Who the app is: its source and usage descriptions.
    public let configuration: HealthAppConfiguration
    /// Who answers the permission sheet.
    public let policy: AuthorizationPolicy
    /// The person's characteristics.
    public let characteristics: HealthCharacteristics
    /// Where completion and query handlers run.
    public let callbackExecutor: FlowExecutor
    /// Whether health data is available; `false` makes every operation fail with
    /// ``HealthStoreError/healthDataUnavailable``.
    public let isHealthDataAvailable: Bool
    /// The daily goals of the activity summaries the store derives from its samples.
    public let activitySummaryGoals: ActivitySummaryGoals

    private struct Locked: Sendable {
        var backend: Backend
        var authorization = AuthorizationTable()
        var watches: [Watch] = []
    }

    /// A running query that follows changes.
    private enum Watch: Sendable {
        case anchored(HealthAnchoredObjectQuery, QueryExecution<HealthAnchoredChanges>, after: UInt64)
        case observer(HealthObserverQuery, QueryExecution<HealthObserverQuery.CompletionHandler>)
        case collection(HealthStatisticsCollectionQuery, QueryExecution<StatisticsCollection>)

        var query: HealthQuery {
            switch self {
            case .anchored(let query, _, _): query
            case .observer(let query, _): query
            case .collection(let query, _): query
            }
        }
    }

    private let state: LockedState<Locked>
    private let outbox: CallbackOutbox

    /// A store over `backend`.
    /// - Parameters:
    ///   - backend: The storage, empty or not.
    ///   - configuration: The app: bundle identifier, name, usage descriptions.
    ///   - policy: Who answers the permission sheet; everything allowed by default.
    ///   - characteristics: The person's characteristics; none set by default.
    ///   - callbackExecutor: Where handlers run; by default a serial queue owned by the store.
    ///   - isHealthDataAvailable: `false` to model a device without health data.
    ///   - activitySummaryGoals: The goals of derived activity summaries.
    public init(
        backend: Backend, configuration: HealthAppConfiguration, policy: AuthorizationPolicy = .grantAll,
        characteristics: HealthCharacteristics = HealthCharacteristics(), callbackExecutor: FlowExecutor? = nil,
        isHealthDataAvailable: Bool = true, activitySummaryGoals: ActivitySummaryGoals = .standard
    ) {
        outbox = CallbackOutbox(
            executor: callbackExecutor, store: "BackedHealthStore", app: configuration.bundleIdentifier)
        self.callbackExecutor = outbox.executor
        self.configuration = configuration
        self.policy = policy
        self.characteristics = characteristics
        self.isHealthDataAvailable = isHealthDataAvailable
        self.activitySummaryGoals = activitySummaryGoals
        let kept = (backend as? any HealthAuthorizationStoreBackend).map {
            AuthorizationTable($0.authorizationAnswers(forApp: configuration.bundleIdentifier))
        }
        self.state = LockedState(Locked(backend: backend, authorization: kept ?? AuthorizationTable()))
    }

    private var app: String { configuration.bundleIdentifier }

    /// Runs `body` under the lock with a function that queues callbacks in order, then delivers them.
    private func withState(_ body: (inout Locked, (@escaping CallbackOutbox.Job) -> Void) -> Void) {
        outbox.withLock(state, body)
    }

    /// Queues `job` on ``callbackExecutor`` behind the callbacks already queued.
    public func scheduleCallback(_ job: @escaping @Sendable () -> Void) {
        outbox.enqueue(job)
        outbox.drain()
    }

    // MARK: Authorization

    /// Validates the request, asks ``policy`` about the types not answered yet and records its answer.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        askForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    /// The sharing status of `type`.
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        sharingStatus(for: type)
    }

    /// Whether requesting these types would show the permission sheet.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        requestStatus(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    func withAuthorizationTable<Result: Sendable>(
        _ body: (AuthorizationTable, (@escaping CallbackOutbox.Job) -> Void) -> Result
    ) -> Result {
        outbox.withLock(state) { state, _ in body(state.authorization) { job in outbox.enqueue(job) } }
    }

    func recordAnswer(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        withState { state, enqueue in
            var table = state.authorization
            table.record(share: share, read: read, for: request)
            if table.answers != state.authorization.answers,
                var keeping = state.backend as? any HealthAuthorizationStoreBackend
            {
                do {
                    try keeping.keep(table.answers, forApp: app)
                } catch {
                    return enqueue { completion(false, error) }
                }
                if let kept = keeping as? Backend { state.backend = kept }
            }
            state.authorization = table
            enqueue { completion(true, nil) }
        }
    }

    // MARK: Saving and deleting

    /// Checks `samples` with ``HealthSaveRules`` and inserts them all, or none.
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        insert(samples, reply: { error in completion(error == nil, error) }) { state throws(HealthStoreError) in
            let keys = BatchKeys(samples, owner: app)
            let stored = Self.storedUUIDs(of: keys, in: state.backend)
            try HealthSaveRules.checkSave(
                samples, keys: keys, appBundleIdentifier: app, sharing: state.authorization.status(for:),
                isStored: { stored.contains($0.uuid) })
        }
    }

    /// Adds samples as another app or device would: no authorization or source rules, but the sample rules
    /// and UUID uniqueness hold, all-or-nothing.
    /// - Throws: ``HealthStoreError`` when a rule refuses them; the backend's error when it cannot store them.
    public func ingest(_ samples: [HealthSample]) throws {
        let failure = insert(samples, reply: nil) { state throws(HealthStoreError) in
            try Self.checkIngest(BatchKeys(samples, owner: ""), in: state)
        }
        if let failure { throw failure }
    }

    /// The rules of ``ingest(_:)`` that need the store's state: UUID uniqueness, over the batch's objects as
    /// read once (`keys`), for both the backend's question and the check.
    private static func checkIngest(_ keys: BatchKeys, in state: borrowing Locked) throws(HealthStoreError) {
        let stored = storedUUIDs(of: keys, in: state.backend)
        try HealthSaveRules.checkIngest(keys, isStored: { stored.contains($0.uuid) })
    }

    /// The UUIDs of the batch's objects (`keys`: samples and their correlations' members) that `backend` holds
    /// live: one question for the batch (``HealthStoreBackend/storedUUIDs(among:)``), so a backend reads each
    /// block it needs once.
    private static func storedUUIDs(of keys: BatchKeys, in backend: Backend) -> Set<UUID> {
        backend.storedUUIDs(among: keys.objects.map(\.uuid.uuid))
    }

    /// Validates `samples`, runs `check` and inserts them under the lock with `store` (the backend's
    /// ``HealthStoreBackend/insert(_:)`` by default); returns the refusal or storage error, if any, and queues
    /// `reply` with it ahead of the update callbacks the insertion calls for.
    /// `validated`: the samples passed ``HealthSaveRules/validate(_:)`` already (``prepareIngest(_:)``).
    @discardableResult
    private func insert(
        _ samples: [HealthSample], validated: Bool = false, reply: (@Sendable ((any Error)?) -> Void)?,
        check: (borrowing Locked) throws(HealthStoreError) -> Void,
        store: (inout Backend, [StoredHealthSample]) throws -> Void = { try $0.insert($1) }
    ) -> (any Error)? {
        do {
            guard isHealthDataAvailable else { throw HealthStoreError.healthDataUnavailable }
            if !validated { try HealthSaveRules.validate(samples) }
        } catch {
            if let reply { scheduleCallback { reply(error) } }
            return error
        }
        var failure: (any Error)?
        withState { state, enqueue in
            do {
                try check(state)
                var objects: [StoredHealthSample] = []
                objects.reserveCapacity(samples.count)
                for index in samples.indices {
                    SampleRules.forEachFlattened(samples[index]) { object, correlation in
                        objects.append(StoredHealthSample(sample: object, correlation: correlation))
                    }
                }
                try store(&state.backend, objects)
                if let reply { enqueue { reply(nil) } }
                if !state.watches.isEmpty { notifications(for: objects.map(\.sample), in: &state).forEach(enqueue) }
            } catch {
                failure = error
                if let reply { enqueue { reply(error) } }
            }
        }
        return failure
    }

    /// Checks the deletion with ``HealthSaveRules`` and deletes the samples (a correlation with its members),
    /// all or none.
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard isHealthDataAvailable else {
            return scheduleCallback { completion(false, HealthStoreError.healthDataUnavailable) }
        }
        withState { state, enqueue in
            do {
                let backend = state.backend
                let targets = try HealthSaveRules.checkDelete(
                    samples.map(\.uuid), appBundleIdentifier: app, sharing: state.authorization.status(for:),
                    lookup: { backend.sample(withUUID: $0) })
                let objects = targets.flatMap(HealthSaveRules.flattened)
                try state.backend.delete(objects)
                enqueue { completion(true, nil) }
                notifications(for: objects, in: &state).forEach(enqueue)
            } catch {
                enqueue { completion(false, error) }
            }
        }
    }

    // MARK: Reading

    /// The visible quantity samples of the query's type, as statistics records: each object is folded into a record
    /// and dropped (``HealthStoreBackend/reduceSamples(of:matching:into:_:)``), so the query holds 48 bytes per
    /// match, not the objects; none when the backend met damage part-way.
    private static func statisticsRecords(for query: HealthQuery, in state: Locked, app: String)
        -> StatisticsRecordGatherer
    {
        let authorization = state.authorization
        var gathered = StatisticsRecordGatherer(type: query.objectType)
        let complete = state.backend.reduceSamples(of: query.objectType, matching: query.predicate, into: &gathered) {
            gathered, sample, _ in
            guard case .quantity(let quantity) = sample, authorization.isVisible(sample, toApp: app) else { return }
            gathered.add(quantity)
        }
        guard complete else { return StatisticsRecordGatherer(type: query.objectType) }
        gathered.sortRecords()
        return gathered
    }

    /// How many changes an anchored query asks its backend for at a time.
    static var changeChunk: Int { 4_096 }

    /// The visible changes to `type` after `anchor`, at most `limit` (0: all), and the anchor after them.
    private static func changes(
        of type: HealthObjectType, matching predicate: SamplePredicate?, after anchor: UInt64, limit: Int,
        in state: Locked, app: String
    ) -> HealthAnchoredChanges {
        var samples: [HealthSample] = []
        var deleted: [HealthDeletedObject] = []
        var last = anchor
        var cut = false
        reading: while true {
            let chunk = state.backend.changes(of: type, after: last, limit: changeChunk)
            for change in chunk {
                if limit > 0, samples.count + deleted.count >= limit {
                    cut = true
                    break reading
                }
                last = change.sequence
                guard predicate?.evaluate(change.sample) ?? true,
                    state.authorization.isVisible(change.sample, toApp: app)
                else { continue }
                if change.isDeletion {
                    deleted.append(HealthDeletedObject(deleting: change.sample))
                } else {
                    samples.append(change.sample)
                }
            }
            if chunk.count < changeChunk { break }
        }
        let newAnchor = cut ? last : max(anchor, state.backend.lastSequence)
        return HealthAnchoredChanges(
            samples: samples, deletedObjects: deleted, newAnchor: HealthQueryAnchor(sequence: newAnchor))
    }

    /// The update callbacks that `changed` (objects just inserted or deleted) calls for.
    private func notifications(for changed: [HealthSample], in state: inout Locked) -> [CallbackOutbox.Job] {
        let changedTypes = Set(changed.map(\.type))
        var jobs: [CallbackOutbox.Job] = []
        state.watches.removeAll { !$0.query.isRunning }
        for position in state.watches.indices where changedTypes.contains(state.watches[position].query.objectType) {
            let watch = state.watches[position]
            let query = watch.query
            let matched = changed.contains {
                $0.type == query.objectType && (query.predicate?.evaluate($0) ?? true)
                    && state.authorization.isVisible($0, toApp: app)
            }
            switch watch {
            case .anchored(let query, let execution, let anchor):
                let delta = Self.changes(
                    of: query.objectType, matching: query.predicate, after: anchor, limit: 0, in: state, app: app)
                state.watches[position] = .anchored(query, execution, after: delta.newAnchor.sequence)
                if !delta.samples.isEmpty || !delta.deletedObjects.isEmpty {
                    jobs.append(execution.updateJob(.success(delta)))
                }
            case .observer(_, let execution):
                if matched { jobs.append(execution.updateJob(.success({}))) }
            case .collection(let query, let execution):
                guard matched else { continue }
                let records = Self.statisticsRecords(for: query, in: state, app: app)
                jobs.append(execution.updateJob { StatisticsQueryEvaluation.collection(of: records, for: query) })
            }
        }
        return jobs
    }

    /// Follows changes for `watch` until its query stops (the cleanup is registered outside the lock: it runs
    /// at once for a query stopped already).
    private func forgetOnStop<Results>(_ execution: QueryExecution<Results>) {
        let query = execution.query
        execution.onStop { [weak self] in self?.state.withLock { $0.watches.removeAll { $0.query === query } } }
    }

    // MARK: Queries

    /// Runs a sample query: visible matches, sorted by the descriptors, then by start date and insertion order.
    /// The backend's matches are folded (``HealthStoreBackend/reduceSamples(of:matching:into:_:)``) into a
    /// selection that holds only about twice the limit at a time.
    public func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>) {
        withState { state, enqueue in
            let authorization = state.authorization
            let app = app
            var selection = SampleQuerySelection(
                SampleQueryOrder(descriptors: query.sortDescriptors), limit: query.limit)
            let complete = state.backend.reduceSamples(
                of: query.objectType, matching: query.predicate, into: &selection
            ) { selection, sample, rank in
                if authorization.isVisible(sample, toApp: app) { selection.add(sample, rank: rank) }
            }
            enqueue(execution.resultsJob(.success(complete ? selection.samples() : [])))
        }
    }

    /// Runs an anchored object query.
    public func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>) {
        withState { state, enqueue in
            let changes = Self.changes(
                of: query.objectType, matching: query.predicate, after: query.anchor?.sequence ?? 0,
                limit: query.limit, in: state, app: app)
            if execution.keepsRunning {
                state.watches.append(.anchored(query, execution, after: changes.newAnchor.sequence))
            }
            enqueue(execution.resultsJob(.success(changes)))
        }
        forgetOnStop(execution)
    }

    /// Runs an observer query: one update at once, then one per matching visible change.
    public func run(
        _ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>
    ) {
        withState { state, enqueue in
            state.watches.append(.observer(query, execution))
            enqueue(execution.updateJob(.success({})))
        }
        forgetOnStop(execution)
    }

    /// Runs a statistics query over the visible matching samples.
    public func run(_ query: HealthStatisticsQuery, in execution: QueryExecution<HealthStatistics>) {
        withState { state, enqueue in
            let records = Self.statisticsRecords(for: query, in: state, app: app)
            enqueue(execution.resultsJob { StatisticsQueryEvaluation.statistics(of: records, for: query) })
        }
    }

    /// Runs a statistics collection query; with an update handler, each matching visible change delivers a
    /// fresh collection.
    public func run(_ query: HealthStatisticsCollectionQuery, in execution: QueryExecution<StatisticsCollection>) {
        withState { state, enqueue in
            let records = Self.statisticsRecords(for: query, in: state, app: app)
            if execution.keepsRunning { state.watches.append(.collection(query, execution)) }
            enqueue(execution.resultsJob { StatisticsQueryEvaluation.collection(of: records, for: query) })
        }
        forgetOnStop(execution)
    }

    /// Runs an activity summary query: summaries derived from every source's samples with
    /// ``activitySummaryGoals``; none when the app may not read activity summaries.
    public func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>) {
        let predicate = query.activitySummaryPredicate
        let goals = activitySummaryGoals
        withState { state, enqueue in
            guard state.authorization.mayRead(.activitySummary) else {
                return enqueue(execution.resultsJob(.success([])))
            }
            let window = ActivitySummaryQueryEvaluation.inputInterval(for: predicate)
                .map { SamplePredicate.samples(withStart: $0.start, end: $0.end) }
            let samples = ActivitySummaryQueryEvaluation.inputTypes.flatMap { type in
                state.backend.samples(of: type, matching: window).enumerated()
                    .sorted { ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset) }.map(\.element)
            }
            enqueue(
                execution.resultsJob {
                    ActivitySummaryQueryEvaluation.outcome(from: samples, predicate: predicate, goals: goals)
                })
        }
    }

    /// Runs an ECG query: the voltage measurements the backend keeps with the ECG (none for an ECG ingested
    /// without them, an unknown one, or when the app may not read ECGs); over a backend that keeps no series
    /// (not a ``HealthSeriesStoreBackend``), fails with ``HealthStoreError/unsupportedQueryType(_:query:)``.
    public func run(
        _ query: HealthElectrocardiogramQuery, in execution: QueryExecution<[ElectrocardiogramVoltageMeasurement]>
    ) {
        runSeries(of: query.electrocardiogram.uuid, as: ElectrocardiogramRecording.self, in: execution)
    }

    /// Runs a workout route query: the routes the backend keeps with the workout, as an ECG query reads voltages.
    public func run(_ query: HealthWorkoutRouteQuery, in execution: QueryExecution<[HealthWorkoutRoute]>) {
        runSeries(of: query.workout.uuid, as: WorkoutRecording.self, in: execution)
    }

    /// Runs a heartbeat series query: the beats the backend keeps with the series, as an ECG query reads voltages.
    public func run(_ query: HealthHeartbeatSeriesQuery, in execution: QueryExecution<[HealthHeartbeat]>) {
        runSeries(of: query.heartbeatSeries.uuid, as: HeartbeatSeriesRecording.self, in: execution)
    }

    /// The one path of the series queries: the series kept beside the visible sample `uuid`, as `Recording`'s
    /// elements.
    private func runSeries<Recording: SeriesRecording>(
        of uuid: UUID, as recording: Recording.Type, in execution: QueryExecution<[Recording.Element]>
    ) {
        guard Backend.self is any HealthSeriesStoreBackend.Type else {
            let query = execution.query
            return execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
        }
        withState { state, enqueue in
            var elements: [Recording.Element] = []
            if let keeping = state.backend as? any HealthSeriesStoreBackend,
                let stored = state.backend.sample(withUUID: uuid),
                state.authorization.isVisible(stored.sample, toApp: app),
                let series = keeping.series(ofSampleWith: uuid)
            {
                elements = Recording.elements(of: series) ?? []
            }
            enqueue(execution.resultsJob(.success(elements)))
        }
    }

    // MARK: Characteristics

    /// The person's date of birth; `noData` when unset or unreadable.
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents {
        guard let date = try characteristics(readableAs: .dateOfBirth).dateOfBirth else { throw .noData(.dateOfBirth) }
        return date
    }

    /// The person's biological sex, or `.notSet`.
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex {
        try characteristics(readableAs: .biologicalSex).biologicalSex
    }

    /// The person's blood type, or `.notSet`.
    public func bloodType() throws(HealthStoreError) -> BloodType {
        try characteristics(readableAs: .bloodType).bloodType
    }

    /// The person's Fitzpatrick skin type, or `.notSet`.
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try characteristics(readableAs: .fitzpatrickSkinType).fitzpatrickSkinType
    }

    /// Whether the person uses a wheelchair, or `.notSet`.
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse {
        try characteristics(readableAs: .wheelchairUse).wheelchairUse
    }

    /// What the person's move ring counts; `.activeEnergy` when unreadable.
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode {
        try characteristics(readableAs: .activityMoveMode).activityMoveMode
    }
}

extension BackedHealthStore: AuthorizationTableStore {}

extension BackedHealthStore: PreparedIngesting where Backend: PreparedInsertBackend {
    /// Checks `samples` against the sample rules and encodes their log record, without the store's lock: call
    /// it on any thread, then hand the result to ``ingest(_:)-(PreparedIngest)``.
    /// - Throws: ``HealthStoreError`` when a sample rule refuses them, as ``ingest(_:)-([HealthSample])`` would;
    ///   the backend's error when they cannot be encoded (a record too large).
    package func prepareIngest(_ samples: [HealthSample]) throws -> PreparedIngest {
        let keys = try HealthSaveRules.validate(samples, keyingFor: "")
        return PreparedIngest(
            samples: samples, keys: keys, framedLog: try Backend.framedLog(inserting: samples),
            backend: ObjectIdentifier(Backend.self))
    }

    /// Adds samples prepared by ``prepareIngest(_:)`` as ``ingest(_:)-([HealthSample])`` adds them (UUID
    /// uniqueness, all-or-nothing), writing their log record as it was made; one prepared by a store over another
    /// kind of backend is validated and encoded again here.
    package func ingest(_ prepared: PreparedIngest) throws {
        guard prepared.backend == ObjectIdentifier(Backend.self) else { return try ingest(prepared.samples) }
        let failure = insert(
            prepared.samples, validated: true, reply: nil,
            check: { state throws(HealthStoreError) in try Self.checkIngest(prepared.keys, in: state) },
            store: { backend, objects in try backend.insert(objects, framedLog: prepared.framedLog) })
        if let failure { throw failure }
    }
}

extension BackedHealthStore where Backend: HealthSeriesStoreBackend {
    /// Adds ECGs recorded by a device with their voltage measurements, as ``ingest(_:)`` adds samples: the rules
    /// of the samples and UUID uniqueness, all-or-nothing; ``HealthElectrocardiogramQuery`` reads them back.
    /// - Throws: ``HealthStoreError`` when a rule refuses them; the backend's error when it cannot store them.
    public func ingest(_ recordings: [ElectrocardiogramRecording]) throws {
        try ingestRecordings(recordings)
    }

    /// Adds workouts with their routes, as ECGs are added with their voltages; ``HealthWorkoutRouteQuery`` reads
    /// the routes back.
    /// - Throws: As the ECGs' `ingest(_:)`.
    public func ingest(_ recordings: [WorkoutRecording]) throws {
        try ingestRecordings(recordings)
    }

    /// Adds heartbeat series with their beats, as ECGs are added with their voltages;
    /// ``HealthHeartbeatSeriesQuery`` reads the beats back.
    /// - Throws: As the ECGs' `ingest(_:)`.
    public func ingest(_ recordings: [HeartbeatSeriesRecording]) throws {
        try ingestRecordings(recordings)
    }

    /// Adds routes to a stored workout, after the routes it holds — as `HKWorkoutRouteBuilder` adds a route to a
    /// saved workout. The change announces the workout again: anchored queries from an earlier anchor (and so a
    /// sync) read it once more, and its observers are called. No routes add nothing.
    /// - Throws: ``HealthStoreError/objectNotFound(_:)`` when no such workout is stored,
    ///   ``HealthStoreError/healthDataUnavailable``, or the backend's error; nothing is added then.
    public func addRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws {
        guard !routes.isEmpty else { return }
        _ = try addSeries(to: workout.uuid) { _ in .routes(routes) }
    }

    /// Adds to a stored workout those of `routes` it does not hold yet (equal by value), after the routes it
    /// holds, as ``addRoutes(_:to:)`` adds them: what the backend keeps decides, whatever the app may read, so
    /// adding the same routes again (a re-import) adds nothing and writes nothing.
    /// - Returns: The routes added, in the order given.
    /// - Throws: As ``addRoutes(_:to:)``.
    public func addMissingRoutes(
        _ routes: [HealthWorkoutRoute], to workout: HealthWorkout
    ) throws -> [HealthWorkoutRoute] {
        guard !routes.isEmpty else { return [] }
        let added = try addSeries(to: workout.uuid) { kept in
            guard case .routes(let held)? = kept else { return .routes(routes) }
            let missing = routes.filter { !held.contains($0) }
            return missing.isEmpty ? nil : .routes(missing)
        }
        guard case .routes(let missing)? = added else { return [] }
        return missing
    }

    /// Inserts the recordings' samples as ``ingest(_:)`` does, each with its series.
    private func ingestRecordings<Recording: SeriesRecording>(_ recordings: [Recording]) throws {
        let entries = recordings.map(\.seriesSample)
        let samples = entries.samples
        var series: [UUID: HealthSampleSeries] = [:]
        for entry in entries where !entry.series.isEmpty { series[entry.sample.uuid] = entry.series }
        let failure = insert(
            samples, reply: nil,
            check: { state throws(HealthStoreError) in
                try Self.checkIngest(BatchKeys(samples, owner: ""), in: state)
            },
            store: { backend, objects in try backend.insert(objects, series: series) })
        if let failure { throw failure }
    }

    /// Adds to the stored workout `uuid` the series `choose` picks from the one kept beside it (`nil`: nothing,
    /// and no change); returns what was added.
    private func addSeries(
        to uuid: UUID, choose: (HealthSampleSeries?) -> HealthSampleSeries?
    ) throws -> HealthSampleSeries? {
        guard isHealthDataAvailable else { throw HealthStoreError.healthDataUnavailable }
        var outcome: Result<HealthSampleSeries?, any Error> = .success(nil)
        withState { state, enqueue in
            guard let stored = state.backend.sample(withUUID: uuid), stored.correlation == nil,
                stored.sample.type == .workout
            else { return outcome = .failure(HealthStoreError.objectNotFound(uuid)) }
            guard let added = choose(state.backend.series(ofSampleWith: uuid)) else { return }
            do {
                try state.backend.add(added, toSampleWith: uuid)
                outcome = .success(added)
                notifications(for: [stored.sample], in: &state).forEach(enqueue)
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension BackedHealthStore: HealthChangeHistory where Backend: HealthHistoryStoreBackend {
    /// The backend's identity (``HealthHistoryStoreBackend/storeID``).
    public var storeID: UUID { state.withLock { $0.backend.storeID } }

    /// The checkpoint at the backend's last change; its fingerprint is 0 when the backend cannot vouch for it
    /// (then ``mismatch(with:)`` refuses it later, and a sync starts again: never a skip).
    public func historyCheckpoint() -> HealthHistoryCheckpoint {
        state.withLock { state in
            let last = state.backend.lastSequence
            return HealthHistoryCheckpoint(
                storeID: state.backend.storeID, sequence: last,
                fingerprint: state.backend.historyFingerprint(through: last) ?? 0)
        }
    }

    /// Why `checkpoint` is not on the backend's history: another store, past its last change, or a fingerprint
    /// that differs or that the backend cannot vouch for; `nil` when it is.
    public func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        state.withLock { state in
            checkpoint.mismatch(storeID: state.backend.storeID, last: state.backend.lastSequence) {
                state.backend.historyFingerprint(through: $0)
            }
        }
    }

    /// The backend's last change (``HealthStoreBackend/lastSequence``).
    public var lastChangeSequence: UInt64 { state.withLock { $0.backend.lastSequence } }
}
