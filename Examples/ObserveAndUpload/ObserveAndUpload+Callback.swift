import Dispatch
import ExampleSupport
import FlowKit
import HealthFlow
import HealthSync

/// The seed's version: one anchored query per type, a `DispatchGroup` to wait for them all, a lock around the
/// shared results, and `notify` to run the upload step — with the first error remembered by hand, and the
/// upload's outcome handed to `completion` on each path (success, the batch failing, the transport failing).
///
/// - Parameters:
///   - context: The store.
///   - transport: Where the batch goes.
///   - completion: Called once with the printed lines or the first error.
public func observeAndUploadWithCallbacks(
    in context: ExampleContext, to transport: any UploadTransport,
    completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    let group = DispatchGroup()
    let collected = LockedState<(changes: [GatheredChanges], firstError: (any Error)?)>(([], nil))
    for type in ObserveAndUploadExample.observedTypes {
        group.enter()
        let query = HealthAnchoredObjectQuery(type: type, anchor: nil) { _, samples, deleted, anchor, error in
            collected.withLock { state in
                if let error {
                    if state.firstError == nil { state.firstError = error }
                } else {
                    state.changes.append(
                        GatheredChanges(
                            type: type, samples: samples ?? [], deletedObjects: deleted ?? [], newAnchor: anchor))
                }
            }
            group.leave()
        }
        context.store.execute(query)
    }
    group.notify(queue: .global()) {
        let (changes, firstError) = collected.withLock { ($0.changes, $0.firstError) }
        if let firstError {
            completion(.failure(firstError))
            return
        }
        let request: UploadRequest
        do {
            request = try makeUploadRequest(changes, in: context)
        } catch {
            completion(.failure(error))
            return
        }
        // The transport answers with a promise; callback code subscribes to both outcomes.
        transport.upload(request)
            .done { receipt in completion(.success(describeUpload(changes, receipt: receipt))) }
            .catch { error in completion(.failure(error)) }
    }
}
