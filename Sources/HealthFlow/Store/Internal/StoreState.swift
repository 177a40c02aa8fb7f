import Foundation

/// Everything an ``InMemoryHealthStore`` keeps behind its lock, and the rules that change it.
///
/// Methods never call user code: those that change data return the callbacks to deliver as jobs, which the
/// store queues in its ``CallbackOutbox`` (still under the lock, so callbacks keep the order of changes) and
/// runs after releasing the lock.
struct StoreState {
    typealias Job = CallbackOutbox.Job

    /// Where a live object is: its type's slot and its sort keys — 20 bytes, so a bucket of the UUID table is 40
    /// (the correlation holding a member is kept apart, in `correlations`).
    struct Location {
        let start: Double
        let sequence: UInt64
        private let slotNumber: UInt32

        var slot: Int { Int(slotNumber) }

        init(slot: Int, start: Double, sequence: UInt64) {
            self.start = start
            self.sequence = sequence
            slotNumber = UInt32(slot)
        }
    }

    /// A running query that follows changes: what it watches, and how it hears of them.
    struct Watch {
        enum Follower {
            /// An anchored query with an update handler, and the last anchor it reported.
            case anchored(QueryExecution<HealthAnchoredChanges>, anchor: UInt64)
            /// An observer query.
            case observer(QueryExecution<HealthObserverQuery.CompletionHandler>)
            /// A statistics collection query with an update handler: each change delivers a fresh collection.
            case collection(HealthStatisticsCollectionQuery, QueryExecution<StatisticsCollection>)
        }

        let query: HealthQuery
        var follower: Follower
    }

    let appBundleIdentifier: String
    /// Who this store is: drawn when it is created, kept by its files (``HealthChangeHistory/storeID``). Only a
    /// durable store opening files written before stores had an identity sets it later.
    var storeID: UUID
    var authorization = AuthorizationTable()
    var indexes: [TypeIndex] = []
    private(set) var slots: [HealthObjectType: Int] = [:]
    private(set) var locations = UUIDTable<Location>()
    /// The correlation holding each live correlation member, by the member's UUID.
    private(set) var correlations = UUIDTable<UUID>()
    /// The series data kept beside live samples ingested as recordings (an ECG's voltages, a workout's routes),
    /// by the sample's UUID; never an empty series.
    private(set) var series: [UUID: HealthSampleSeries] = [:]
    /// The number of the last change recorded; every insertion and deletion takes the next one.
    private(set) var sequence: UInt64 = 0
    /// The history fingerprint of every change so far (see `fingerprint(through:)`), kept as changes apply.
    private(set) var historySum: UInt64 = 0
    private var watches: [Watch] = []
    /// How many stored samples the last sample query looked at (a test hook for the index's complexity).
    private(set) var lastExaminedCount = 0

    init(appBundleIdentifier: String, storeID: UUID = UUID()) {
        self.appBundleIdentifier = appBundleIdentifier
        self.storeID = storeID
    }

    /// A state rebuilt from a snapshot's parts (see `StoreImage`): the caller has checked that they agree —
    /// every location points at a live entry of its slot, and `sequence` is at least every logged sequence.
    init(
        appBundleIdentifier: String, storeID: UUID, authorization: AuthorizationTable, indexes: [TypeIndex],
        slots: [HealthObjectType: Int], locations: UUIDTable<Location>, correlations: UUIDTable<UUID>,
        sequence: UInt64, series: [UUID: HealthSampleSeries] = [:]
    ) {
        self.appBundleIdentifier = appBundleIdentifier
        self.storeID = storeID
        self.authorization = authorization
        self.indexes = indexes
        self.slots = slots
        self.locations = locations
        self.correlations = correlations
        self.sequence = sequence
        self.series = series
        self.historySum = Self.sum(of: indexes, after: 0)
    }

    // MARK: Reading rules

    /// Whether queries show `sample` to the app: its own samples always; others only when the person allowed
    /// reading the type (for a correlation, every member's type).
    func isVisible(_ sample: HealthSample) -> Bool {
        authorization.isVisible(sample, toApp: appBundleIdentifier)
    }

