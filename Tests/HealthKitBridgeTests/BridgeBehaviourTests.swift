import FlowKit
import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import Testing

@testable import HealthFlowHealthKit

/// What the bridge does beyond the conformance suite: lossless conversion (looked at from both sides),
/// error-code mapping, long-running queries, characteristics and background delivery.
@Suite struct BridgeBehaviourTests {
    let noon = Date(timeIntervalSince1970: 1_709_294_400)

    @Test func everyHealthKitErrorCodeMapsToATypedError() {
        for code in HKError.Code.allCases {
            let mapped = BridgeErrors.healthFlow(
                HKError(code, userInfo: [NSLocalizedDescriptionKey: "from HealthKit"]), type: .height)
            switch code {
            case .errorInvalidArgument, .errorUnknown, .errorAnotherWorkoutSessionStarted,
                .errorUserExitedWorkoutSession, .errorWorkoutActivityNotAllowed,
                .errorBackgroundWorkoutSessionNotAllowed, .errorNotPermissibleForGuestUserMode:
                #expect(mapped.code == .unknown, "\(code)")
                #expect(mapped.description.contains("from HealthKit"), "\(code)")
            default:
                #expect(mapped.code.rawValue == code.rawValue, "\(code)")
            }
        }
        #expect(
            BridgeErrors.healthFlow(HKError(.errorAuthorizationDenied), type: .bodyMass)
                == .authorizationDenied(.bodyMass))
        #expect(BridgeErrors.healthFlow(HKError(.errorNoData), type: .dateOfBirth) == .noData(.dateOfBirth))
        #expect(BridgeErrors.healthFlow(HealthStoreError.userCanceled, type: nil) == .userCanceled)
    }

    @Test func whatHealthFlowCannotHoldFromAnotherAppIsListedAndTheRestDelivered() async throws {
        let fixture = BridgeFixture()
        try await fixture.store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
        let bpm = HKUnit.count().unitDivided(by: .minute())
        let written = HKQuantitySample(
            type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: bpm, doubleValue: 61), start: noon, end: noon,
            metadata: [
                "HealthFlowUnit": "kg",  // the bridge's own key, written by someone else with a unit of mass
                "Cuff": HKQuantity(unit: .millimeterOfMercury(), doubleValue: 120),
                "Torque": HKQuantity(unit: HKUnit.gram().unitMultiplied(by: .meter()), doubleValue: 3),
            ])
        let (saved, _) = await healthKitCompletion { fixture.healthStore.save(written, withCompletion: $0) }
        #expect(saved)

        let delivered = try await fixture.store.samples(of: .heartRate)

        guard case .quantity(let sample)? = delivered.first, delivered.count == 1 else {
            Issue.record("expected one heart rate, got \(delivered.count)")
            return
        }
        let perMinute = HealthUnit.count().unitDivided(by: .minute())
        #expect(sample.quantity.unit == HealthObjectType.heartRate.canonicalUnit)
        #expect(try sample.quantity.doubleValue(for: perMinute) == 61)
        guard case .quantity(let cuff)? = sample.metadata["Cuff"] else {
            Issue.record("the pressure in the metadata was not delivered")
            return
        }
        #expect(abs(try cuff.doubleValue(for: .millimeterOfMercury()) - 120) < 1e-9)
        #expect(sample.metadata["Torque"] == nil)
        let skips = fixture.store.conversionSkips
        #expect(Set(skips.map(\.reason)) == [.unusableSavedUnit("kg"), .unreadableMetadata(key: "Torque")])
        #expect(Set(skips.map(\.healthKitUUID)).count == 1)
        _ = try await fixture.store.samples(of: .heartRate)
        #expect(fixture.store.conversionSkips == skips)  // each listed once, however often it is read
    }

    @Test func samplesRoundTripWithoutLossAndHealthKitHoldsItsOwnUUID() async throws {
        let fixture = BridgeFixture()
        try await fixture.store.requestAuthorization(
            toShare: [.height, .sleepAnalysis, .bloodPressureSystolic],
            read: [.height, .sleepAnalysis, .bloodPressureSystolic])
        let source = StoreUnderTest.appSource
        let height = HealthSample.quantity(
            try HealthQuantitySample(
                type: .height, quantity: HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 181.5),
                start: noon, end: noon.addingTimeInterval(1), source: source,
                metadata: [
                    "Note": "after breakfast", .wasUserEntered: 1, "MeasuredAt": .date(noon),
                    "Tolerance": .quantity(HealthQuantity(unit: .meter(), doubleValue: 0.005)),
                ]))
        let sleep = HealthSample.category(
            try HealthCategorySample(
                SleepAnalysisValue.asleepREM, start: noon, end: noon.addingTimeInterval(900), source: source))
        let pressure = HealthSample.correlation(
            try HealthCorrelation.bloodPressure(
                systolic: HealthQuantity(unit: .millimeterOfMercury(), doubleValue: 118),
                diastolic: HealthQuantity(unit: .millimeterOfMercury(), doubleValue: 76), start: noon, end: noon,
                source: source))
        try await fixture.store.save([height, sleep, pressure])
        #expect(try await fixture.store.samples(of: .height) == [height])
        #expect(try await fixture.store.samples(of: .sleepAnalysis) == [sleep])
        #expect(try await fixture.store.samples(of: .bloodPressure) == [pressure])
        // Behind the bridge, HealthKit gave the object its own UUID; the HealthFlow one rides in metadata.
        let behind = try await fixture.backend.samples(of: .height)
        #expect(behind.count == 1)
        #expect(behind.first?.uuid != height.uuid)
        #expect(behind.first?.metadata["HealthFlowUUID"] == .string(height.uuid.uuidString))
        #expect(behind.first?.metadata["HealthFlowUnit"] == .string("cm"))
    }

    @Test func observerCompletionAndStopFollowHealthKit() async throws {
        let fixture = BridgeFixture()
        try await fixture.store.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass])
        let (first, firstDelivered) = Promise<Void>.pending()
        let (second, secondDelivered) = Promise<Void>.pending()
        let count = LockedState(0)
        let query = HealthObserverQuery(sampleType: .bodyMass) { _, completion, error in
            completion()
            let seen = count.withLock { count -> Int in
                count += 1
                return count
            }
            if seen == 1 { firstDelivered.fulfill() }
            if seen == 2 { secondDelivered.fulfill() }
        }
        fixture.store.execute(query)
        try await first.value
        try await fixture.store.save(
            .quantity(
                try HealthQuantitySample(
                    type: .bodyMass, quantity: HealthQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
                    date: noon,
                    source: StoreUnderTest.appSource)))
        try await second.value
        #expect(query.deliveredUpdates == 2)
        #expect(query.unacknowledgedUpdates == 0)
        fixture.store.stop(query)
        #expect(fixture.calls("stop") == 1)
        #expect(query.isStopped)
        try await fixture.store.save(
            .quantity(
                try HealthQuantitySample(
                    type: .bodyMass, quantity: HealthQuantity(unit: .gramUnit(with: .kilo), doubleValue: 71),
                    date: noon,
                    source: StoreUnderTest.appSource)))
        _ = try await fixture.store.samples(of: .bodyMass)  // let any stray delivery run first
        #expect(query.deliveredUpdates == 2)
    }

    @Test func anchoredUpdateHandlerReportsLaterChangesWithHealthFlowUUIDs() async throws {
        let fixture = BridgeFixture()
        try await fixture.store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        let sample = HealthSample.quantity(
            try HealthQuantitySample(
                type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 12), date: noon,
                source: StoreUnderTest.appSource))
        let (added, addedResolver) = Promise<[HealthSample]>.pending()
        let (removed, removedResolver) = Promise<[UUID]>.pending()
        let query = HealthAnchoredObjectQuery(
            type: .stepCount, anchor: nil,
            updateHandler: { _, samples, deleted, _, _ in
                if let samples, !samples.isEmpty { addedResolver.fulfill(samples) }
                if let deleted, !deleted.isEmpty { removedResolver.fulfill(deleted.map(\.uuid)) }
            }, resultsHandler: { _, _, _, _, _ in })
        fixture.store.execute(query)
        try await fixture.store.save(sample)
        #expect(try await added.value == [sample])
        try await fixture.store.delete(sample)
        #expect(try await removed.value == [sample.uuid])
        fixture.store.stop(query)
    }

    @Test func characteristicsReadThroughHealthKitWithTypedErrors() async throws {
        let fixture = BridgeFixture(
            characteristics: HealthCharacteristics(
                biologicalSex: .female, bloodType: .oNegative, fitzpatrickSkinType: .typeIV, wheelchairUse: .yes,
                activityMoveMode: .appleMoveTime))
        #expect(throws: HealthStoreError.authorizationNotDetermined(.biologicalSex)) {
            _ = try fixture.store.biologicalSex()
        }
        try await fixture.store.requestAuthorization(
            toShare: [],
            read: [.biologicalSex, .bloodType, .dateOfBirth, .fitzpatrickSkinType, .wheelchairUse, .activityMoveMode])
        #expect(try fixture.store.biologicalSex() == .female)
        #expect(try fixture.store.bloodType() == .oNegative)
        #expect(try fixture.store.fitzpatrickSkinType() == .typeIV)
        #expect(try fixture.store.wheelchairUse() == .yes)
        #expect(try fixture.store.activityMoveMode() == .appleMoveTime)
        #expect(throws: HealthStoreError.noData(.dateOfBirth)) { _ = try fixture.store.dateOfBirthComponents() }
    }

    @Test func backgroundDeliveryIsPassedToHealthKit() async throws {
        let fixture = BridgeFixture()
        let enabled = await healthKitCompletion {
            fixture.store.enableBackgroundDelivery(for: .stepCount, frequency: .hourly, withCompletion: $0)
        }
        #expect(enabled.0)
        #expect(fixture.calls("enableBackgroundDelivery") == 1)
        let refused = await healthKitCompletion {
            fixture.store.enableBackgroundDelivery(for: .activitySummary, frequency: .daily, withCompletion: $0)
        }
        #expect(!refused.0)
        #expect(refused.1 == .unsupportedQueryType(.activitySummary, query: "background delivery"))
        #expect(fixture.calls("enableBackgroundDelivery") == 1)
        let disabled = await healthKitCompletion { fixture.store.disableAllBackgroundDelivery(completion: $0) }
        #expect(disabled.0)
    }
}
