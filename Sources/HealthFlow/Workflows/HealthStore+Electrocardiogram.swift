import FlowKit

/// The promise twin of ``HealthElectrocardiogramQuery``.
extension HealthStore {
    /// Runs a ``HealthElectrocardiogramQuery`` and gathers its measurements; cancelling the promise stops the
    /// query.
    ///
    /// - Parameter electrocardiogram: The ECG (matched by UUID).
    /// - Returns: A promise of the measurements in recording order (empty when the store keeps none for the ECG
    ///   or the app may not read ECGs).
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func voltageMeasurements(
        of electrocardiogram: HealthElectrocardiogram
    ) -> Promise<[ElectrocardiogramVoltageMeasurement]> {
        Promise { resolver in
            let gathered = LockedState<[ElectrocardiogramVoltageMeasurement]>([])
            let query = HealthElectrocardiogramQuery(electrocardiogram: electrocardiogram) { _, result in
                switch result {
                case .measurement(let measurement): gathered.withLock { $0.append(measurement) }
                case .done: resolver.fulfill(gathered.withLock { $0 })
                case .error(let error): resolver.reject(error)
                }
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }
}
