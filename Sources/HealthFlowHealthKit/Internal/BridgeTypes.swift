import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow's catalog types ⇄ HealthKit's type objects (both are keyed by HealthKit's identifiers).
enum BridgeTypes {
    static func healthKit(_ type: HealthObjectType) -> HKObjectType? {
        switch type.kind {
        case .quantity:
            HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: type.healthKitIdentifier))
        case .category:
            HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: type.healthKitIdentifier))
        case .correlation:
            HKObjectType.correlationType(
                forIdentifier: HKCorrelationTypeIdentifier(rawValue: type.healthKitIdentifier))
        case .characteristic:
            HKObjectType.characteristicType(
                forIdentifier: HKCharacteristicTypeIdentifier(rawValue: type.healthKitIdentifier))
        case .activitySummary: HKObjectType.activitySummaryType()
        case .electrocardiogram: HKObjectType.electrocardiogramType()
        case .workout, .heartbeatSeries: nil
        }
    }

    static func healthKitSample(_ type: HealthObjectType) -> HKSampleType? {
        healthKit(type) as? HKSampleType
    }

    static func healthKitQuantity(_ type: HealthObjectType) -> HKQuantityType? {
        healthKit(type) as? HKQuantityType
    }

    static func healthFlow(_ type: HKObjectType) -> HealthObjectType? {
        HealthObjectType(identifier: type.identifier)
    }

    static func unit(_ unit: HealthUnit) -> HKUnit {
        HKUnit(from: unit.unitString)
    }

    static func quantity(_ quantity: HealthQuantity) -> HKQuantity {
        HKQuantity(unit: unit(quantity.unit), doubleValue: quantity.value)
    }

    static func source(_ source: HKSource) -> HealthSource {
        HealthSource(bundleIdentifier: source.bundleIdentifier, name: source.name)
    }
}
