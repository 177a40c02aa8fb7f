import Foundation

/// A sample that groups quantity samples taken together — the counterpart of `HKCorrelation`.
///
/// - A `bloodPressure` correlation holds exactly one `bloodPressureSystolic` and one
///   `bloodPressureDiastolic` sample, nothing else.
/// - A `food` correlation holds nutrition samples (`HealthObjectType.isNutrition`), at least one of
///   them `dietaryEnergyConsumed`, and carries the food's name under `MetadataKey.foodType`.
///
/// Every member must share the correlation's start and end dates exactly. HealthKit leaves this
/// unchecked; we require it because a member outside its correlation's interval has no meaning (a blood
/// pressure reading is one moment, a meal one interval), and statistics over members would otherwise
/// disagree with the correlation. No UUID may appear twice among the members and the correlation.
public struct HealthCorrelation: Hashable, Sendable {
    /// The correlation's identity.
    public let uuid: UUID
    /// The correlation type.
    public let type: HealthObjectType
    /// The member samples.
    public let objects: Set<HealthQuantitySample>
    /// When the grouped measurements began.
    public let startDate: Date
    /// When they ended.
    public let endDate: Date
    /// The app or device that made the correlation.
    public let source: HealthSource
    /// Extra information (`foodType` for a food).
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated correlation.
    ///
    /// - Parameters:
    ///   - type: A correlation type.
    ///   - start: When the grouped measurements began.
    ///   - end: When they ended; not before `start`.
    ///   - objects: The members, each with the same start and end dates as the correlation.
    ///   - source: Who made the correlation.
    ///   - metadata: Extra information, including any key `type.requiredMetadataKeys` names.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.notASampleType`, `.wrongKind`, `.invalidDate`, `.endBeforeStart`,
    ///   `.missingMetadata`, `.invalidMetadataValue`, `.duplicateUUID`, `.unexpectedCorrelationMember`,
    ///   `.duplicateCorrelationMember`, `.missingCorrelationMember` or `.correlationMemberDatesDiffer`.
    public init(
        type: HealthObjectType, start: Date, end: Date, objects: Set<HealthQuantitySample>, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        try SampleValidation.requireKind(type, .correlation)
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
        try Self.validateMembers(objects, of: type, start: start, end: end, uuid: uuid)
        self.uuid = uuid
        self.type = type
        self.objects = objects
        self.startDate = start
        self.endDate = end
        self.source = source
        self.metadata = metadata
    }

    /// Makes a blood-pressure correlation and its two members, all at the same dates and from the same source.
    ///
    /// - Parameters:
    ///   - systolic: The systolic pressure (a pressure unit).
    ///   - diastolic: The diastolic pressure (a pressure unit).
    ///   - start: When the reading began.
    ///   - end: When it ended.
    ///   - source: Who made the reading.
    ///   - metadata: Extra information for the correlation (members get none).
    /// - Returns: The validated correlation.
    /// - Throws: `ValidationError` from either member or from the correlation.
    public static func bloodPressure(
        systolic: HealthQuantity, diastolic: HealthQuantity, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:]
    ) throws(ValidationError) -> HealthCorrelation {
        let members: Set<HealthQuantitySample> = [
            try HealthQuantitySample(
                type: .bloodPressureSystolic, quantity: systolic, start: start, end: end, source: source),
            try HealthQuantitySample(
                type: .bloodPressureDiastolic, quantity: diastolic, start: start, end: end, source: source),
        ]
        return try HealthCorrelation(
            type: .bloodPressure, start: start, end: end, objects: members, source: source, metadata: metadata)
    }

    /// The members of one type (HealthKit's `objects(for:)`).
    ///
    /// - Parameter type: A member type.
    /// - Returns: The members of that type; empty when there are none.
    public func objects(for type: HealthObjectType) -> Set<HealthQuantitySample> {
        objects.filter { $0.type == type }
    }

    private static func validateMembers(
        _ objects: Set<HealthQuantitySample>, of type: HealthObjectType, start: Date, end: Date, uuid: UUID
    ) throws(ValidationError) {
        // Check in a fixed order so the same invalid input always reports the same error.
        let members = objects.sorted {
            ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
        }
        var seen: Set<UUID> = [uuid]
        for member in members where !seen.insert(member.uuid).inserted {
            throw .duplicateUUID(type, uuid: member.uuid)
        }
        let allowed = Set(type.correlationMemberTypes)
        var counts: [HealthObjectType: Int] = [:]
        for member in members {
            guard allowed.contains(member.type) else { throw .unexpectedCorrelationMember(type, member: member.type) }
            counts[member.type, default: 0] += 1
        }
        switch type {
        case .bloodPressure:
            for member in [HealthObjectType.bloodPressureSystolic, .bloodPressureDiastolic] {
                switch counts[member, default: 0] {
                case 0: throw .missingCorrelationMember(type, member: member)
                case 1: break
                default: throw .duplicateCorrelationMember(type, member: member)
                }
            }
        case .food:
            if counts[.dietaryEnergyConsumed, default: 0] == 0 {
                throw .missingCorrelationMember(type, member: .dietaryEnergyConsumed)
            }
        default:
            break
        }
        for member in members where member.startDate != start || member.endDate != end {
            throw .correlationMemberDatesDiffer(type, member: member.type, memberUUID: member.uuid)
        }
    }
}

extension HealthCorrelation: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, objects, startDate, endDate, source, metadata
    }

    /// Decodes and validates a correlation and its members.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded correlation breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthCorrelation(
                type: try container.decode(HealthObjectType.self, forKey: .type), start: shared.start,
                end: shared.end, objects: Set(try container.decode([HealthQuantitySample].self, forKey: .objects)),
                source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the correlation's fields; members are an array sorted by type identifier then UUID, so the
    /// encoding is deterministic.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let members = objects.sorted {
            ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
        }
        try container.encode(members, forKey: .objects)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}
