// A child process for HealthKitBridgeTests: makes one call that HealthKit answers with an exception, directly
// against the shim, so the test can watch the shim stop the process the way HealthKit stops an app.
// Usage: HealthKitShimProbe CASE   (CASE: wrong-unit, insulin-without-reason, share-exercise-time,
// authorize-blood-pressure, illegal-statistics-option, execute-twice, valid)
import Foundation
import HealthKitShim

let now = Date()
let store = HKHealthStore()
let caseName = CommandLine.arguments.dropFirst().first ?? "valid"
let done = DispatchSemaphore(value: 0)

switch caseName {
case "wrong-unit":
    _ = HKQuantitySample(
        type: HKQuantityType(.height), quantity: HKQuantity(unit: .gram(), doubleValue: 70), start: now, end: now)
case "insulin-without-reason":
    _ = HKQuantitySample(
        type: HKQuantityType(.insulinDelivery), quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 4),
        start: now, end: now)
case "share-exercise-time":
    store.requestAuthorization(toShare: [HKQuantityType(.appleExerciseTime)], read: []) { _, _ in }
case "authorize-blood-pressure":
    store.requestAuthorization(toShare: [], read: [HKCorrelationType(.bloodPressure)]) { _, _ in }
case "illegal-statistics-option":
    _ = HKStatisticsQuery(quantityType: HKQuantityType(.height), quantitySamplePredicate: nil, options: .cumulativeSum)
    { _, _, _ in }
case "execute-twice":
    let query = HKSampleQuery(
        sampleType: HKQuantityType(.height), predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil
    ) { _, _, _ in }
    store.execute(query)
    store.execute(query)
default:
    let sample = HKQuantitySample(
        type: HKQuantityType(.height), quantity: HKQuantity(unit: .meter(), doubleValue: 1.8), start: now, end: now)
    store.requestAuthorization(toShare: [HKQuantityType(.height)], read: []) { _, _ in
        store.save(sample) { success, _ in
            print(success ? "saved" : "not saved")
            done.signal()
        }
    }
    done.wait()
}
print("no exception")