    private func matches(_ predicate: SamplePredicate?, _ sample: HealthSample) -> Bool {
        (predicate?.evaluate(sample) ?? true) && isVisible(sample)
    }

    /// `matches` for a stored entry, using its cached keys; `typeIsReadable` is `mayRead` of the entry's type,
    /// computed once per scan, or `nil` for correlation types (whose members decide).
    private func matches(_ predicate: SamplePredicate?, _ entry: IndexedSample, typeIsReadable: Bool?) -> Bool {
        guard entry.isOwned || (typeIsReadable ?? isVisible(entry.sample)) else { return false }
        return predicate?.evaluate(entry.sample, start: entry.start, end: entry.end) ?? true
    }

    // MARK: Saving and deleting

    /// Whether an object with `uuid` is stored (live).
    func isStored(_ uuid: UUIDKey) -> Bool {
        locations[uuid] != nil
    }

    /// The live object with `uuid`, with the correlation holding it.
    func stored(_ uuid: UUID) -> StoredHealthSample? {
        let key = UUIDKey(uuid)
        guard let location = locations[key], let entry = entry(at: location) else { return nil }
        return StoredHealthSample(sample: entry.sample, correlation: correlations[key])
    }

    /// The refusal saving `samples` as the app meets, if any (``HealthSaveRules``); `keys` are the batch's,
    /// read for the app (``HealthSaveRules/validate(_:keyingFor:)``).
    func checkSave(_ samples: [HealthSample], keys: BatchKeys) throws(HealthStoreError) {
        try HealthSaveRules.checkSave(
            samples, keys: keys, appBundleIdentifier: appBundleIdentifier, sharing: authorization.status(for:),
            isStored: isStored)
    }

    /// The stored samples that deleting `samples` as the app removes, or the refusal (``HealthSaveRules``).
    func deletionTargets(_ samples: [HealthSample]) throws(HealthStoreError) -> [HealthSample] {
        try HealthSaveRules.checkDelete(
            samples.map(\.uuid), appBundleIdentifier: appBundleIdentifier, sharing: authorization.status(for:),
            lookup: stored)
    }

    /// Applies a mutation whose rules were checked (``checkSave(_:keys:)``, ``deletionTargets(_:)``) or which
    /// a durable store read back from its journal (after ``replayProblem(_:)``), and returns the update
    /// callbacks it calls for. This is the one place data changes, so replaying the same mutations in the
    /// same order rebuilds the same state, sequence numbers and anchors included. `keys`, for an insert, are
    /// its samples' keys read for the app (read here when not given).
    mutating func apply(_ mutation: StoreMutation, keys: BatchKeys? = nil) -> [Job] {
        switch mutation {
        case .insert(let samples):
            guard let keys, keys.owner == appBundleIdentifier else {
                return insert(samples, keys: BatchKeys(samples, owner: appBundleIdentifier))
            }
            return insert(samples, keys: keys)
        case .insertSeries(let entries):
            let jobs = apply(.insert(entries.samples))
            for entry in entries where !entry.series.isEmpty { series[entry.sample.uuid] = entry.series }
            return jobs
        case .addSeries(let uuid, let added, let announces):
            series[uuid] = series[uuid].flatMap { $0.appending(added) } ?? added
            return announces ? reannounce(uuid) : []
        case .delete(let uuids):
            var changed: [HealthSample] = []
            for uuid in uuids {
                guard let location = locations[UUIDKey(uuid)], let target = entry(at: location)?.sample else {
                    continue
                }
                for object in SampleRules.flattened(target) where remove(object) {
                    changed.append(object)
                }
                series[uuid] = nil
            }
            return notifications(for: changed)
        case .authorization(let share, let read, let request):
            authorization.record(share: share, read: read, for: request)
            return []
        }
    }

