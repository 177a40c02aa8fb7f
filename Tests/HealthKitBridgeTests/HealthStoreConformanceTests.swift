import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import StoreConformance
import Testing

/// The shared conformance session against the HealthKit bridge over the shim: the same transcript as the
/// in-memory store, and HealthKit's rules, without one exception raised in the shim.
@Suite struct HealthStoreConformanceTests {
    @Test func bridgeOverShimAnswersExactlyLikeTheInMemoryStore() async throws {
        let reference = try await HealthStoreConformance.transcript(of: .inMemory(app: StoreUnderTest.app))
        let bridge = try await HealthStoreConformance.transcript(
            of: StoreUnderTest.bridge(policy: HealthStoreConformance.policy).subject)
        #expect(reference.count == bridge.count)
        for (expected, actual) in zip(reference, bridge) {
            #expect(expected == actual)
        }
    }

    @Test func bridgeTranscriptFollowsHealthKitsRules() async throws {
        let entries = try await HealthStoreConformance.transcript(
            of: StoreUnderTest.bridge(policy: HealthStoreConformance.policy).subject)
        #expect(HealthStoreConformance.ruleViolations(in: entries) == [])
        #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
    }
}
