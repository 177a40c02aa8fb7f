import Foundation

/// A measured amount over a time interval — the counterpart of `HKQuantitySample`.
///
/// The initializer enforces HealthKit's rules and throws instead of crashing: the unit must measure what
/// the type measures, the value must be finite (and not negative, except for temperatures and sound
/// levels), `end >= start`, and the type's required metadata must be present and valid.
///
/// Samples encode with their fields; decoding runs the same validation.
public struct HealthQuantitySample: Hashable, Sendable {
    /// The sample's identity; a store refuses a second sample with the same UUID.
    public let uuid: UUID
    /// The quantity type.
    public let type: HealthObjectType
    /// The measured amount, in the unit it was given.
    public let quantity: HealthQuantity
    /// When the measurement began.
    public let startDate: Date
    /// When the measurement ended (equal to `startDate` for an instantaneous reading).
    public let endDate: Date
    /// The app or device that made the sample.
    public let source: HealthSource
    /// Extra information; see `MetadataKey` for the keys HealthKit defines.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated quantity sample.
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - quantity: The amount; its unit must be compatible with `type.canonicalUnit`.
    ///   - start: When the measurement began.
    ///   - end: When it ended; not before `start`.
    ///   - source: Who made the sample.
    ///   - metadata: Extra information, including any key `type.requiredMetadataKeys` names.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.notASampleType`, `.wrongKind`, `.incompatibleUnit`,
    ///   `.nonFiniteValue`, `.negativeValue`, `.invalidDate`, `.endBeforeStart`, `.missingMetadata` or
    ///   `.invalidMetadataValue`.
    public init(
        type: HealthObjectType, quantity: HealthQuantity, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        try self.init(
            type: type, quantity: quantity, start: start, end: end, source: source, metadata: metadata, uuid: uuid,
            knownUnitFit: nil)
    }

    /// The validating initializer behind the public one. A decoder that has already validated a sample of
    /// this type in this unit passes `knownUnitFit` — whether the type allows negative values — to skip the
    /// unit's dimension check (the costly part of validation when loading millions of samples); every
    /// other rule is checked as always.
    init(
        type: HealthObjectType, quantity: HealthQuantity, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue], uuid: UUID, knownUnitFit allowsNegative: Bool?
    ) throws(ValidationError) {
        try Self.validate(type: type, quantity: quantity, start: start, end: end, metadata: metadata, allowsNegative)
        self.init(
            checkedBefore: type, quantity: quantity, start: start, end: end, source: source, metadata: metadata,
            uuid: uuid)
    }

    /// A sample whose rules were checked when it was first made: only for samples read back from a store's own
    /// checksummed files (see `SampleDecoder.trustsKnownQuantitySamples`).
    init(
        checkedBefore type: HealthObjectType, quantity: HealthQuantity, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue], uuid: UUID
    ) {
        self.uuid = uuid
        self.type = type
        self.quantity = quantity
        self.startDate = start
        self.endDate = end
        self.source = source
        self.metadata = metadata
    }

    /// Every rule the initializer checks, in its order, without making a sample; `knownUnitFit` as there.
    static func validate(
        type: HealthObjectType, quantity: HealthQuantity, start: Date, end: Date,
        metadata: [MetadataKey: MetadataValue], _ allowsNegative: Bool?
    ) throws(ValidationError) {
        try SampleValidation.requireKind(type, .quantity)
        guard let canonicalUnit = type.canonicalUnit else { throw .wrongKind(type, expected: .quantity) }
        try SampleValidation.validateQuantity(
            quantity, of: type, field: "quantity", expected: allowsNegative == nil ? canonicalUnit : nil,
            allowsNegative: allowsNegative ?? type.allowsNegativeValues)
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
    }

    /// Makes a validated instantaneous quantity sample (`start == end == date`).
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - quantity: The amount.
    ///   - date: When it was measured.
    ///   - source: Who made the sample.
    ///   - metadata: Extra information.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError`, as `init(type:quantity:start:end:source:metadata:uuid:)`.
    public init(
        type: HealthObjectType, quantity: HealthQuantity, date: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        try self.init(
            type: type, quantity: quantity, start: date, end: date, source: source, metadata: metadata, uuid: uuid)
    }
}

extension HealthQuantitySample: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, quantity, startDate, endDate, source, metadata
    }

    /// Decodes and validates a sample.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded sample breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthQuantitySample(
                type: try container.decode(HealthObjectType.self, forKey: .type),
                quantity: try container.decode(HealthQuantity.self, forKey: .quantity), start: shared.start,
                end: shared.end, source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the sample's fields.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(quantity, forKey: .quantity)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}
