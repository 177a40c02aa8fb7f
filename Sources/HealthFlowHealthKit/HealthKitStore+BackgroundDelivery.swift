import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// How often HealthKit may wake the app for new data of a type (HealthKit enforces a minimum per type: step
/// count is at most hourly).
public enum BackgroundDeliveryFrequency: Int, CaseIterable, Hashable, Sendable {
    /// As soon as data arrives (where the type allows it).
    case immediate = 1
    /// At most once an hour.
    case hourly = 2
    /// At most once a day.
    case daily = 3
    /// At most once a week.
    case weekly = 4
}

extension HealthKitStore {
    /// Asks HealthKit to wake the app in the background when new samples of `type` arrive, at most as often as
    /// `frequency`. On iOS the app also needs the HealthKit Background Delivery entitlement, and must start an
    /// observer query (`HealthObserverQuery`) for the type early in every launch; HealthKit then calls the
    /// observer's update handler, and the app **must call its completion handler** once it has fetched the new
    /// data — HealthKit retries with back-off, and eventually stops waking the app, when it is not called. The
    /// bridge passes HealthFlow's completion handler through to HealthKit's, so calling it is enough.
    ///
    /// - Parameters:
    ///   - type: A sample type the app may read.
    ///   - frequency: The most often HealthKit should wake the app.
    ///   - completion: Called with `true` when HealthKit accepted the request, or a `HealthStoreError`.
    public func enableBackgroundDelivery(
        for type: HealthObjectType, frequency: BackgroundDeliveryFrequency,
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard isHealthDataAvailable else { return completion(false, HealthStoreError.healthDataUnavailable) }
        guard type.isSampleType, let healthKitType = BridgeTypes.healthKitSample(type) else {
            return completion(false, HealthStoreError.unsupportedQueryType(type, query: "background delivery"))
        }
        let healthKitFrequency = HKUpdateFrequency(rawValue: frequency.rawValue) ?? .hourly
        healthStore.enableBackgroundDelivery(for: healthKitType, frequency: healthKitFrequency) { success, error in
            completion(success, error.map { BridgeErrors.healthFlow($0, type: type) })
        }
    }

    /// Stops background delivery for `type`.
    ///
    /// - Parameters:
    ///   - type: The sample type.
    ///   - completion: Called with `true` when HealthKit accepted the request, or a `HealthStoreError`.
    public func disableBackgroundDelivery(
        for type: HealthObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard let healthKitType = BridgeTypes.healthKit(type) else {
            return completion(false, HealthStoreError.unsupportedQueryType(type, query: "background delivery"))
        }
        healthStore.disableBackgroundDelivery(for: healthKitType) { success, error in
            completion(success, error.map { BridgeErrors.healthFlow($0, type: type) })
        }
    }

    /// Stops background delivery for every type.
    ///
    /// - Parameter completion: Called with `true` when HealthKit accepted the request, or a `HealthStoreError`.
    public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        healthStore.disableAllBackgroundDelivery { success, error in
            completion(success, error.map { BridgeErrors.healthFlow($0, type: nil) })
        }
    }
}
