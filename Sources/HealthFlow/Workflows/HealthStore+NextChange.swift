import FlowKit

/// "Observe changes" as a one-shot step, in the promise and async styles (the callback style is
/// ``HealthObserverQuery`` itself; the stream style is ``HealthStore/observe(_:matching:)``).
///
/// The promise settles at the first change after observation starts — not with the initial notification every
/// observer query delivers — and stops the query; cancelling the promise (or the awaiting task) stops it too.
extension HealthStore {
    /// A promise of the next change to samples of `type` the app can see.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which changes count; `nil` for all of the type.
    /// - Returns: A promise fulfilled with the update (index 1), or rejected when the query cannot run.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func nextChange(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil
    ) -> Promise<HealthObserverUpdate> {
        Promise { resolver in
            let query = HealthObserverQuery(sampleType: type, predicate: predicate) { query, completion, error in
                if let error {
                    resolver.reject(error)
                    stop(query)
                } else if query.deliveredUpdates > 1 {
                    resolver.fulfill(HealthObserverUpdate(type: type, index: 1))
                    stop(query)
                }
                completion()
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }

    /// Waits for the next change to samples of `type` the app can see.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which changes count; `nil` for all of the type.
    /// - Returns: The update.
    /// - Throws: The query's error, or `CancellationError` when the task is cancelled (the query is stopped).
    public func nextChange(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil
    ) async throws -> HealthObserverUpdate {
        return try await firstly { nextChange(of: type, matching: predicate) }.value
    }
}
