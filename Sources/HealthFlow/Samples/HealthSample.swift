import Foundation

/// Any sample a store holds: a quantity sample, a category sample, a correlation, an ECG, a workout or a
/// heartbeat series — the counterpart of `HKSample` with its subclasses as cases.
///
/// Every case has a UUID, a type, start and end dates, a source and metadata, readable without
/// switching.
///
/// A sample encodes as a single-key object naming its kind: `{"quantity": {…}}`, `{"category": {…}}`,
/// `{"correlation": {…}}`, `{"electrocardiogram": {…}}`, `{"workout": {…}}`,
/// `{"heartbeatSeries": {…}}`.
public enum HealthSample: Hashable, Sendable {
    /// A quantity sample.
    case quantity(HealthQuantitySample)
    /// A category sample.
    case category(HealthCategorySample)
    /// A correlation with its members.
    case correlation(HealthCorrelation)
    /// An ECG summary. Boxed (`indirect`), as a workout is: both are rare and the largest payloads, and an enum
    /// is as large as its largest inline case, so every quantity and category sample (nearly all of a store)
    /// would otherwise carry their size.
    indirect case electrocardiogram(HealthElectrocardiogram)
    /// A workout (boxed, see ``electrocardiogram(_:)``).
    indirect case workout(HealthWorkout)
    /// A heartbeat series (its beats are kept beside it, as ECG voltages are).
    case heartbeatSeries(HealthHeartbeatSeries)

    /// The sample's identity.
    public var uuid: UUID {
        switch self {
        case .quantity(let sample): sample.uuid
        case .category(let sample): sample.uuid
        case .correlation(let sample): sample.uuid
        case .electrocardiogram(let sample): sample.uuid
        case .workout(let sample): sample.uuid
        case .heartbeatSeries(let sample): sample.uuid
        }
    }

    /// The sample's type.
    public var type: HealthObjectType {
        switch self {
        case .quantity(let sample): sample.type
        case .category(let sample): sample.type
        case .correlation(let sample): sample.type
        case .electrocardiogram(let sample): sample.type
        case .workout(let sample): sample.type
        case .heartbeatSeries(let sample): sample.type
        }
    }

    /// When the sample's interval began.
    public var startDate: Date {
        switch self {
        case .quantity(let sample): sample.startDate
        case .category(let sample): sample.startDate
        case .correlation(let sample): sample.startDate
        case .electrocardiogram(let sample): sample.startDate
        case .workout(let sample): sample.startDate
        case .heartbeatSeries(let sample): sample.startDate
        }
    }

    /// When the sample's interval ended.
    public var endDate: Date {
        switch self {
        case .quantity(let sample): sample.endDate
        case .category(let sample): sample.endDate
        case .correlation(let sample): sample.endDate
        case .electrocardiogram(let sample): sample.endDate
        case .workout(let sample): sample.endDate
        case .heartbeatSeries(let sample): sample.endDate
        }
    }

    /// The app or device that made the sample.
    public var source: HealthSource {
        switch self {
        case .quantity(let sample): sample.source
        case .category(let sample): sample.source
        case .correlation(let sample): sample.source
        case .electrocardiogram(let sample): sample.source
        case .workout(let sample): sample.source
        case .heartbeatSeries(let sample): sample.source
        }
    }

    /// The sample's metadata.
    public var metadata: [MetadataKey: MetadataValue] {
        switch self {
        case .quantity(let sample): sample.metadata
        case .category(let sample): sample.metadata
        case .correlation(let sample): sample.metadata
        case .electrocardiogram(let sample): sample.metadata
        case .workout(let sample): sample.metadata
        case .heartbeatSeries(let sample): sample.metadata
        }
    }
}

extension HealthSample: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case quantity, category, correlation, electrocardiogram, workout, heartbeatSeries
    }

    /// Decodes a single-key object naming the kind, validating the sample.
    ///
    /// - Throws: `DecodingError` unless exactly one known key holds a valid sample.
    public init(from decoder: any Decoder) throws {
        let (container, key) = try decoder.singleKeyContainer(keyedBy: CodingKeys.self, subject: "a sample")
        switch key {
        case .quantity: self = .quantity(try container.decode(HealthQuantitySample.self, forKey: key))
        case .category: self = .category(try container.decode(HealthCategorySample.self, forKey: key))
        case .correlation: self = .correlation(try container.decode(HealthCorrelation.self, forKey: key))
        case .electrocardiogram:
            self = .electrocardiogram(try container.decode(HealthElectrocardiogram.self, forKey: key))
        case .workout: self = .workout(try container.decode(HealthWorkout.self, forKey: key))
        case .heartbeatSeries:
            self = .heartbeatSeries(try container.decode(HealthHeartbeatSeries.self, forKey: key))
        }
    }

    /// Encodes a single-key object naming the kind.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .quantity(let sample): try container.encode(sample, forKey: .quantity)
        case .category(let sample): try container.encode(sample, forKey: .category)
        case .correlation(let sample): try container.encode(sample, forKey: .correlation)
        case .electrocardiogram(let sample): try container.encode(sample, forKey: .electrocardiogram)
        case .workout(let sample): try container.encode(sample, forKey: .workout)
        case .heartbeatSeries(let sample): try container.encode(sample, forKey: .heartbeatSeries)
        }
    }
}
