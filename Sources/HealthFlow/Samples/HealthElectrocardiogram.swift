import Foundation

/// An ECG recording's summary — the counterpart of `HKElectrocardiogram`. The type is always
/// `HealthObjectType.electrocardiogram`, which apps may read but not write (stores seed it as Apple Watch).
///
/// The voltage measurements are not part of the sample, as in HealthKit (where a separate query streams
/// them): an ``ElectrocardiogramRecording`` holds the sample with its measurements, checked by
/// `validateVoltageMeasurements(_:)`; the stores keep them beside it and ``HealthElectrocardiogramQuery``
/// reads them back.
public struct HealthElectrocardiogram: Hashable, Sendable {
    /// The rhythm the watch recognised (HealthKit's `HKElectrocardiogram.Classification`).
    public enum Classification: Int, CaseIterable, Hashable, Sendable, Codable {
        /// No classification.
        case notSet = 0
        /// Sinus rhythm.
        case sinusRhythm = 1
        /// Signs of atrial fibrillation.
        case atrialFibrillation = 2
        /// Inconclusive: heart rate below 50 BPM.
        case inconclusiveLowHeartRate = 3
        /// Inconclusive: heart rate above the supported range.
        case inconclusiveHighHeartRate = 4
        /// Inconclusive: poor recording.
        case inconclusivePoorReading = 5
        /// Inconclusive for another reason.
        case inconclusiveOther = 6
        /// The rhythm could not be recognised.
        case unrecognized = 100
    }

    /// Whether the person reported symptoms (HealthKit's `HKElectrocardiogram.SymptomsStatus`).
    public enum SymptomsStatus: Int, CaseIterable, Hashable, Sendable, Codable {
        /// Not recorded.
        case notSet = 0
        /// No symptoms.
        case none = 1
        /// Symptoms reported.
        case present = 2
    }

    /// The sample's identity.
    public let uuid: UUID
    /// Always `HealthObjectType.electrocardiogram`.
    public var type: HealthObjectType { .electrocardiogram }
    /// When the recording began.
    public let startDate: Date
    /// When it ended.
    public let endDate: Date
    /// The rhythm classification.
    public let classification: Classification
    /// Whether symptoms were reported.
    public let symptomsStatus: SymptomsStatus
    /// The average heart rate during the recording (a `count/time` quantity), if known.
    public let averageHeartRate: HealthQuantity?
    /// How often the voltage was sampled (a frequency such as `512 Hz`), if known.
    public let samplingFrequency: HealthQuantity?
    /// How many voltage measurements the recording holds.
    public let numberOfVoltageMeasurements: Int
    /// The device that made the recording.
    public let source: HealthSource
    /// Extra information.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated ECG sample.
    ///
    /// - Parameters:
    ///   - start: When the recording began.
    ///   - end: When it ended; not before `start`.
    ///   - classification: The rhythm classification.
    ///   - symptomsStatus: Whether symptoms were reported.
    ///   - averageHeartRate: A finite, non-negative `count/time` quantity, or `nil`.
    ///   - samplingFrequency: A finite, non-negative frequency (`Hz`), or `nil`.
    ///   - numberOfVoltageMeasurements: Not negative.
    ///   - source: The recording device.
    ///   - metadata: Extra information.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.incompatibleUnit`, `.nonFiniteValue`, `.negativeValue`,
    ///   `.invalidDate`, `.endBeforeStart` or `.invalidMetadataValue`.
    public init(
        start: Date, end: Date, classification: Classification, symptomsStatus: SymptomsStatus = .notSet,
        averageHeartRate: HealthQuantity?, samplingFrequency: HealthQuantity?, numberOfVoltageMeasurements: Int,
        source: HealthSource, metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        let type = HealthObjectType.electrocardiogram
        if let averageHeartRate {
            try SampleValidation.validateQuantity(
                averageHeartRate, of: type, field: "averageHeartRate",
                expected: HealthUnit.count().unitDivided(by: .second()), allowsNegative: false)
        }
        if let samplingFrequency {
            try SampleValidation.validateQuantity(
                samplingFrequency, of: type, field: "samplingFrequency", expected: .hertz(), allowsNegative: false)
        }
        guard numberOfVoltageMeasurements >= 0 else {
            throw .negativeValue(type, field: "numberOfVoltageMeasurements", value: Double(numberOfVoltageMeasurements))
        }
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
        self.uuid = uuid
        self.startDate = start
        self.endDate = end
        self.classification = classification
        self.symptomsStatus = symptomsStatus
        self.averageHeartRate = averageHeartRate
        self.samplingFrequency = samplingFrequency
        self.numberOfVoltageMeasurements = numberOfVoltageMeasurements
        self.source = source
        self.metadata = metadata
    }

