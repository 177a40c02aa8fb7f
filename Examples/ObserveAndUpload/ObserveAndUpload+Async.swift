import ExampleSupport
import HealthFlow

/// A task group: one child task per type, results collected as they finish, the first error cancelling the
/// rest (structured concurrency does what the group and the lock did by hand).
///
/// ```swift
/// print(try await observeAndUploadAsync(in: context))
/// ```
/// - Parameter context: The store and the outbox folder.
/// - Returns: The printed lines.
/// - Throws: The first query's error, or the outbox's.
public func observeAndUploadAsync(in context: ExampleContext) async throws -> [String] {
    let gathered = try await withThrowingTaskGroup(of: GatheredChanges.self) { group in
        for type in ObserveAndUploadExample.observedTypes {
            group.addTask {
                let changes = try await context.store.changes(of: type, since: nil)
                return GatheredChanges(
                    type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                    newAnchor: changes.newAnchor)
            }
        }
        var all: [GatheredChanges] = []
        for try await changes in group { all.append(changes) }
        return all
    }
    return try writeToOutbox(gathered, in: context)
}
