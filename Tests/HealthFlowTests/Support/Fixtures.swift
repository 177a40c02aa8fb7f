import Foundation
import HealthFlow

/// Shared, deterministic test data.
enum Fixture {
    static let source = HealthSource(bundleIdentifier: "com.example.healthflow", name: "HealthFlow Tests")
    static let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")
    /// 2024-03-01 12:00:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_709_294_400)
    static let oneHourLater = noon.addingTimeInterval(3600)
    static let perMinute = HealthUnit.count().unitDivided(by: .minute())
    static let mmHg = HealthUnit.millimeterOfMercury()

    static func quantity(_ value: Double, _ unit: String) throws -> HealthQuantity {
        HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value)
    }

    static func sample(
        _ type: HealthObjectType, _ value: Double, _ unit: String, start: Date = noon, end: Date = noon,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws -> HealthQuantitySample {
        try HealthQuantitySample(
            type: type, quantity: quantity(value, unit), start: start, end: end, source: source, metadata: metadata,
            uuid: uuid)
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
