import Foundation
import HealthFlow

/// Reads one electrocardiogram's voltage measurements: the data handler receives each measurement in
/// recording order, then `.done`; or `.error`. The device keeps the measurements of electrocardiograms it was
/// given with them (`InMemoryHealthStore.ingest(_:)` of an `ElectrocardiogramRecording`); for any other
/// electrocardiogram, or when the app may not read electrocardiograms, the handler receives `.done` alone.
public final class HKElectrocardiogramQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; this subclass adds `let`s set once in init.

    /// What the data handler receives.
    public enum Result {
        /// The next voltage measurement.
        case measurement(HKElectrocardiogram.VoltageMeasurement)
        /// Every measurement was delivered.
        case done
        /// The query failed; nothing more follows.
        case error(any Error)
    }

    private let handler: ShimCallback<(HKElectrocardiogramQuery, HKElectrocardiogramQuery.Result) -> Void>
    private let electrocardiogram: HealthElectrocardiogram?

    /// A query for the voltage measurements of `electrocardiogram`.
    public init(
        _ electrocardiogram: HKElectrocardiogram,
        dataHandler: @escaping (HKElectrocardiogramQuery, HKElectrocardiogramQuery.Result) -> Void
    ) {
        self.handler = ShimCallback(call: dataHandler)
        self.electrocardiogram = electrocardiogram.recording
        super.init(type: .electrocardiogram, predicate: nil)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let handler = handler
        // The shim makes an HKElectrocardiogram only from a HealthFlow ECG (`HKObject.make`), so it always has one.
        guard let electrocardiogram else { preconditionFailure("an HKElectrocardiogram without its recording") }
        return HealthElectrocardiogramQuery(electrocardiogram: electrocardiogram) { [self] _, result in
            switch result {
            case .measurement(let measurement):
                handler.call(
                    self, .measurement(HKElectrocardiogram.VoltageMeasurement(healthFlowMeasurement: measurement)))
            case .done:
                handler.call(self, .done)
            case .error(let error):
                handler.call(self, .error(HKError(error)))
            }
        }
    }
}
