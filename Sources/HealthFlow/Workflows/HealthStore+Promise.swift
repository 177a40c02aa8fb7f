import FlowKit

/// Promise twins of the ``HealthStore`` callback API: the same operations, names and outcomes, each a thin
/// wrapper that hands FlowKit's `Resolver` to the callback.
///
/// They are unavailable in asynchronous code (top-level code that awaits included), where the `async` twins
/// of the same names apply; a promise there comes from `Promise { try await store.save(sample) }`.
extension HealthStore {
    /// Asks for permission; fulfills once the sheet is answered (not a sign that anything was allowed).
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    /// - Returns: A promise rejected with the ``HealthStoreError`` the callback would report.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>
    ) -> Promise<Void> {
        Promise { resolver in
            requestAuthorization(toShare: typesToShare, read: typesToRead, completion: resolver.resolve)
        }
    }

    /// Whether requesting these types would show the permission sheet.
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    /// - Returns: A promise of the status, rejected when the request is invalid.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func statusForAuthorizationRequest(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>
    ) -> Promise<AuthorizationRequestStatus> {
        Promise { resolver in
            getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead) { status, error in
                resolver.resolve(status, error)
            }
        }
    }

    /// Saves one sample.
    ///
    /// - Parameter sample: The sample.
    /// - Returns: A promise fulfilled when saved.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func save(_ sample: HealthSample) -> Promise<Void> {
        Promise { resolver in save(sample, withCompletion: resolver.resolve) }
    }

    /// Saves samples all-or-nothing.
    ///
    /// - Parameter samples: The samples.
    /// - Returns: A promise fulfilled when all were saved.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func save(_ samples: [HealthSample]) -> Promise<Void> {
        Promise { resolver in save(samples, withCompletion: resolver.resolve) }
    }

    /// Deletes one sample the app saved.
    ///
    /// - Parameter sample: The sample.
    /// - Returns: A promise fulfilled when deleted.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func delete(_ sample: HealthSample) -> Promise<Void> {
        Promise { resolver in delete(sample, withCompletion: resolver.resolve) }
    }

    /// Deletes samples the app saved, all-or-nothing.
    ///
    /// - Parameter samples: The samples.
    /// - Returns: A promise fulfilled when all were deleted.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func delete(_ samples: [HealthSample]) -> Promise<Void> {
        Promise { resolver in delete(samples, withCompletion: resolver.resolve) }
    }

    /// Runs a ``HealthSampleQuery``; cancelling the promise stops the query.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which samples; `nil` for all.
    ///   - sortDescriptors: Sort keys; ascending start date when empty.
    ///   - limit: The most samples; 0 for all.
    /// - Returns: A promise of the samples.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func samples(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil,
        sortedBy sortDescriptors: [SampleSortDescriptor] = [], limit: Int = HealthQuery.noLimit
    ) -> Promise<[HealthSample]> {
        Promise { resolver in
            let query = HealthSampleQuery(
                sampleType: type, predicate: predicate, limit: limit, sortDescriptors: sortDescriptors
            ) { _, samples, error in
                resolver.resolve(samples, error)
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }

    /// Runs a one-shot ``HealthAnchoredObjectQuery``: what changed since `anchor`; cancelling the promise
    /// stops the query.
    ///
    /// - Parameters:
    ///   - type: A sample type.
    ///   - predicate: Which samples; `nil` for all.
    ///   - anchor: Where to start; `nil` for the beginning.
    ///   - limit: The most changes (samples plus deletions); 0 for all.
    /// - Returns: A promise of the changes and the anchor to resume from.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func changes(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, since anchor: HealthQueryAnchor?,
        limit: Int = HealthQuery.noLimit
    ) -> Promise<HealthAnchoredChanges> {
        Promise { resolver in
            let query = HealthAnchoredObjectQuery(type: type, predicate: predicate, anchor: anchor, limit: limit) {
                _, samples, deleted, newAnchor, error in
                if let samples, let deleted, let newAnchor {
                    resolver.fulfill(
                        HealthAnchoredChanges(samples: samples, deletedObjects: deleted, newAnchor: newAnchor))
                } else {
                    resolver.resolve(nil, error)
                }
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }
}