    /// Checks that voltage measurements belong to this recording: exactly `numberOfVoltageMeasurements`
    /// of them, finite microvolts, and times that are finite, within `0...duration`, and never decreasing.
    ///
    /// - Parameter measurements: The measurements, in recording order.
    /// - Throws: `ValidationError.voltageMeasurementCountMismatch`, `.voltageMeasurementTimeOutOfRange` or
    ///   `.nonFiniteValue` (field `voltageMeasurements[i].microvolts`).
    /// - Complexity: O(n) in the number of measurements.
    public func validateVoltageMeasurements(
        _ measurements: [ElectrocardiogramVoltageMeasurement]
    ) throws(ValidationError) {
        guard measurements.count == numberOfVoltageMeasurements else {
            throw .voltageMeasurementCountMismatch(expected: numberOfVoltageMeasurements, actual: measurements.count)
        }
        let duration = endDate.timeIntervalSince(startDate)
        var previous = 0.0
        for (index, measurement) in measurements.enumerated() {
            let time = measurement.timeSinceSampleStart
            guard time.isFinite, time >= previous, time <= duration else {
                throw .voltageMeasurementTimeOutOfRange(index: index, timeSinceSampleStart: time)
            }
            guard measurement.microvolts.isFinite else {
                throw .nonFiniteValue(
                    type, field: "voltageMeasurements[\(index)].microvolts", value: measurement.microvolts)
            }
            previous = time
        }
    }
}

extension HealthElectrocardiogram: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, startDate, endDate, classification, symptomsStatus, averageHeartRate, samplingFrequency
        case numberOfVoltageMeasurements, source, metadata
    }

    /// Decodes and validates an ECG sample.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded sample breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthElectrocardiogram(
                start: shared.start, end: shared.end,
                classification: try container.decode(Classification.self, forKey: .classification),
                symptomsStatus: try container.decode(SymptomsStatus.self, forKey: .symptomsStatus),
                averageHeartRate: try container.decodeIfPresent(HealthQuantity.self, forKey: .averageHeartRate),
                samplingFrequency: try container.decodeIfPresent(HealthQuantity.self, forKey: .samplingFrequency),
                numberOfVoltageMeasurements: try container.decode(Int.self, forKey: .numberOfVoltageMeasurements),
                source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the sample's fields (with `"type": "electrocardiogram"` for readers of the JSON).
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(classification, forKey: .classification)
        try container.encode(symptomsStatus, forKey: .symptomsStatus)
        try container.encodeIfPresent(averageHeartRate, forKey: .averageHeartRate)
        try container.encodeIfPresent(samplingFrequency, forKey: .samplingFrequency)
        try container.encode(numberOfVoltageMeasurements, forKey: .numberOfVoltageMeasurements)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}

/// One voltage reading of an ECG: microvolts at a time offset from the recording's start (HealthKit's
/// `HKElectrocardiogram.VoltageMeasurement`, lead "Apple Watch similar to lead I").
public struct ElectrocardiogramVoltageMeasurement: Hashable, Sendable, Codable {
    /// Seconds since the recording's `startDate`.
    public let timeSinceSampleStart: TimeInterval
    /// The voltage in microvolts.
    public let microvolts: Double

    /// Makes a measurement; `HealthElectrocardiogram.validateVoltageMeasurements(_:)` checks a whole series.
    ///
    /// - Parameters:
    ///   - timeSinceSampleStart: Seconds since the recording's start.
    ///   - microvolts: The voltage in microvolts.
    public init(timeSinceSampleStart: TimeInterval, microvolts: Double) {
        self.timeSinceSampleStart = timeSinceSampleStart
        self.microvolts = microvolts
    }

    /// The voltage as a quantity in `mcV`.
    public var quantity: HealthQuantity {
        HealthQuantity(unit: .voltUnit(with: .micro), doubleValue: microvolts)
    }
}
