import ExampleSupport
import FlowKit
import HealthFlow
import HealthSync
import ObserveAndUploadExample

// Lesson: Examples/ObserveAndUpload/LESSON.md — fan-out / fan-in, with a limit, resuming from anchors.
// Worked solutions of Examples/Exercises/ObserveAndUploadExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
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

/// Exercise 2, solved.
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

/// Exercise 3, solved.
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