    /// Why a mutation read back from a journal cannot be applied to this state, or `nil` when it can: an
    /// insert must not reuse a live UUID, and a delete must name live samples that are not correlation
    /// members. (Journals only hold mutations that passed the rules, so a problem means damage.)
    func replayProblem(_ mutation: StoreMutation) -> String? {
        switch mutation {
        case .insert(let samples):
            do {
                try HealthSaveRules.checkIngest(BatchKeys(samples, owner: appBundleIdentifier), isStored: isStored)
            } catch {
                return "an insert repeats a UUID"
            }
        case .insertSeries(let entries):
            return replayProblem(.insert(entries.samples))
        case .addSeries(let uuid, let added, _):
            return additionProblem(added, to: uuid)
        case .delete(let uuids):
            var seen = UUIDTable<Void>(minimumCapacity: uuids.count)
            for uuid in uuids.lazy.map(UUIDKey.init) {
                guard locations.contains(uuid), seen.insertNew(uuid, ()) else {
                    return "a delete names an object that is not stored"
                }
                if correlations.contains(uuid) { return "a delete names a correlation member" }
            }
        case .authorization:
            break
        }
        return nil
    }

    /// Why `added` cannot be added to the sample with `uuid`, or `nil` when it can: the sample must be stored (live)
    /// and of the type the series belongs beside, the kind must take additions, and the series must hold
    /// something.
    func additionProblem(_ added: HealthSampleSeries, to uuid: UUID) -> String? {
        guard added.kind.additionRecord != nil else { return "\(added.kind.names.series) cannot be added to a sample" }
        guard !added.isEmpty else { return "an added series is empty" }
        guard let stored = stored(uuid), stored.sample.type == added.kind.sampleType else {
            return "\(added.kind.names.series) added to an object that is not \(added.kind.names.sample) in the store"
        }
        return nil
    }

    /// Inserts the batch `samples`, whose keys are `keys`, and returns the update callbacks it calls for.
    private mutating func insert(_ samples: [HealthSample], keys: BatchKeys) -> [Job] {
        // Only running queries need the changed objects; a run of samples of one type finds its slot once.
        let notifies = !watches.isEmpty
        var changed: [HealthSample] = []
        if notifies { changed.reserveCapacity(keys.objects.count) }
        var slotType: HealthObjectType?
        var slot = 0
        var position = 0
        for index in samples.indices {
            if keys.objects[position].type.kind != .correlation {
                // The sample itself: the one copy the entry keeps.
                insert(samples[index], keys.objects[position], slotType: &slotType, slot: &slot)
                if notifies { changed.append(samples[index]) }
                position += 1
                continue
            }
            SampleRules.forEachFlattened(samples[index]) { object, _ in
                insert(object, keys.objects[position], slotType: &slotType, slot: &slot)
                if notifies { changed.append(object) }
                position += 1
            }
        }
        return notifications(for: changed)
    }

    /// Adds `sample` (whose fields are `keys`) to the index of its type, `slot` when that is `slotType`'s.
    private mutating func insert(
        _ sample: consuming HealthSample, _ keys: BatchKeys.Object, slotType: inout HealthObjectType?,
        slot: inout Int
    ) {
        if keys.type != slotType {
            slot = self.slot(for: keys.type)
            slotType = keys.type
        }
        sequence += 1
        let entry = IndexedSample(
            sample: consume sample, start: keys.start, end: keys.end, sequence: sequence, isOwned: keys.isOwned)
        indexes[slot].insert(consume entry, uuid: keys.uuid)
        historySum &+= HistoryMix.addition(sequence: sequence, uuid: keys.uuid)
        locations[keys.uuid] = Location(slot: slot, start: keys.start, sequence: sequence)
        if let correlation = keys.correlation { correlations[keys.uuid] = correlation }
    }

    private mutating func remove(_ sample: HealthSample) -> Bool {
        let uuid = UUIDKey(sample.uuid)
        guard let location = locations.removeValue(forKey: uuid) else { return false }
        if correlations.count > 0 { correlations.removeValue(forKey: uuid) }
        sequence += 1
        historySum &+= HistoryMix.deletion(sequence: sequence, uuid: uuid)
        let tombstone = StoredTombstone(
            sequence: sequence, object: HealthDeletedObject(deleting: sample), sample: sample)
        return indexes[location.slot].remove(
            start: location.start, sequence: location.sequence, tombstone: tombstone) != nil
    }

