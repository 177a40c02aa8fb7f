import FlowKit
import Foundation
import HealthFlow

/// A store that adds samples from other sources all-or-nothing (the durable, in-memory and backed stores): the import
/// writes through it when it can, and through ``HealthStore/save(_:withCompletion:)`` otherwise.
public protocol HealthSampleIngesting: HealthStore {
    /// Adds samples with any source, all-or-nothing.
    func ingest(_ samples: [HealthSample]) throws
}

extension FileHealthStore: HealthSampleIngesting {}
extension InMemoryHealthStore: HealthSampleIngesting {}
extension BackedHealthStore: HealthSampleIngesting {}

/// A store that keeps ECGs with their voltage measurements (the durable and in-memory stores, and a backed store
/// over a ``HealthSeriesStoreBackend``): the import writes an export's ECG CSVs through it; into any other store it
/// writes the ECG samples alone and counts them in ``HealthExportReport/electrocardiogramsWithoutVoltages``.
public protocol ElectrocardiogramIngesting: HealthStore {
    /// Adds ECGs with their measurements, all-or-nothing.
    func ingest(_ recordings: [ElectrocardiogramRecording]) throws
}

extension FileHealthStore: ElectrocardiogramIngesting {}
extension InMemoryHealthStore: ElectrocardiogramIngesting {}
extension BackedHealthStore: ElectrocardiogramIngesting where Backend: HealthSeriesStoreBackend {}

/// A store that keeps workouts with their routes (as ``ElectrocardiogramIngesting``'s keep voltages): the import
/// writes an export's workouts with the routes of their GPX files through it, and adds to a workout it already
/// holds the routes it lacks; into any other store it writes the workouts alone and counts their routes in
/// ``HealthExportReport/workoutRoutesNotKept``.
public protocol WorkoutRouteIngesting: HealthStore {
    /// Adds workouts with their routes, all-or-nothing.
    func ingest(_ recordings: [WorkoutRecording]) throws
    /// Adds routes to a stored workout, after those it holds.
    func addRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws
    /// Adds to a stored workout those routes it does not hold yet, by what the store keeps (not what the app may
    /// read); returns them.
    func addMissingRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws -> [HealthWorkoutRoute]
}

extension FileHealthStore: WorkoutRouteIngesting {}
extension InMemoryHealthStore: WorkoutRouteIngesting {}
extension BackedHealthStore: WorkoutRouteIngesting where Backend: HealthSeriesStoreBackend {}

/// A store that keeps heartbeat series with their beats (as ``ElectrocardiogramIngesting``'s keep voltages): the
/// import writes the series of an export's heart rate variability records through it; into any other store it
/// writes the series samples alone and counts them in ``HealthExportReport/heartbeatSeriesWithoutBeats``.
public protocol HeartbeatSeriesIngesting: HealthStore {
    /// Adds heartbeat series with their beats, all-or-nothing.
    func ingest(_ recordings: [HeartbeatSeriesRecording]) throws
}

extension FileHealthStore: HeartbeatSeriesIngesting {}
extension InMemoryHealthStore: HeartbeatSeriesIngesting {}
extension BackedHealthStore: HeartbeatSeriesIngesting where Backend: HealthSeriesStoreBackend {}

/// Writes batches into a store, leaving out what it already holds: the first attempt writes the batch whole;
/// when the store refuses a UUID it holds, the batch's UUIDs are looked up per type (one query each) and only
/// the new samples are written.
struct ExportWriter {
    let store: any HealthStore

    /// Asks to read the types the import writes, so the look-ups see what the store holds (correlation types
    /// are read through their members). A refusal only makes re-imports slower.
    func prepare() {
        let types = Set(
            HealthObjectType.allTypes.filter { $0.kind == .quantity || $0.kind == .category }
                + [.electrocardiogram, .workout, .heartbeatSeries])
        let done = DispatchSemaphore(value: 0)
        store.requestAuthorization(toShare: [], read: types) { _, _ in done.signal() }
        done.wait()
    }

    /// Writes `batch`; returns the samples that were new to the store.
    func write(_ batch: [HealthSample]) throws -> [HealthSample] {
        try writeNew(batch, sample: { $0 }, save)
    }

    /// `batch` checked and encoded for the store's log without its lock (``PreparedIngest``), when the store
    /// takes batches so; `nil` otherwise, or when preparing fails: writing the batch then meets the same refusal.
    func prepare(_ batch: [HealthSample]) -> PreparedIngest? {
        try? (store as? any PreparedIngesting)?.prepareIngest(batch)
    }

    /// Writes the prepared batch as ``write(_:)`` writes its samples: whole in one attempt, or only the new ones.
    func write(_ prepared: PreparedIngest) throws -> [HealthSample] {
        guard let preparing = store as? any PreparedIngesting else { return try write(prepared.samples) }
        return try writeNew(prepared.samples, sample: { $0 }, first: { try preparing.ingest(prepared) }, save)
    }

    /// Writes heartbeat series with their beats (only a store that keeps them; any other gets the series samples
    /// alone); returns those that were new to the store and whether their beats were kept.
    func write(
        _ batch: [HeartbeatSeriesRecording]
    ) throws -> (recordings: [HeartbeatSeriesRecording], keptBeats: Bool) {
        guard let keeping = store as? any HeartbeatSeriesIngesting else {
            let written = Set(try write(batch.map { .heartbeatSeries($0.series) }).map(\.uuid))
            return (batch.filter { written.contains($0.series.uuid) }, false)
        }
        return (try writeNew(batch, sample: { .heartbeatSeries($0.series) }) { try keeping.ingest($0) }, true)
    }

