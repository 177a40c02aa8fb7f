import Foundation
import HealthFlow

/// An electrocardiogram recorded by a watch. Apps read them; they cannot make or save them (HealthKit has no
/// public initialiser).
public final class HKElectrocardiogram: HKSample, @unchecked Sendable {
    private var recording: HealthElectrocardiogram? {
        if case .electrocardiogram(let recording) = healthFlowSample { return recording }
        return nil
    }

    /// The number of voltage measurements.
    public var numberOfVoltageMeasurements: Int { recording?.numberOfVoltageMeasurements ?? 0 }

    /// The sampling frequency (Hz), when known.
    public var samplingFrequency: HKQuantity? { recording?.samplingFrequency.map(HKQuantity.init(healthFlowQuantity:)) }

    /// The classification the watch made.
    public var classification: Classification {
        Classification(rawValue: recording?.classification.rawValue ?? 0) ?? .notSet
    }

    /// The average heart rate during the recording, when known.
    public var averageHeartRate: HKQuantity? { recording?.averageHeartRate.map(HKQuantity.init(healthFlowQuantity:)) }

    /// Whether the person reported symptoms.
    public var symptomsStatus: SymptomsStatus {
        SymptomsStatus(rawValue: recording?.symptomsStatus.rawValue ?? 0) ?? .notSet
    }

    /// An electrocardiogram's classification (`HKElectrocardiogramClassification`): HealthFlow's own enum,
    /// whose cases and raw values are HealthKit's.
    public typealias Classification = HealthElectrocardiogram.Classification

    /// Whether symptoms were reported (`HKElectrocardiogramSymptomsStatus`): HealthFlow's own enum, whose cases
    /// and raw values are HealthKit's.
    public typealias SymptomsStatus = HealthElectrocardiogram.SymptomsStatus
}
