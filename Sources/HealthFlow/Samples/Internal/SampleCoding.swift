import Foundation

/// The coding keys every sample kind shares; each kind's `CodingKeys` enum witnesses them with its cases.
protocol SampleCodingKey: CodingKey {
    static var uuid: Self { get }
    static var type: Self { get }
    static var startDate: Self { get }
    static var endDate: Self { get }
    static var source: Self { get }
    static var metadata: Self { get }
}

/// The fields every sample kind encodes under the same keys: one place reads and writes them, and turns a
/// decoded sample that breaks a rule into `DecodingError.dataCorrupted`.
struct SampleCoding<Key: SampleCodingKey> {
    let uuid: UUID
    let start: Date
    let end: Date
    let source: HealthSource
    /// A missing `metadata` key decodes as no metadata.
    let metadata: [MetadataKey: MetadataValue]

    init(from container: KeyedDecodingContainer<Key>) throws {
        uuid = try container.decode(UUID.self, forKey: .uuid)
        start = try container.decode(Date.self, forKey: .startDate)
        end = try container.decode(Date.self, forKey: .endDate)
        source = try container.decode(HealthSource.self, forKey: .source)
        metadata = try container.decodeIfPresent([MetadataKey: MetadataValue].self, forKey: .metadata) ?? [:]
    }

    /// Writes a sample's shared fields.
    static func encode(
        uuid: UUID, type: HealthObjectType, start: Date, end: Date, source: HealthSource,
        metadata: [MetadataKey: MetadataValue], into container: inout KeyedEncodingContainer<Key>
    ) throws {
        try container.encode(uuid, forKey: .uuid)
        try container.encode(type, forKey: .type)
        try container.encode(start, forKey: .startDate)
        try container.encode(end, forKey: .endDate)
        try container.encode(source, forKey: .source)
        try container.encode(metadata, forKey: .metadata)
    }

    /// Decodes a sample with `decoder`'s keyed container: `make` builds (and validates) it from the shared
    /// fields and the container; a `ValidationError` becomes `DecodingError.dataCorrupted`.
    static func decode<Sample>(
        _ decoder: any Decoder,
        _ make: (SampleCoding, KeyedDecodingContainer<Key>) throws -> Sample
    ) throws -> Sample {
        let container = try decoder.container(keyedBy: Key.self)
        do {
            return try make(try SampleCoding(from: container), container)
        } catch let error as ValidationError {
            throw DecodingError.invalidSample(error, in: decoder)
        }
    }
}