    /// Writes `batch` (whose items are, or hold, `sample`) through `save`, leaving out what the store holds: the
    /// whole batch first (through `first` when given, which writes the same batch); on a UUID the store holds, the
    /// batch less the UUIDs the look-ups find; returns what was written.
    private func writeNew<Item>(
        _ batch: [Item], sample: (Item) -> HealthSample, first: (() throws -> Void)? = nil,
        _ save: ([Item]) throws -> Void
    ) throws -> [Item] {
        do {
            if let first { try first() } else { try save(batch) }
            return batch
        } catch HealthStoreError.duplicateUUID {
            let held = existing(batch.map(sample))
            return try writeSplitting(batch.filter { !held.contains(sample($0).uuid) }[...], save)
        }
    }

    /// Writes `items`, halving on a UUID the store holds but the look-ups did not show (a store that hides
    /// a type from reading): each part is written whole, a repeat alone is left out; O(d log n) attempts for d
    /// repeats among n items.
    private func writeSplitting<Item>(_ items: ArraySlice<Item>, _ save: ([Item]) throws -> Void) throws -> [Item] {
        guard !items.isEmpty else { return [] }
        do {
            try save(Array(items))
            return Array(items)
        } catch HealthStoreError.duplicateUUID {
            guard items.count > 1 else { return [] }
            let middle = items.startIndex + items.count / 2
            return try writeSplitting(items[..<middle], save) + writeSplitting(items[middle...], save)
        }
    }

    /// Writes a recording; returns whether it was new to the store and whether its measurements were kept
    /// (only a store that keeps them; any other gets the ECG sample alone).
    func write(_ recording: ElectrocardiogramRecording) throws -> (isNew: Bool, keptVoltages: Bool) {
        let keeping = store as? any ElectrocardiogramIngesting
        return try write(
            .electrocardiogram(recording.electrocardiogram), keeping.map { store in { try store.ingest([recording]) } })
    }

    /// Writes a workout with its routes; returns whether it was new to the store and whether its routes were
    /// kept (only a store that keeps them; any other gets the workout alone).
    func write(_ recording: WorkoutRecording) throws -> (isNew: Bool, keptRoutes: Bool) {
        let keeping = store as? any WorkoutRouteIngesting
        return try write(.workout(recording.workout), keeping.map { store in { try store.ingest([recording]) } })
    }

    /// Adds to the stored `workout` those of `routes` the store does not hold with it yet (a route file that was
    /// missing when the workout was first imported); returns them. The store compares with what it keeps, so a
    /// store that hides workouts from reading gets no route twice. A store that keeps no routes adds none.
    func addMissingRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws -> [HealthWorkoutRoute] {
        guard let keeping = store as? any WorkoutRouteIngesting, !routes.isEmpty else { return [] }
        return try keeping.addMissingRoutes(routes, to: workout)
    }

    /// Writes `sample` with what the store keeps beside it through `ingest`, or — a store that keeps nothing
    /// beside it (`ingest` is `nil`) — the sample alone; returns whether it was new and whether `ingest` ran.
    private func write(_ sample: HealthSample, _ ingest: (() throws -> Void)?) throws -> (Bool, Bool) {
        guard let ingest else { return (try !write([sample]).isEmpty, false) }
        do {
            try ingest()
            return (true, true)
        } catch HealthStoreError.duplicateUUID {
            return (false, true)
        }
    }

    private func save(_ samples: [HealthSample]) throws {
        if let ingesting = store as? any HealthSampleIngesting {
            try ingesting.ingest(samples)
            return
        }
        let outcome = LockedState<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        store.save(samples) { _, error in
            outcome.withLock { $0 = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// The store's anchor for `type` as it stands, past every change to it so far; `nil` when the store's anchored
    /// query fails. O(c) in the type's changes, once per type and import.
    func currentAnchor(of type: HealthObjectType) -> HealthQueryAnchor? {
        let found = LockedState<HealthQueryAnchor?>(nil)
        let done = DispatchSemaphore(value: 0)
        store.execute(
            HealthAnchoredObjectQuery(type: type, predicate: .uuids([]), anchor: nil) { _, _, _, anchor, _ in
                found.withLock { $0 = anchor }
                done.signal()
            })
        done.wait()
        return found.withLock { $0 }
    }

    /// The UUIDs among `samples` (which the store holds) that it received after `anchor` gives for their type —
    /// none of a type without one. One anchored query per type, O(log n + c) in the type's changes since.
    func received(_ samples: [HealthSample], after anchor: (HealthObjectType) -> HealthQueryAnchor?) -> Set<UUID> {
        let byType = Dictionary(grouping: samples, by: \.type).compactMap { type, group in
            anchor(type).map { (type, $0, Set(group.map(\.uuid))) }
        }
        let found = LockedState(Set<UUID>())
        let done = DispatchSemaphore(value: 0)
        for (type, since, uuids) in byType {
            store.execute(
                HealthAnchoredObjectQuery(type: type, predicate: .uuids(uuids), anchor: since) { _, added, _, _, _ in
                    found.withLock { $0.formUnion((added ?? []).map(\.uuid).filter(uuids.contains)) }
                    done.signal()
                })
        }
        for _ in byType { done.wait() }
        return found.withLock { $0 }
    }

    /// The UUIDs among `samples` the store holds.
    private func existing(_ samples: [HealthSample]) -> Set<UUID> {
        let byType = Dictionary(grouping: samples, by: \.type)
        let found = LockedState(Set<UUID>())
        let done = DispatchSemaphore(value: 0)
        for (type, group) in byType {
            store.execute(
                HealthSampleQuery(sampleType: type, predicate: .uuids(Set(group.map(\.uuid)))) { _, held, _ in
                    found.withLock { $0.formUnion((held ?? []).map(\.uuid)) }
                    done.signal()
                })
        }
        for _ in byType { done.wait() }
        return found.withLock { $0 }
    }
}
