import Dispatch
import ExampleSupport
import HealthFlow
import Synchronization

/// The seed's version: one anchored query per type, a `DispatchGroup` to wait for them all, a lock around the
/// shared results, and `notify` to run the upload step — with the first error remembered by hand.
///
/// ```swift
/// observeAndUploadWithCallbacks(in: context) { result in print(result) }
/// ```
/// - Parameters:
///   - context: The store and the outbox folder.
///   - completion: Called once with the printed lines or the first error.
public func observeAndUploadWithCallbacks(
    in context: ExampleContext, completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    let group = DispatchGroup()
    let collected = Mutex<(changes: [GatheredChanges], firstError: (any Error)?)>(([], nil))
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
        completion(Result { try writeToOutbox(changes, in: context) })
    }
}
