import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import Testing

/// The conformance suite against HealthFlow's stores and the HealthKit bridge over the shim: identical
/// transcripts, and the transcript itself says what HealthKit's rules say.
@Suite struct HealthStoreConformanceTests {
    @Test func bridgeOverShimAnswersExactlyLikeTheInMemoryStore() async throws {
        let reference = try await HealthStoreConformance.transcript(
            of: .inMemory(policy: HealthStoreConformance.policy))
        let bridge = try await HealthStoreConformance.transcript(of: .bridge(policy: HealthStoreConformance.policy))
        #expect(reference.count == bridge.count)
        for (expected, actual) in zip(reference, bridge) {
            #expect(expected == actual)
        }
    }

    @Test func fileStoreAnswersExactlyLikeTheInMemoryStore() async throws {
        let reference = try await HealthStoreConformance.transcript(
            of: .inMemory(policy: HealthStoreConformance.policy))
        let file = try await HealthStoreConformance.transcript(of: .file(policy: HealthStoreConformance.policy))
        #expect(reference == file)
    }

    @Test func transcriptFollowsHealthKitsRules() async throws {
        let entries = try await HealthStoreConformance.transcript(of: .bridge(policy: HealthStoreConformance.policy))
        func value(_ label: String) -> AnyHashable? { entries.first { $0.label == label }?.value }
        #expect(
            value("share read-only appleExerciseTime")
                == AnyHashable(HealthStoreError.typeNotShareable(.appleExerciseTime)))
        #expect(
            value("authorize bloodPressure correlation")
                == AnyHashable(HealthStoreError.correlationTypeNotAuthorizable(.bloodPressure)))
        #expect(value("status dietaryWater") == AnyHashable(AuthorizationStatus.sharingDenied))
        #expect(value("status bloodPressureDiastolic") == AnyHashable(AuthorizationStatus.sharingAuthorized))
        #expect(value("heart rate (read denied)") == AnyHashable([HealthSample]()))
        #expect(value("save denied type") == AnyHashable(HealthStoreError.authorizationDenied(.dietaryWater)))
        #expect(
            value("save never-requested type")
                == AnyHashable(HealthStoreError.authorizationNotDetermined(.distanceWalkingRunning)))
        #expect(value("sum of heights (illegal)").map { "\($0)".contains("cumulativeSum") } == true)
        #expect(value("tombstone names the deleted sample") == AnyHashable(true))
        #expect(value("limit counts samples and deletions") == AnyHashable(2))
        #expect(value("observer initial") == AnyHashable(Optional(true)))
        #expect(
            value("execute a query twice")
                == AnyHashable(Optional(HealthStoreError.queryAlreadyExecuted(query: "HealthSampleQuery(height)"))))
        let summaries = value("activity summaries")?.base as? [ActivitySummary]
        #expect(summaries?.map(\.dateString) == ["2024-02-29", "2024-03-01", "2024-03-02"])
        let march1 = summaries?.first { $0.dateString == "2024-03-01" }
        #expect(march1?.activeEnergyBurned == HealthQuantity(unit: .kilocalorie(), doubleValue: 200))
        #expect(march1?.appleExerciseTime == HealthQuantity(unit: .minute(), doubleValue: 40))
        let hourly = value("hourly steps")?.base as? [HealthStatistics]
        let hourlyTotal = hourly?.compactMap { $0.sumQuantity()?.value }.reduce(0, +) ?? 0
        #expect((hourly?.count ?? 0) > 1)
        #expect(abs(hourlyTotal - 2_199) < 1e-6)  // the app's 2,100 steps and the watch's 99
        let sum = value("step sum by source")?.base as? HealthStatistics
        #expect(abs((sum?.sumQuantity()?.value ?? 0) - 2_199) < 1e-6)
        #expect(sum?.sumQuantity(for: StoreUnderTest.watch)?.value == 99)
        #expect((value("electrocardiograms")?.base as? [HealthSample])?.count == 1)
        #expect(value("observer after save") == AnyHashable(Optional(1)))
        #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
    }
}
