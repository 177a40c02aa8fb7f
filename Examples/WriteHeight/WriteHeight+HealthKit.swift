import Foundation

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// The seed program as it was written, directly against HealthKit: make the height type, ask for permission,
/// check it, build a sample and save it, each step nested in the previous step's completion handler. On an
/// iPhone it compiles against HealthKit; on Linux against `HealthKitShim`. Compare with
/// `writeHeightWithCallbacks`, the same program over HealthFlow's `HealthStore`.
public final class HealthKitHeightWriter: Sendable {
    let healthStore: HKHealthStore

    /// A writer over a health store (the app's one `HKHealthStore()` by default).
    public init(healthStore: HKHealthStore = HKHealthStore()) {
        self.healthStore = healthStore
    }

    /// Saves a height given in centimetres as a sample in metres, dated `date`.
    ///
    /// - Parameters:
    ///   - centimeters: The height.
    ///   - date: When it was measured.
    ///   - completion: Called once with the printed line (`Saved! 1.72 m`) or the error.
    public func writeHeight(
        centimeters: Double, date: Date = Date(), completion: @escaping @Sendable (String?, (any Error)?) -> Void
    ) {
        guard HKHealthStore.isHealthDataAvailable() else {
            completion(nil, HKError(.errorHealthDataUnavailable))
            return
        }
        guard let heightType = HKObjectType.quantityType(forIdentifier: .height) else {
            completion(nil, HKError(.errorInvalidArgument))
            return
        }
        healthStore.requestAuthorization(toShare: [heightType], read: [heightType]) { success, error in
            guard success else {
                completion(nil, error)
                return
            }
            guard self.healthStore.authorizationStatus(for: heightType) == .sharingAuthorized else {
                completion(nil, HKError(.errorAuthorizationDenied))
                return
            }
            let centimeterQuantity = HKQuantity(unit: HKUnit.meterUnit(with: .centi), doubleValue: centimeters)
            let meters = centimeterQuantity.doubleValue(for: HKUnit.meter())
            let heightQuantity = HKQuantity(unit: HKUnit.meter(), doubleValue: meters)
            let heightSample = HKQuantitySample(type: heightType, quantity: heightQuantity, start: date, end: date)
            self.healthStore.save(heightSample) { success, error in
                if success {
                    completion("Saved! \(heightSample.quantity.doubleValue(for: HKUnit.meter())) m", nil)
                } else {
                    completion(nil, error)
                }
            }
        }
    }
}
