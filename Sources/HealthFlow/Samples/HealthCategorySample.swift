import Foundation

/// One value of a closed set over a time interval — the counterpart of `HKCategorySample`.
///
/// The value must be one the type allows (`type.allowedCategoryValues`); typed values such as
/// `SleepAnalysisValue` make that hard to get wrong.
public struct HealthCategorySample: Hashable, Sendable {
    /// The sample's identity.
    public let uuid: UUID
    /// The category type.
    public let type: HealthObjectType
    /// The raw category value.
    public let value: Int
    /// When the interval began.
    public let startDate: Date
    /// When it ended.
    public let endDate: Date
    /// The app or device that made the sample.
    public let source: HealthSource
    /// Extra information.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated category sample from a raw value.
    ///
    /// - Parameters:
    ///   - type: A category type.
    ///   - value: One of `type.allowedCategoryValues`.
    ///   - start: When the interval began.
    ///   - end: When it ended; not before `start`.
    ///   - source: Who made the sample.
    ///   - metadata: Extra information, including any key `type.requiredMetadataKeys` names.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.notASampleType`, `.wrongKind`, `.invalidCategoryValue`,
    ///   `.invalidDate`, `.endBeforeStart`, `.missingMetadata` or `.invalidMetadataValue`.
    public init(
        type: HealthObjectType, value: Int, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        try SampleValidation.requireKind(type, .category)
        guard type.allowedCategoryValues.contains(value) else {
            throw .invalidCategoryValue(type, value: value, allowed: type.allowedCategoryValues)
        }
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
        self.uuid = uuid
        self.type = type
        self.value = value
        self.startDate = start
        self.endDate = end
        self.source = source
        self.metadata = metadata
    }

    /// Makes a validated category sample from a typed value; the type is the value's `categoryType`.
    ///
    /// - Parameters:
    ///   - value: The typed value.
    ///   - start: When the interval began.
    ///   - end: When it ended; not before `start`.
    ///   - source: Who made the sample.
    ///   - metadata: Extra information.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError`, as `init(type:value:start:end:source:metadata:uuid:)`.
    public init<Value: HealthCategoryValue>(
        _ value: Value, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        try self.init(
            type: Value.categoryType, value: value.rawValue, start: start, end: end, source: source,
            metadata: metadata, uuid: uuid)
    }

    /// The value as a typed category value, or `nil` when `Value` belongs to another type.
    ///
    /// - Parameter valueType: The typed value set, e.g. `SleepAnalysisValue.self`.
    /// - Returns: The typed value, or `nil`.
    public func value<Value: HealthCategoryValue>(as valueType: Value.Type) -> Value? {
        guard Value.categoryType == type else { return nil }
        return Value(rawValue: value)
    }
}

extension HealthCategorySample: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, value, startDate, endDate, source, metadata
    }

    /// Decodes and validates a sample.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded sample breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthCategorySample(
                type: try container.decode(HealthObjectType.self, forKey: .type),
                value: try container.decode(Int.self, forKey: .value), start: shared.start, end: shared.end,
                source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the sample's fields.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}
