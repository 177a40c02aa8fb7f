import ExampleSupport
import HealthFlow
import HealthSync

/// A task group: one child task per type, results collected as they finish, the first error cancelling the
/// rest (structured concurrency does what the group and the lock did by hand); then the upload is awaited like any
/// other call.
///
/// - Parameters:
///   - context: The store.
///   - transport: Where the batch goes.
/// - Returns: The printed lines.
/// - Throws: The first query's error, or the batch's or the transport's.
public func observeAndUploadAsync(in context: ExampleContext, to transport: any UploadTransport) async throws
    -> [String]
{
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
    let receipt = try await transport.upload(try makeUploadRequest(gathered, in: context))
    return describeUpload(gathered, receipt: receipt)
}
