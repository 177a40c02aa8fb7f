import FlowKit

/// The promise twin of ``HealthHeartbeatSeriesQuery``.
extension HealthStore {
    /// Runs a ``HealthHeartbeatSeriesQuery`` and gathers its beats; cancelling the promise stops the query.
    ///
    /// - Parameter series: The heartbeat series (matched by UUID).
    /// - Returns: A promise of the beats in time order (empty when the store keeps none for the series or the
    ///   app may not read heartbeat series).
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func heartbeats(of series: HealthHeartbeatSeries) -> Promise<[HealthHeartbeat]> {
        Promise { resolver in
            let gathered = LockedState<[HealthHeartbeat]>([])
            let query = HealthHeartbeatSeriesQuery(heartbeatSeries: series) { _, result in
                switch result {
                case .heartbeat(let beat): gathered.withLock { $0.append(beat) }
                case .done: resolver.fulfill(gathered.withLock { $0 })
                case .error(let error): resolver.reject(error)
                }
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }
}

/// The `async` twin of ``HealthHeartbeatSeriesQuery``, awaiting the promise twin.
extension HealthStore {
    /// Runs a ``HealthHeartbeatSeriesQuery`` and gathers its beats.
    ///
    /// - Parameter series: The heartbeat series (matched by UUID).
    /// - Returns: The beats in time order (empty when the store keeps none for the series or the app may not
    ///   read heartbeat series).
    /// - Throws: The query's ``HealthStoreError``.
    public func heartbeats(of series: HealthHeartbeatSeries) async throws -> [HealthHeartbeat] {
        return try await firstly { heartbeats(of: series) }.value
    }
}
