import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow's typed metadata ⇄ HealthKit's `[String: Any]`, plus the two private keys that keep what
/// HealthKit would otherwise lose: the HealthFlow UUID (HealthKit assigns its own) and the unit the quantity
/// was given in (HealthKit has no public getter for it).
enum BridgeMetadata {
    static let uuidKey = "HealthFlowUUID"
    static let unitKey = "HealthFlowUnit"

    static func healthKit(_ metadata: [MetadataKey: MetadataValue], extra: [String: String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in metadata { result[key.rawValue] = value.healthKitValue(quantity: BridgeTypes.quantity) }
        for (key, value) in extra { result[key] = value }
        return result
    }

    static func value(_ value: Any) -> MetadataValue? {
        switch value {
        case let string as String: .string(string)
        case let number as NSNumber: .number(number.doubleValue)
        case let double as Double: .number(double)
        case let int as Int: .number(Double(int))
        case let bool as Bool: .number(bool ? 1 : 0)
        case let date as Date: .date(date)
        case let quantity as HKQuantity:
            metadataQuantity(quantity).map(MetadataValue.quantity)
        default: nil
        }
    }

    /// One unit of each dimension a metadata quantity is read in (HealthKit has no getter for a quantity's unit).
    private static let metadataUnits: [HealthUnit] = [
        .count(), .meter(), .gram(), .second(), .kilocalorie(), .degreeCelsius(), .liter(), .pascal(), .hertz(),
        .volt(), .siemen(), .internationalUnit(), .decibelAWeightedSoundPressureLevel(),
        .count().unitDivided(by: .second()), .meter().unitDivided(by: .second()), .gram().unitDivided(by: .liter()),
    ]

    /// HealthKit's quantity in the first of ``metadataUnits`` it is compatible with; `nil` for another dimension.
    private static func metadataQuantity(_ quantity: HKQuantity) -> HealthQuantity? {
        for unit in metadataUnits where quantity.is(compatibleWith: BridgeTypes.unit(unit)) {
            return HealthQuantity(unit: unit, doubleValue: quantity.doubleValue(for: BridgeTypes.unit(unit)))
        }
        return nil
    }

    /// HealthFlow's metadata of a HealthKit object; a value HealthFlow cannot hold is left out and listed in
    /// `skips` under the object's HealthKit UUID.
    static func healthFlow(
        _ metadata: [String: Any]?, of object: UUID, skips: inout [HealthKitConversionSkip]
    ) -> [MetadataKey: MetadataValue] {
        var result: [MetadataKey: MetadataValue] = [:]
        for (key, value) in metadata ?? [:] where key != uuidKey && key != unitKey {
            if let converted = Self.value(value) {
                result[MetadataKey(rawValue: key)] = converted
            } else {
                skips.append(HealthKitConversionSkip(healthKitUUID: object, reason: .unreadableMetadata(key: key)))
            }
        }
        return result
    }
}
