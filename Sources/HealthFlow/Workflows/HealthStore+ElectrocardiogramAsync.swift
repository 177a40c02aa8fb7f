import FlowKit

/// The `async` twin of ``HealthElectrocardiogramQuery``, awaiting the promise twin.
extension HealthStore {
    /// Runs a ``HealthElectrocardiogramQuery`` and gathers its measurements.
    ///
    /// - Parameter electrocardiogram: The ECG (matched by UUID).
    /// - Returns: The measurements in recording order (empty when the store keeps none for the ECG or the app
    ///   may not read ECGs).
    /// - Throws: The query's ``HealthStoreError``.
    public func voltageMeasurements(
        of electrocardiogram: HealthElectrocardiogram
    ) async throws -> [ElectrocardiogramVoltageMeasurement] {
        return try await firstly { voltageMeasurements(of: electrocardiogram) }.value
    }
}