    /// Moves the live sample `uuid` to the next sequence number, as if it were inserted again, so that anchored
    /// queries (and so syncs) from an earlier anchor read it once more, with the series added to it: a route added
    /// to a workout already sent is sent with it. Its earlier addition stays in the log as a stale one, so the
    /// history up to any earlier change is unchanged (``fingerprint(through:)``).
    private mutating func reannounce(_ uuid: UUID) -> [Job] {
        let key = UUIDKey(uuid)
        guard let location = locations[key],
            let entry = indexes[location.slot].takeOut(start: location.start, sequence: location.sequence)
        else { return [] }
        sequence += 1
        let sample = entry.sample
        indexes[location.slot].insert(
            IndexedSample(
                sample: sample, start: entry.start, end: entry.end, sequence: sequence, isOwned: entry.isOwned),
            uuid: key)
        historySum &+= HistoryMix.addition(sequence: sequence, uuid: key)
        locations[key] = Location(slot: location.slot, start: location.start, sequence: sequence)
        return notifications(for: [sample])
    }

    private mutating func slot(for type: HealthObjectType) -> Int {
        if let slot = slots[type] { return slot }
        indexes.append(TypeIndex())
        slots[type] = indexes.count - 1
        return indexes.count - 1
    }

    func entry(at location: Location) -> IndexedSample? {
        let index = indexes[location.slot]
        return index.position(start: location.start, sequence: location.sequence).map { index.entries[$0] }
    }

    /// The series kept beside the sample with `uuid` when it is stored and the app may see it; `nil` otherwise (a
    /// sample kept without a series, an unknown UUID, or one the app may not read: read denial is never revealed).
    /// - Complexity: O(1) (the series is shared, not copied).
    func series(of uuid: UUID) -> HealthSampleSeries? {
        guard let kept = series[uuid], let stored = stored(uuid), isVisible(stored.sample) else { return nil }
        return kept
    }

    // MARK: Sample queries

    /// The samples a sample query returns: matching, visible, sorted, limited.
    /// - Complexity: O(log n + m) for a date range, where m counts the samples of the type starting between
    ///   `start − longest duration` and `end` (`start` itself with `.strictStartDate`), plus O(m log m) unless
    ///   the first sort key is the start date.
    mutating func sampleResults(for query: HealthSampleQuery) -> [HealthSample] {
        lastExaminedCount = 0
        guard let slot = slots[query.objectType] else { return [] }
        let index = indexes[slot]
        let plan = QueryPlan(query.predicate, longestDuration: index.longestDuration)
        let descriptors = query.sortDescriptors
        let limit = query.limit
        let readable = query.objectType.kind == .correlation ? nil : authorization.mayRead(query.objectType)
        var collected: [IndexedSample] = []
        if let uuids = plan.uuids {
            let candidates = uuids.compactMap { uuid -> IndexedSample? in
                guard let location = locations[UUIDKey(uuid)], location.slot == slot else { return nil }
                return entry(at: location)
            }
            lastExaminedCount = candidates.count
            collected = candidates.filter { matches(query.predicate, $0, typeIsReadable: readable) }
        } else {
            let range = index.positions(startingFrom: plan.lowerStart, below: plan.upperStart)
            if descriptors.first.map({ $0.key == .startDate }) ?? true {
                // The index is in start order: walk in the first key's direction and stop once the limit is
                // met and the group of equal start dates at the cut is complete (later keys and the store
                // order only reorder within such a group).
                let ascending = descriptors.first?.ascending ?? true
                var position = ascending ? range.lowerBound : range.upperBound - 1
                while range.contains(position) {
                    let candidate = index.entries[position]
                    if limit > 0, collected.count >= limit, candidate.start != collected[collected.count - 1].start {
                        break
                    }
                    lastExaminedCount += 1
                    if matches(query.predicate, candidate, typeIsReadable: readable) { collected.append(candidate) }
                    position += ascending ? 1 : -1
                }
            } else {
                lastExaminedCount = range.count
                collected = index.entries[range].filter { matches(query.predicate, $0, typeIsReadable: readable) }
            }
        }
        // Sort small keys rather than whole samples.
        let order = SampleQueryOrder(descriptors: descriptors)
        var keys = collected.indices.map { position in
            let entry = collected[position]
            let key = SampleQueryOrder.Key(start: entry.start, end: entry.end, rank: entry.sequence)
            return (key: key, position: position)
        }
        keys.sort { order.precedes($0.key, $1.key) }
        let kept = limit > 0 ? keys.prefix(limit) : keys[...]
        return kept.map { collected[$0.position].sample }
    }

