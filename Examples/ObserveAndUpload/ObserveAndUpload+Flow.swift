import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync

extension ObserveAndUploadExample: DrawnExample {
    /// The changes of every observed type at once (fan-out), one request of them all (fan-in), the upload to the
    /// embedded default's outbox: the promise style's steps.
    public static func flow(in context: ExampleContext, on queue: OperationQueue) throws -> OperationChain<[String]> {
        let transport = try OutboxTransport(directory: outboxDirectory(of: context))
        return OperationChain(on: queue, name: "observe and upload")
            .when(
                observedTypes.map { type in
                    .promise("\(type.identifier) changes") {
                        context.store.changes(of: type, since: nil).map { changes in
                            GatheredChanges(
                                type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                                newAnchor: changes.newAnchor)
                        }
                    }
                }
            )
            .then("make the request") { gathered in (gathered, try makeUploadRequest(gathered, in: context)) }
            .then(
                "upload",
                promise: { gathered, request in
                    transport.upload(request).map { receipt in describeUpload(gathered, receipt: receipt) }
                })
    }
}
