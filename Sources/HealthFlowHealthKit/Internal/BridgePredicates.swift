import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow predicates → HealthKit's `NSPredicate`s. Sources have no public HealthKit constructor from a
/// bundle identifier, so a predicate that names sources returns `nil` and the bridge filters the converted
/// results itself.
enum BridgePredicates {
    static func healthKit(_ predicate: SamplePredicate) -> NSPredicate? {
        switch predicate {
        case .date(let start, let end, let options):
            return HKQuery.predicateForSamples(
                withStart: start, end: end, options: HKQueryOptions(rawValue: UInt(options.rawValue)))
        case .uuids(let uuids):
            // Samples this bridge saved carry their HealthFlow UUID; others (e.g. a watch's ECG) keep HealthKit's.
            return NSCompoundPredicate(orPredicateWithSubpredicates: [
                HKQuery.predicateForObjects(
                    withMetadataKey: BridgeMetadata.uuidKey, allowedValues: uuids.map(\.uuidString)),
                HKQuery.predicateForObjects(with: uuids),
            ])
        case .metadata(let key, let value):
            let healthKitValue = BridgeMetadata.healthKit([key: value], extra: [:])[key.rawValue] ?? ""
            return HKQuery.predicateForObjects(withMetadataKey: key.rawValue, allowedValues: [healthKitValue])
        case .sources:
            return nil
        case .and(let parts):
            let converted = parts.compactMap(healthKit)
            guard converted.count == parts.count else { return nil }
            return NSCompoundPredicate(andPredicateWithSubpredicates: converted)
        case .or(let parts):
            let converted = parts.compactMap(healthKit)
            guard converted.count == parts.count else { return nil }
            return NSCompoundPredicate(orPredicateWithSubpredicates: converted)
        case .not(let part):
            return healthKit(part).map { NSCompoundPredicate(notPredicateWithSubpredicate: $0) }
        }
    }
}