    /// The live samples of `type` that `predicate` matches, in start order, whoever may read them — for data
    /// the store derives under a read rule of its own (activity summaries).
    /// - Complexity: O(log n + m), as a sample query's scan.
    /// The samples of `type` the app may see that match `predicate`, in store order (start date, then change
    /// sequence) — what a sample query without sort descriptors or limit returns — handed to `body` one by one,
    /// without sorting or copying the index; `reserve` first learns how many entries at most will follow.
    /// - Complexity: O(log n + m) for a date-range predicate (m the entries in range), O(k log k) for k UUIDs.
    func forEachVisibleEntry(
        of type: HealthObjectType, matching predicate: SamplePredicate?, reserve: (Int) -> Void = { _ in },
        _ body: (IndexedSample) -> Void
    ) {
        guard let slot = slots[type] else { return }
        let index = indexes[slot]
        let plan = QueryPlan(predicate, longestDuration: index.longestDuration)
        let readable = type.kind == .correlation ? nil : authorization.mayRead(type)
        if let uuids = plan.uuids {
            let candidates = uuids.compactMap { uuid -> IndexedSample? in
                guard let location = locations[UUIDKey(uuid)], location.slot == slot else { return nil }
                return entry(at: location)
            }
            reserve(candidates.count)
            for candidate in candidates.sorted(by: { ($0.start, $0.sequence) < ($1.start, $1.sequence) })
            where matches(predicate, candidate, typeIsReadable: readable) {
                body(candidate)
            }
            return
        }
        let range = index.positions(startingFrom: plan.lowerStart, below: plan.upperStart)
        reserve(range.count)
        for position in range {
            let candidate = index.entries[position]
            if matches(predicate, candidate, typeIsReadable: readable) { body(candidate) }
        }
    }

