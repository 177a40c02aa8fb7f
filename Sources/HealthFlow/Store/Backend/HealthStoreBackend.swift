import Foundation

/// Where a ``BackedHealthStore`` keeps its samples: only the operations that differ from one store to the
/// next. Everything else — authorization and hidden read denial, the save and delete rules
/// (``HealthSaveRules``), running every query kind with its ``QueryExecution``, statistics, activity
/// summaries, observer and anchored updates, callbacks in order on the callback executor — is the store's.
///
/// The store calls a backend only while holding its lock, one call at a time, so a backend needs no locking
/// of its own; mutations arrive already checked, in the order they are applied.
///
/// Every change takes the next number of one sequence the backend keeps (``lastSequence``): each object
/// inserted, each object deleted. Anchored queries are positions in that sequence.
public protocol HealthStoreBackend: Sendable {
    /// The number of the last change; 0 before any.
    var lastSequence: UInt64 { get }

    /// The live object with `uuid` (a correlation member included), with the correlation holding it.
    func sample(withUUID uuid: UUID) -> StoredHealthSample?

    /// Which of `uuids` a live object has: those ``sample(withUUID:)`` finds. The store asks once per batch it
    /// saves (its UUIDs must be new); a backend that answers many at once more cheaply than one at a time
    /// implements it, and the default asks ``sample(withUUID:)`` for each.
    func storedUUIDs(among uuids: [UUID]) -> Set<UUID>

    /// The live objects of `type` that `predicate` matches (every one for `nil`), in the order they were
    /// inserted; correlation members are objects of their own types. The store applies the read rules,
    /// sorting and limits.
    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample]

    /// Folds each live object ``samples(of:matching:)`` returns, in any order, into `result` with `add`, without
    /// gathering the objects: the store's statistics keep a few numbers per object and its sample queries with a
    /// limit only the first few, so a backend that reads its objects a block at a time implements this to hold
    /// one block, not every match. `add` also gets the object's *rank*: any number that grows with the order the
    /// objects were inserted (a sequence number serves). The default folds ``samples(of:matching:)``, ranked by
    /// position. `add` only changes `result`; it may run while the backend holds its lock.
    /// - Returns: `false` when the backend met damage part-way (and handled it as its other reads do): the store
    ///   then drops `result` and answers as if nothing matched, never from part of the objects.
    func reduceSamples<Partial: Sendable>(
        of type: HealthObjectType, matching predicate: SamplePredicate?, into result: inout Partial,
        _ add: @Sendable (inout Partial, _ sample: HealthSample, _ rank: UInt64) -> Void
    ) -> Bool

    /// The first `limit` changes to objects of `type` numbered after `sequence` (fewer only when no more are
    /// left), in sequence order: the insertion of each object still live, and every deletion. The store asks
    /// in chunks, so an anchored query's memory follows its limit, not the number of changes behind it.
    func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange]

    /// Stores `objects` (checked: new UUIDs, valid), each taking the next sequence number; a correlation
    /// arrives followed by its members, each member naming it.
    /// - Throws: When the objects cannot be stored; nothing may have changed then.
    mutating func insert(_ objects: [StoredHealthSample]) throws

    /// Removes the live objects `objects` (checked: stored; a correlation followed by its members), each
    /// deletion taking the next sequence number and leaving a change for anchored queries.
    /// - Throws: When they cannot be removed; nothing may have changed then.
    mutating func delete(_ objects: [HealthSample]) throws
}

extension HealthStoreBackend {
    /// Asks ``sample(withUUID:)`` for each UUID.
    /// - Complexity: O(n) look-ups for n UUIDs.
    public func storedUUIDs(among uuids: [UUID]) -> Set<UUID> {
        Set(uuids.lazy.filter { sample(withUUID: $0) != nil })
    }

    /// Folds what ``samples(of:matching:)`` returns, each ranked by its position there.
    /// - Complexity: That call's, with memory for every match.
    public func reduceSamples<Partial: Sendable>(
        of type: HealthObjectType, matching predicate: SamplePredicate?, into result: inout Partial,
        _ add: @Sendable (inout Partial, _ sample: HealthSample, _ rank: UInt64) -> Void
    ) -> Bool {
        for (position, sample) in samples(of: type, matching: predicate).enumerated() {
            add(&result, sample, UInt64(position))
        }
        return true
    }
}

