/// An ECG sample with its voltage measurements: what a watch hands to HealthKit, and what
/// the `ingest(_:)` of ``InMemoryHealthStore`` and ``FileHealthStore`` keep, so that a
/// ``HealthElectrocardiogramQuery`` reads the voltages back.
///
/// The measurements are checked against the sample when the recording is made
/// (``HealthElectrocardiogram/validateVoltageMeasurements(_:)``), so a recording is always consistent. Memory:
/// 16 bytes per measurement (a 30-second recording at 512 Hz is 15,360 measurements, 240 KiB).
public struct ElectrocardiogramRecording: Hashable, Sendable {
    /// The ECG sample.
    public let electrocardiogram: HealthElectrocardiogram
    /// Its voltage measurements, in recording order.
    public let voltageMeasurements: [ElectrocardiogramVoltageMeasurement]

    /// A recording whose measurements belong to `electrocardiogram`.
    ///
    /// - Throws: What ``HealthElectrocardiogram/validateVoltageMeasurements(_:)`` throws: the count differs
    ///   from `numberOfVoltageMeasurements`, a time is out of range or a voltage is not finite.
    /// - Complexity: O(n) in the number of measurements.
    public init(
        electrocardiogram: HealthElectrocardiogram, voltageMeasurements: [ElectrocardiogramVoltageMeasurement]
    ) throws(ValidationError) {
        try electrocardiogram.validateVoltageMeasurements(voltageMeasurements)
        self.electrocardiogram = electrocardiogram
        self.voltageMeasurements = voltageMeasurements
    }
}
