import Foundation
import HealthFlow

/// An electrocardiogram recorded by a watch. Apps read them; they cannot make or save them (HealthKit has no
/// public initialiser).
public final class HKElectrocardiogram: HKSample, @unchecked Sendable {
    var recording: HealthElectrocardiogram? {
        if case .electrocardiogram(let recording) = healthFlowSample { return recording }
        return nil
    }

    /// The number of voltage measurements.
    public var numberOfVoltageMeasurements: Int { recording?.numberOfVoltageMeasurements ?? 0 }

    /// The sampling frequency (Hz), when known.
    public var samplingFrequency: HKQuantity? { recording?.samplingFrequency.map(HKQuantity.init(healthFlowQuantity:)) }

    /// The classification the watch made.
    public var classification: Classification {
        recording?.classification ?? .notSet
    }

    /// The average heart rate during the recording, when known.
    public var averageHeartRate: HKQuantity? { recording?.averageHeartRate.map(HKQuantity.init(healthFlowQuantity:)) }

    /// Whether the person reported symptoms.
    public var symptomsStatus: SymptomsStatus {
        recording?.symptomsStatus ?? .notSet
    }

    /// An electrocardiogram's classification (`HKElectrocardiogramClassification`): HealthFlow's own enum,
    /// whose cases and raw values are HealthKit's.
    public typealias Classification = HealthElectrocardiogram.Classification

    /// Whether symptoms were reported (`HKElectrocardiogramSymptomsStatus`): HealthFlow's own enum, whose cases
    /// and raw values are HealthKit's.
    public typealias SymptomsStatus = HealthElectrocardiogram.SymptomsStatus

    /// The lead a voltage was measured on (`HKElectrocardiogramLead`).
    public enum Lead: Int, Sendable {
        /// The Apple Watch's electrical heart sensor, similar to a lead I ECG.
        case appleWatchSimilarToLeadI = 1
    }

    /// One voltage reading of an electrocardiogram (`HKElectrocardiogramVoltageMeasurement`), delivered by an
    /// ``HKElectrocardiogramQuery``.
    public final class VoltageMeasurement: NSObject, NSCopying, @unchecked Sendable {
        // @unchecked: immutable; its one stored property is a Sendable value set in init.
        private let measurement: ElectrocardiogramVoltageMeasurement

        init(healthFlowMeasurement: ElectrocardiogramVoltageMeasurement) {
            self.measurement = healthFlowMeasurement
        }

        /// Seconds since the electrocardiogram's start.
        public var timeSinceSampleStart: TimeInterval { measurement.timeSinceSampleStart }

        /// The voltage on `lead` (in volts' units: read it with `HKUnit.voltUnit(with: .micro)`).
        public func quantity(for lead: HKElectrocardiogram.Lead) -> HKQuantity? {
            lead == .appleWatchSimilarToLeadI ? HKQuantity(healthFlowQuantity: measurement.quantity) : nil
        }

        /// The measurement itself: it is immutable.
        public func copy(with zone: NSZone? = nil) -> Any { self }
    }
}