/// One numbered change a ``HealthStoreBackend`` reports to anchored queries.
public struct HealthStoreChange: Sendable {
    /// The change's number in the backend's sequence.
    public let sequence: UInt64
    /// The object inserted, or the object as it was when deleted.
    public let sample: HealthSample
    /// Whether the change deleted the object.
    public let isDeletion: Bool

    /// A change.
    public init(sequence: UInt64, sample: HealthSample, isDeletion: Bool) {
        self.sequence = sequence
        self.sample = sample
        self.isDeletion = isDeletion
    }
}

/// A ``HealthStoreBackend`` that also keeps series data beside samples (``HealthSampleSeries``: an ECG's voltages,
/// a workout's routes, a heartbeat series' beats). A ``BackedHealthStore`` over one ingests recordings with their
/// series, adds routes to stored workouts, and answers ``HealthElectrocardiogramQuery``,
/// ``HealthWorkoutRouteQuery`` and ``HealthHeartbeatSeriesQuery``; over any other backend those queries fail with
/// ``HealthStoreError/unsupportedQueryType(_:query:)``.
///
/// The store calls these, like the base requirements, under its lock with checked arguments.
public protocol HealthSeriesStoreBackend: HealthStoreBackend {
    /// The series kept beside the live object with `uuid`, or `nil` when none is (or no such object is live).
    func series(ofSampleWith uuid: UUID) -> HealthSampleSeries?

    /// Stores `objects` as ``HealthStoreBackend/insert(_:)`` does, keeping `series[uuid]` beside the top-level
    /// sample with that UUID (each series non-empty, of the kind of its sample's type).
    /// - Throws: When the objects cannot be stored; nothing may have changed then.
    mutating func insert(_ objects: [StoredHealthSample], series: [UUID: HealthSampleSeries]) throws

    /// Keeps `series` after the series kept beside the live top-level sample with `uuid` (routes added to a stored
    /// workout: the kind of its type, non-empty). The addition is a change: the sample takes the next sequence
    /// number, so anchored queries from an earlier anchor report it again as inserted, now with the added series.
    /// - Throws: When the series cannot be stored; nothing may have changed then.
    mutating func add(_ series: HealthSampleSeries, toSampleWith uuid: UUID) throws
}

/// A ``HealthStoreBackend`` that can vouch for its change history: a ``BackedHealthStore`` over one is a
/// ``HealthChangeHistory``, so a sync checks its anchors against it (``HealthHistoryCheckpoint``) and sends
/// everything again from a recreated or restored backend instead of skipping what it never saw.
public protocol HealthHistoryStoreBackend: HealthStoreBackend {
    /// The backend's identity, drawn when its storage was created; a recreated storage has a new one.
    var storeID: UUID { get }

    /// A fingerprint of the changes numbered up to `sequence`: the same for the same changes whenever asked, and
    /// almost surely different for a history rewritten below it; `nil` when the backend cannot vouch for
    /// `sequence` (not the end of a batch of changes, or older than the history it keeps).
    func historyFingerprint(through sequence: UInt64) -> UInt64?
}

/// A ``HealthStoreBackend`` that keeps the person's answers to permission sheets, per app: a ``BackedHealthStore``
/// over one starts with the answers kept for its app, as HealthKit remembers them across launches, and keeps each
/// new answer before reporting it. Over any other backend the answers last as long as the store.
public protocol HealthAuthorizationStoreBackend: HealthStoreBackend {
    /// The answers kept for the app `bundleIdentifier`; none for an app never answered.
    func authorizationAnswers(forApp bundleIdentifier: String) -> HealthAuthorizationAnswers

    /// Keeps `answers` for the app `bundleIdentifier` in place of those kept for it: durable once this returns.
    /// - Throws: When they cannot be kept; the answers kept before are unchanged then.
    mutating func keep(_ answers: HealthAuthorizationAnswers, forApp bundleIdentifier: String) throws
}

/// The person's answers to permission sheets, per type: `true` allowed, `false` denied, no entry never asked.
public struct HealthAuthorizationAnswers: Hashable, Sendable {
    /// Sharing (writing) answers.
    public var share: [HealthObjectType: Bool]
    /// Reading answers.
    public var read: [HealthObjectType: Bool]

    /// Answers; none by default.
    public init(share: [HealthObjectType: Bool] = [:], read: [HealthObjectType: Bool] = [:]) {
        self.share = share
        self.read = read
    }
}
