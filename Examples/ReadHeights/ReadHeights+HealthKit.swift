import ExampleSupport
import Foundation

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// The seed program as it was written, directly against HealthKit: ask for permission, then fetch every
/// height, newest first, with an `HKSampleQuery`. On an iPhone it compiles against HealthKit; on Linux against
/// `HealthKitShim`. Compare with `readHeightsWithCallbacks`, the same program over HealthFlow's `HealthStore`.
public final class HealthKitHeightReader: Sendable {
    let healthStore: HKHealthStore

    /// A reader over a health store (the app's one `HKHealthStore()` by default).
    public init(healthStore: HKHealthStore = HKHealthStore()) {
        self.healthStore = healthStore
    }

    /// Lists the heights, newest first: `1.72 m  2026-10-21`.
    ///
    /// - Parameter completion: Called once with the lines or the error.
    public func readHeights(completion: @escaping @Sendable ([String]?, (any Error)?) -> Void) {
        guard let heightType = HKObjectType.quantityType(forIdentifier: .height) else {
            completion(nil, nil)
            return
        }
        healthStore.requestAuthorization(toShare: [heightType], read: [heightType]) { success, error in
            guard success else {
                completion(nil, error)
                return
            }
            let sortDescriptor = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
            let query = HKSampleQuery(
                sampleType: heightType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: [sortDescriptor]
            ) { _, results, error in
                guard let samples = results as? [HKQuantitySample] else {
                    completion(nil, error)
                    return
                }
                let lines = samples.map { sample in
                    "\(sample.quantity.doubleValue(for: HKUnit.meter())) m  \(formatDay(sample.endDate))"
                }
                completion(lines, nil)
            }
            self.healthStore.execute(query)
        }
    }
}
