import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
@_spi(Testing) import HealthKitShim
import Testing

/// Every call where HealthKit raises an exception (the app crashes): the bridge answers with HealthFlow's
/// typed error and never makes the HealthKit call; the shim's own check shows that the same input, given to
/// HealthKit directly, would raise.
@Suite struct CrashCaseTests {
    let noon = Date(timeIntervalSince1970: 1_709_294_400)

    @Test func wrongUnitIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        #expect(throws: ValidationError.self) {
            _ = try HealthQuantitySample(
                type: .height, quantity: HealthQuantity(unit: .gram(), doubleValue: 70), date: noon,
                source: StoreUnderTest.appSource)
        }
        // A wrong unit cannot reach the bridge as a sample; statistics read in the type's own unit.
        _ = try await fixture.store.statistics(of: .height, options: .mostRecent)
        #expect(fixture.calls("save") == 0)
        let reason = HealthKitShimExceptions.reasonForQuantitySample(
            type: HKQuantityType(.height), quantity: HKQuantity(unit: .gram(), doubleValue: 70), start: noon,
            end: noon, metadata: nil)
        #expect(reason?.contains("requires unit of type") == true)
        #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
    }

    @Test func insulinWithoutReasonIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        #expect(throws: ValidationError.missingMetadata(.insulinDelivery, key: .insulinDeliveryReason)) {
            _ = try HealthQuantitySample(
                type: .insulinDelivery, quantity: HealthQuantity(unit: .internationalUnit(), doubleValue: 4),
                date: noon, source: StoreUnderTest.appSource)
        }
        #expect(fixture.calls("save") == 0)
        let reason = HealthKitShimExceptions.reasonForQuantitySample(
            type: HKQuantityType(.insulinDelivery), quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 4),
            start: noon, end: noon, metadata: nil)
        #expect(reason == "HKInsulinDeliveryReason is required for HKQuantityTypeIdentifierInsulinDelivery")
        let withReason = HealthKitShimExceptions.reasonForQuantitySample(
            type: HKQuantityType(.insulinDelivery), quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 4),
            start: noon, end: noon,
            metadata: [HKMetadataKeyInsulinDeliveryReason: HKInsulinDeliveryReason.basal.rawValue])
        #expect(withReason == nil)
    }

    @Test func sharingAppleExerciseTimeIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        let (success, error) = await healthKitCompletion {
            fixture.store.requestAuthorization(toShare: [.appleExerciseTime], read: [], completion: $0)
        }
        #expect(!success)
        #expect(error == .typeNotShareable(.appleExerciseTime))
        #expect(fixture.calls("requestAuthorization") == 0)
        let reason = HealthKitShimExceptions.reasonForAuthorization(
            toShare: [HKQuantityType(.appleExerciseTime)], read: [], device: fixture.device)
        #expect(reason?.contains("HKQuantityTypeIdentifierAppleExerciseTime") == true)
    }

    @Test func authorizingBloodPressureCorrelationIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        let (success, error) = await healthKitCompletion {
            fixture.store.requestAuthorization(toShare: [], read: [.bloodPressure], completion: $0)
        }
        #expect(!success)
        #expect(error == .correlationTypeNotAuthorizable(.bloodPressure))
        #expect(fixture.calls("requestAuthorization") == 0)
        let reason = HealthKitShimExceptions.reasonForAuthorization(
            toShare: [], read: [HKCorrelationType(.bloodPressure)], device: fixture.device)
        #expect(reason?.contains("HKCorrelationTypeIdentifierBloodPressure") == true)
    }

    @Test func illegalStatisticsOptionIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        await #expect(throws: HealthStoreError.incompatibleStatisticsOption(.height, option: "cumulativeSum")) {
            _ = try await fixture.store.statistics(of: .height, options: .cumulativeSum)
        }
        await #expect(throws: HealthStoreError.incompatibleStatisticsOption(.stepCount, option: "discreteAverage")) {
            _ = try await fixture.store.statisticsCollection(
                of: .stepCount, options: .discreteAverage, anchorDate: noon,
                intervalComponents: DateComponents(day: 1))
        }
        #expect(fixture.calls("execute") == 0)
        #expect(
            HealthKitShimExceptions.reasonForStatistics(type: HKQuantityType(.height), options: .cumulativeSum) != nil)
        #expect(
            HealthKitShimExceptions.reasonForStatistics(type: HKQuantityType(.height), options: .discreteAverage) == nil
        )
    }

    @Test func executingAQueryTwiceIsATypedErrorAndNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        let errors = Promise<[HealthStoreError?]>.pending()
        let collected = LockedBox<[HealthStoreError?]>([])
        let query = HealthSampleQuery(sampleType: .height) { _, _, error in
            let all = collected.update { $0.append(error as? HealthStoreError) }
            if all.count == 2 { errors.resolver.fulfill(all) }
        }
        fixture.store.execute(query)
        fixture.store.execute(query)
        let answers = try await errors.promise.value
        #expect(answers.contains(.queryAlreadyExecuted(query: "HealthSampleQuery(height)")))
        #expect(answers.contains(nil))
        #expect(fixture.calls("execute") == 1)
        // The shim's own query, executed once, would raise if executed again.
        let direct = HKSampleQuery(
            sampleType: HKQuantityType(.height), predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil
        ) { _, _, _ in }
        #expect(HealthKitShimExceptions.reasonForExecuting(direct) == nil)
        fixture.healthStore.execute(direct)
        #expect(HealthKitShimExceptions.reasonForExecuting(direct)?.contains("already active") == true)
        #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
    }
}

/// A value behind a lock, for handlers that collect results.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: LockedState<Value>

    init(_ value: Value) {
        storage = LockedState(value)
    }

    func update(_ body: (inout Value) -> Void) -> Value {
        storage.withLock { value in
            body(&value)
            return value
        }
    }
}
