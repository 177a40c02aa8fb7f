import ExampleSupport
import FlowKit
import HealthFlow
import HealthSync

/// `when(fulfilled:)` replaces the group, the lock and the hand-kept first error: it waits for every type,
/// keeps their order, and fails fast (cancelling the other queries) on the first error. The upload is one more
/// `then`: the chain's single `catch` sees a query's error and the upload's alike.
///
/// - Parameters:
///   - context: The store.
///   - transport: Where the batch goes.
/// - Returns: A promise of the printed lines.
public func observeAndUploadWithPromises(in context: ExampleContext, to transport: any UploadTransport)
    -> Promise<[String]>
{
    when(
        fulfilled: ObserveAndUploadExample.observedTypes.map { type in
            context.store.changes(of: type, since: nil).map { changes in
                GatheredChanges(
                    type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                    newAnchor: changes.newAnchor)
            }
        }
    ).then { gathered in
        transport.upload(try makeUploadRequest(gathered, in: context)).map { receipt in
            describeUpload(gathered, receipt: receipt)
        }
    }
}