    func allSamples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] {
        guard let slot = slots[type] else { return [] }
        let index = indexes[slot]
        let plan = QueryPlan(predicate, longestDuration: index.longestDuration)
        return index.entries[index.positions(startingFrom: plan.lowerStart, below: plan.upperStart)].compactMap {
            (predicate?.evaluate($0.sample, start: $0.start, end: $0.end) ?? true) ? $0.sample : nil
        }
    }

    // MARK: Anchored queries

    /// The changes to `type` after `anchor`, in sequence order, at most `limit` of them (0: all).
    /// - Complexity: O(log n + c) where c counts the changes to the type after the anchor that are looked at.
    func changes(of type: HealthObjectType, matching predicate: SamplePredicate?, after anchor: UInt64, limit: Int)
        -> HealthAnchoredChanges
    {
        guard let slot = slots[type] else {
            return HealthAnchoredChanges(
                samples: [], deletedObjects: [], newAnchor: HealthQueryAnchor(sequence: max(anchor, sequence)))
        }
        let index = indexes[slot]
        var addition = index.firstAddition(after: anchor)
        var tombstone = index.firstTombstone(after: anchor)
        var samples: [HealthSample] = []
        var deleted: [HealthDeletedObject] = []
        var last = anchor
        while limit == 0 || samples.count + deleted.count < limit {
            let nextAddition = addition < index.additions.count ? index.additions[addition].sequence : UInt64.max
            let nextTombstone = tombstone < index.tombstones.count ? index.tombstones[tombstone].sequence : UInt64.max
            if nextAddition == UInt64.max && nextTombstone == UInt64.max { break }
            if nextAddition < nextTombstone {
                let uuid = index.additions[addition].uuid
                addition += 1
                last = nextAddition
                // Skip additions deleted since: their UUID is gone (or, in principle, reused).
                guard let location = locations[uuid], location.sequence == nextAddition,
                    let live = entry(at: location), matches(predicate, live.sample)
                else { continue }
                samples.append(live.sample)
            } else {
                let stored = index.tombstones[tombstone]
                tombstone += 1
                last = nextTombstone
                if matches(predicate, stored.sample) { deleted.append(stored.object) }
            }
        }
        let exhausted = addition == index.additions.count && tombstone == index.tombstones.count
        let newAnchor = exhausted ? max(anchor, sequence) : last
        return HealthAnchoredChanges(
            samples: samples, deletedObjects: deleted, newAnchor: HealthQueryAnchor(sequence: newAnchor))
    }

    /// Keeps a running query informed of the changes to its type.
    mutating func watch(_ query: HealthQuery, _ follower: Watch.Follower) {
        watches.append(Watch(query: query, follower: follower))
    }

    /// Forgets a running query.
    mutating func unwatch(_ query: HealthQuery) {
        watches.removeAll { $0.query === query }
    }

    /// The update callbacks that `changed` (objects just inserted or deleted) calls for.
    private mutating func notifications(for changed: [HealthSample]) -> [Job] {
        guard !changed.isEmpty else { return [] }
        let changedTypes = Set(changed.map(\.type))
        var jobs: [Job] = []
        watches.removeAll { !$0.query.isRunning }
        for position in watches.indices where changedTypes.contains(watches[position].query.objectType) {
            let query = watches[position].query
            switch watches[position].follower {
            case .anchored(let execution, let anchor):
                let delta = changes(
                    of: query.objectType, matching: query.predicate, after: anchor, limit: HealthQuery.noLimit)
                watches[position].follower = .anchored(execution, anchor: delta.newAnchor.sequence)
                if !delta.samples.isEmpty || !delta.deletedObjects.isEmpty {
                    jobs.append(execution.updateJob(.success(delta)))
                }
            case .observer(let execution):
                if changed.contains(where: { $0.type == query.objectType && matches(query.predicate, $0) }) {
                    jobs.append(execution.updateJob(.success({})))
                }
            case .collection(let query, let execution):
                if changed.contains(where: { $0.type == query.objectType && matches(query.predicate, $0) }) {
                    jobs.append(execution.updateJob(computing: collectionOutcome(for: query)))
                }
            }
        }
        return jobs
    }
}

/// What a predicate lets an index narrow: a window of start dates and a UUID set, taken from the predicate
/// and every `.and` nested in it (other clauses are checked sample by sample).
struct QueryPlan {
    /// Samples start at or after this (seconds since the reference date).
    private(set) var lowerStart: Double?
    /// Samples start before this.
    private(set) var upperStart: Double?
    /// Samples have one of these UUIDs.
    private(set) var uuids: Set<UUID>?

    init(_ predicate: SamplePredicate?, longestDuration: Double) {
        if let predicate { narrow(by: predicate, longestDuration: longestDuration) }
    }

    private mutating func narrow(by predicate: SamplePredicate, longestDuration: Double) {
        switch predicate {
        case .and(let predicates):
            for predicate in predicates { narrow(by: predicate, longestDuration: longestDuration) }
        case .date(let start, let end, let options):
            if let end {
                let bound = end.timeIntervalSinceReferenceDate
                upperStart = upperStart.map { min($0, bound) } ?? bound
            }
            if let start {
                // `endDate >= start` implies `startDate >= start - longestDuration`; one second of slack
                // absorbs rounding in the subtraction (the predicate itself decides).
                let bound =
                    options.contains(.strictStartDate)
                    ? start.timeIntervalSinceReferenceDate
                    : start.timeIntervalSinceReferenceDate - longestDuration - 1
                lowerStart = lowerStart.map { max($0, bound) } ?? bound
            }
        case .uuids(let set):
            uuids = uuids.map { $0.intersection(set) } ?? set
        case .sources, .metadata, .or, .not:
            break
        }
    }
}
