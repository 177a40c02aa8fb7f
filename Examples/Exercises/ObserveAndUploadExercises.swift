import ExampleSupport
import FlowKit
import HealthFlow
import HealthSync
import ObserveAndUploadExample

// Lesson: Examples/ObserveAndUpload/LESSON.md — fan-out / fan-in, with a limit, resuming from anchors.

// Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseObserveAndUpload
/// Exercise 1: gather every type's changes with `fetch`, but never more than `limit` fetches at once (at least
/// one), and return them in the order of `types` — whatever order they finish in. The first error is thrown and
/// cancels the fetches still running.
///
/// - Parameters:
///   - types: The types, in the order the result lists them.
///   - limit: The most fetches running at once.
///   - fetch: Gathers one type's changes.
/// - Returns: One entry per type, in `types` order.
/// - Throws: The first fetch error.
public func gatherChanges(
    of types: [HealthObjectType], limit: Int,
    fetch: @escaping @Sendable (HealthObjectType) async throws -> GatheredChanges
) async throws -> [GatheredChanges] {
    try await withThrowingTaskGroup(of: (Int, GatheredChanges).self) { group in
        var next = 0
        func startNext() {
            guard next < types.count else { return }
            let (index, type) = (next, types[next])
            group.addTask { (index, try await fetch(type)) }
            next += 1
        }
        for _ in 0..<max(1, limit) { startNext() }
        var gathered = [GatheredChanges?](repeating: nil, count: types.count)
        while let (index, changes) = try await group.next() {
            gathered[index] = changes
            startNext()
        }
        return gathered.compactMap { $0 }
    }
}

// Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseObserveAndUpload
/// Exercise 2: gather what changed for each type since its saved anchor (from the beginning for a type with no
/// anchor), all types at once, in `types` order. Feed each result's `newAnchor` back in and a second run gathers
/// nothing — until something new is saved.
///
/// - Parameters:
///   - types: The types, in the order the result lists them.
///   - store: The store.
///   - anchors: Where each type's last sync stopped.
/// - Returns: One entry per type, in `types` order.
/// - Throws: The first query's error.
public func gatherChanges(
    of types: [HealthObjectType], in store: any HealthStore, since anchors: [HealthObjectType: HealthQueryAnchor]
) async throws -> [GatheredChanges] {
    try await when(
        fulfilled: types.map { type in
            { @Sendable in
                let changes = try await store.changes(of: type, since: anchors[type])
                return GatheredChanges(
                    type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                    newAnchor: changes.newAnchor)
            }
        })
}

// Exercise 3 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseObserveAndUpload
/// Exercise 3: upload the gathered changes, trying up to `attempts` times (at least once). Build the request
/// **once**: every attempt re-sends the same batch under the same ID, the idempotency key, so a server that stored
/// an attempt whose answer was lost stores the batch once. The last attempt's error is thrown.
///
/// - Parameters:
///   - gathered: Every type's changes.
///   - context: The clock for the batch header.
///   - transport: Where the batch goes.
///   - attempts: The most uploads tried.
/// - Returns: The receipt of the attempt that succeeded.
/// - Throws: The batch's error, or the last attempt's.
public func uploadGathered(
    _ gathered: [GatheredChanges], in context: ExampleContext, to transport: any UploadTransport, attempts: Int
) async throws -> UploadReceipt {
    let request = try makeUploadRequest(gathered, in: context)
    var attempt = 1
    while true {
        do {
            return try await transport.upload(request)
        } catch {
            guard attempt < attempts else { throw error }
            attempt += 1
        }
    }
}
