import Foundation
import HealthFlow

/// HealthKit's `[String: Any]` metadata ⇄ HealthFlow's typed metadata.
enum ShimMetadata {
    /// Typed metadata from HealthKit's dictionary; a value of an unsupported class raises, as in HealthKit.
    static func healthFlow(_ metadata: [String: Any]?) -> [MetadataKey: MetadataValue] {
        var result: [MetadataKey: MetadataValue] = [:]
        for (key, value) in metadata ?? [:] {
            guard let converted = convert(value) else {
                HKShimException.raise("Invalid class \(type(of: value)) for metadata key: \(key)")
            }
            result[MetadataKey(rawValue: key)] = converted
        }
        return result
    }

    /// One metadata value, or `nil` for an unsupported class.
    static func convert(_ value: Any) -> MetadataValue? {
        switch value {
        case let string as String: .string(string)
        case let bool as Bool: .number(bool ? 1 : 0)
        case let int as Int: .number(Double(int))
        case let double as Double: .number(double)
        case let number as NSNumber: .number(number.doubleValue)
        case let date as Date: .date(date)
        case let quantity as HKQuantity: .quantity(quantity.healthFlowQuantity)
        default: nil
        }
    }

    /// HealthKit's dictionary (`nil` when empty): strings, `NSNumber`s, dates and quantities.
    static func healthKit(_ metadata: [MetadataKey: MetadataValue]) -> [String: Any]? {
        guard !metadata.isEmpty else { return nil }
        var result: [String: Any] = [:]
        for (key, value) in metadata {
            result[key.rawValue] = value.healthKitValue(quantity: HKQuantity.init(healthFlowQuantity:))
        }
        return result
    }
}
