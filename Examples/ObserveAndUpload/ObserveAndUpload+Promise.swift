import ExampleSupport
import FlowKit
import HealthFlow

/// `when(fulfilled:)` replaces the group, the lock and the hand-kept first error: it waits for every type,
/// keeps their order, and fails fast (cancelling the other queries) on the first error.
///
/// ```swift
/// observeAndUploadWithPromises(in: context).done { print($0) }.catch { print($0) }
/// ```
/// - Parameter context: The store and the outbox folder.
/// - Returns: A promise of the printed lines.
public func observeAndUploadWithPromises(in context: ExampleContext) -> Promise<[String]> {
    when(
        fulfilled: ObserveAndUploadExample.observedTypes.map { type in
            context.store.changes(of: type, since: nil).map { changes in
                GatheredChanges(
                    type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                    newAnchor: changes.newAnchor)
            }
        }
    ).map { gathered in
        try writeToOutbox(gathered, in: context)
    }
}
